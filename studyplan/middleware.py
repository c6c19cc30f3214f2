"""The site's own middleware, each a plain callable class (Django's documented middleware
protocol)."""

from collections.abc import Callable

from django import forms
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.template.response import TemplateResponse
from django.utils.cache import patch_cache_control
from redis.exceptions import RedisError

NUL = "\x00"

GetResponse = Callable[[HttpRequest], HttpResponse]


class RefuseNulHeadersMiddleware:
    """Answer 400 to a request with a NUL character in a header (cookies included).

    PostgreSQL refuses NUL in text (psycopg raises DataError), even in a comparison; SQLite stores
    it. Headers reach queries where no form stands in between: django-axes stores the User-Agent
    and Accept of every login and failed login, and the session cookie is looked up in the
    session table. So without this check a NUL there is a 500 on the production database only.
    Form fields and URL parameters are left to their views, which name the field that was wrong
    (Django's form fields refuse NUL already); tests/test_hostile_input.py sweeps every page with
    NUL in every field on both databases.
    """

    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
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
        return self.get_response(request)


class PrivatePagesMiddleware:
    """Every answer to a request with a session is that visitor's own: ``Cache-Control:
    private, no-store``, so no shared cache (a proxy, a CDN) keeps it and the browser does not
    store it for the next person at a shared computer. The export and every learner page
    included. Read off the session cookie alone: no query, so /healthz stays query-free."""

    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if settings.SESSION_COOKIE_NAME in request.COOKIES or getattr(request, "session", {}).get(
            SESSION_KEY
        ):
            patch_cache_control(response, private=True, no_store=True)
        return response


class CacheUnavailableMiddleware:
    """The shared cache (Redis) out of reach while a request counts against one of allauth's
    rate limits (sign-up, password reset, sending a verification link): a 503 that says so and
    that nothing was sent, not a 500. Learner pages never read the cache."""

    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, RedisError):
            return render(request, "503.html", status=503)
        return None


class RefusedAccountFormIs400Middleware:
    """allauth's form views answer a refused form with 200; here, as on every other form of the
    site, a refused form is a 400 with its messages (nothing was saved). Read off the response
    allauth renders (a TemplateResponse holding the bound form), for its pages alone."""

    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_template_response(
        self, request: HttpRequest, response: TemplateResponse
    ) -> TemplateResponse:
        match = request.resolver_match
        ours = match is not None and (match.url_name or "").startswith("account_")
        if ours and request.method == "POST" and response.status_code == 200:
            context = response.context_data or {}
            if any(
                isinstance(value, forms.BaseForm) and value.is_bound and value.errors
                for value in context.values()
            ):
                response.status_code = 400
        return response
