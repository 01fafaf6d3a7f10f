import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarockscore.settings")
application = get_asgi_application()

from tarockscore.checks import require_secret_key  # noqa: E402

require_secret_key()
