import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "studyplan.settings")

application = get_asgi_application()

# gunicorn runs no system checks: refuse to start when every page would fail (no static manifest).
from studyplan.checks import refuse_to_serve  # noqa: E402 - needs the apps loaded above

refuse_to_serve()
