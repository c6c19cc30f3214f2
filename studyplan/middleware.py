from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.utils.cache import patch_cache_control
from django.utils.deprecation import MiddlewareMixin
from redis.exceptions import RedisError

NUL = "\x00"


class RefuseNulHeadersMiddleware(MiddlewareMixin):
    """Answer 400 to a request with a NUL character in a header (cookies included).

    PostgreSQL refuses NUL in text (psycopg raises DataError), even in a comparison; SQLite stores
    it. Headers reach queries where no form stands in between: django-axes stores the User-Agent
    and Accept of every login and failed login, and the session cookie is looked up in the
    session table. So without this check a NUL there is a 500 on the production database only.
    Form fields and URL parameters are left to their views, which name the field that was wrong
    (Django's form fields refuse NUL already); tests/test_hostile_input.py sweeps every page with
    NUL in every field on both databases.
    """

    def process_request(self, request: HttpRequest) -> HttpResponse | None:
        if any(
            NUL in value
            for name, value in request.META.items()
            if name.startswith("HTTP_") and isinstance(value, str)
        ):
            return HttpResponseBadRequest(
                "Null characters are not allowed: a header or cookie of this request contains "
                "one (\\x00). Nothing was changed.",
                content_type="text/plain; charset=utf-8",
            )
        return None


class PrivatePagesMiddleware(MiddlewareMixin):
    """Every answer to a logged-in request is the learner's own: ``Cache-Control: private,
    no-store``, so no shared cache (a proxy, a CDN) keeps it and the browser does not store it
    for the next person at a shared computer. The export and every learner page included."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            patch_cache_control(response, private=True, no_store=True)
        return response


class CacheUnavailableMiddleware(MiddlewareMixin):
    """The shared cache (Redis) out of reach while a request counts against one of allauth's
    rate limits (sign-up, password reset, sending a verification link): a 503 that says so and
    that nothing was sent, not a 500. Learner pages never read the cache."""

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, RedisError):
            return render(request, "503.html", status=503)
        return None
