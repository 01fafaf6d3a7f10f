import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarockscore.settings")
application = get_wsgi_application()

from tarockscore.checks import require_secret_key  # noqa: E402

require_secret_key()
