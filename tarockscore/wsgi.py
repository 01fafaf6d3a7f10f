import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarockscore.settings")

from tarockscore.checks import require_secret_key

require_secret_key()
application = get_wsgi_application()
