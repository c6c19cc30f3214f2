"""Links to our own pages from outside them (mail, the plan's calendar file): absolute, from
DJANGO_SITE_URL (settings.SITE_URL), never from a request's Host header, which a client writes."""

from django.conf import settings


def site_link(path: str) -> str:
    """The absolute address of one of our pages, given its path (``reverse``'s answer)."""
    return f"{settings.SITE_URL}{path}"
