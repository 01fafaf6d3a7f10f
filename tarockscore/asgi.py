import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarockscore.settings")

from tarockscore.checks import require_secret_key

require_secret_key()
application = get_asgi_application()
