"""Hostile input never answers 5xx: every URL the resolver knows, every method, every field a view
reads, as a stranger and as a learner with a plan, ticks, a drill and a mock.

The sweep takes its addresses from django.urls.get_resolver(), so a page is swept the day it is
added, and finds the fields a view reads by watching it read them: a first, valid request records
every key looked up in request.GET or request.POST. Each hostile value then goes into every field
at once and, where a check stopped the view before it read a field (a tick's `done` before its
`next`, an answer's `option` before its `then`), into the unread fields with the others valid. A
response must be a 4xx or a clean 2xx/3xx: never a 5xx, never an exception, never a redirect off
the site.
"""

import datetime
import logging
import re
import traceback
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.http import QueryDict
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.urls.exceptions import Resolver404
from django.urls.resolvers import RegexPattern
from django.utils import timezone
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from phases.models import Phase, Question
from progress.models import Attempt, QuestionCard, StudySession
from progress.study_time.services import record_session
from tests.factories import PASSWORD, drill_for, make_missed_due, make_plan, miss, mock_for, tick

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()
TICKED = "p1-backprop"
HOSTILE_SLUG = "a" * 300 + "-0_"  # slug-shaped, so it reaches the view
HUGE = "9" * 5000  # over Python's 4,300-digit limit for int()
PAST_BIGINT = str(2**63)  # an int() in Python, too big for any database integer

# Every value a field gets in turn. Lists are sent as a repeated key: one value expected, several
# given.
HOSTILE: list[str | list[str]] = [
    "0",
    "javascript:alert(1)",
    "//evil.example",
    "http://evil.example/",
    "/\\evil.example",
    HUGE,
    PAST_BIGINT,
    "-1",
    "1\x00",
    "ü" * 300,  # over any slug or name field, and not ASCII
    "١",  # a digit to str.isdigit(), not to a database
    "²",  # a digit to str.isdigit(), not to int()
    "🦄\u202e\u200f",  # an emoji and right-to-left marks
    "",
    "99999-12-31",
    ["1", "0"],
    ["0", HUGE],
]

# The fields the views and their forms read (progress/views/*.py, progress/forms.py,
# studyplan/views.py, Django's auth views); the sweep adds any other key it sees a view read.
BASELINE = {
    "next": "/dashboard/",
    "done": "1",
    "outcome": "got-it",
    "rating": "3",
    "option": "0",
    "flagged": "1",
    "then": "flagged",
    "domain": "core-ml",
    "minutes": "30",
    "day": TODAY.isoformat(),
    "q": "1",
    "kind": "drill",
    "intensity": "standard",
    "start_date": TODAY.isoformat(),
    "exam_date": (TODAY + datetime.timedelta(days=60)).isoformat(),
    # Never the learner's password: a sweep that deleted the account would sweep nothing after.
    "password": "not-the-password-1",
    "confirm": "on",
    "username": "learner-sweep",
    "email": "learner-sweep@example.com",
    "time_zone": "Europe/Berlin",
    "weekly_reminder": "on",
    "password1": "a-Long-pass-9981",
    "password2": "a-Long-pass-9981",
    "oldpassword": "not-the-password-1",
}

# Headers that reach the database (django-axes stores the user agent, Accept and the client's
# address of every login; the session cookie is looked up) or are read by django-htmx.
HOSTILE_HEADERS: list[dict[str, str]] = [
    {"HTTP_USER_AGENT": "\x00"},
    {"HTTP_USER_AGENT": "ü" * 3000, "HTTP_ACCEPT": "x" * 3000},
    {"HTTP_X_FORWARDED_FOR": "x" * 300 + ", 10.0.0.1", "HTTP_HX_CURRENT_URL": "javascript:1"},
    # In place of the client's own cookies: a session key no session has, and a NUL one.
    {"HTTP_COOKIE": f"sessionid={'ü' * 300}; csrftoken={HUGE}"},
    {"HTTP_COOKIE": "sessionid=abcdefgh\x00ijklmnop"},
]

SITE_HOSTS = {"", "testserver"}


@dataclass
class Sweep:
    """Sends requests and keeps every bad answer, to report them all at once."""

    client: Client
    user: object | None
    failures: list[str] = field(default_factory=list)
    sent: int = 0
    read: set[str] = field(default_factory=set)
    session: str = ""  # the learner's session cookie

    def send(
        self,
        method: str,
        path: str,
        *,
        query: dict | None = None,
        data: dict | None = None,
        headers: dict[str, str] | None = None,
    ) -> set[str]:
        """Send one request; return the keys the view read from request.GET and request.POST."""
        self.read = set()
        self.sent += 1
        url = path + ("?" + urllib.parse.urlencode(query, doseq=True) if query else "")
        # Each request from its own address: the login limiter would otherwise lock the sweep
        # out after a few wrong passwords, and every later login would be that 429, unswept.
        address = f"10.{self.sent // 62500 % 250}.{self.sent // 250 % 250}.{self.sent % 250 + 1}"
        extra = {"REMOTE_ADDR": address, **(headers or {})}
        try:
            # A savepoint per request: on PostgreSQL a failed query aborts the transaction, and
            # every later request in the test would fail with it.
            with transaction.atomic():
                if method in ("put", "delete"):
                    body = urllib.parse.urlencode(data or {}, doseq=True)
                    response = getattr(self.client, method)(
                        url, body, content_type="application/x-www-form-urlencoded", **extra
                    )
                elif method == "post":
                    response = self.client.post(url, data or {}, **extra)
                else:
                    response = getattr(self.client, method)(url, **extra)
        except Exception as error:  # noqa: BLE001 - every exception is a finding
            where = traceback.extract_tb(error.__traceback__)[-1]
            self.failures.append(
                f"{method.upper()} {url[:160]!r} data={_short(data)} headers={_short(headers)}: "
                f"{type(error).__name__}: {str(error)[:160]} at {where.filename}:{where.lineno}"
            )
            self._restore_identity()
            return set(self.read)
        problem = _problem(response)
        if problem:
            self.failures.append(
                f"{method.upper()} {url[:160]!r} data={_short(data)} headers={_short(headers)}: "
                f"{problem}"
            )
        self._restore_identity()
        return set(self.read)

    def _restore_identity(self) -> None:
        # Logging out or signing up must not turn one kind of visitor into another.
        if self.user is None:
            self.client.cookies.clear()
            return
        cookie = self.client.cookies.get(django_settings.SESSION_COOKIE_NAME)
        if cookie is not None and cookie.value == self.session:
            return
        if self.session:  # the session of before, if it still holds
            self.client.cookies[django_settings.SESSION_COOKIE_NAME] = self.session
        if self.client.session.get("_auth_user_id") != str(self.user.pk):
            self.client.force_login(self.user)
        self.session = self.client.cookies[django_settings.SESSION_COOKIE_NAME].value


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 160 else text[:150] + f"…({len(text)} chars)"


def _problem(response) -> str | None:
    if response.status_code >= 500:
        return f"answered {response.status_code}"
    targets = [response.headers.get(name) for name in ("HX-Redirect", "HX-Location")]
    if 300 <= response.status_code < 400:
        targets.append(response.headers.get("Location", ""))
    for target in filter(None, targets):
        # Browsers read a backslash as a slash and drop leading blanks and control characters.
        seen = target.strip("".join(chr(c) for c in range(33))).replace("\\", "/")
        parts = urllib.parse.urlsplit(seen)
        if parts.scheme not in ("", "http", "https") or parts.netloc not in SITE_HOSTS:
            return f"redirects off the site: {target[:120]!r}"
    return None


# The resolver's URL patterns, with their path converters filled in.


@dataclass(frozen=True)
class Pattern:
    route: str  # the whole pattern, for messages
    callback: object
    segments: tuple  # the RoutePattern / RegexPattern of each level


def url_patterns() -> list[Pattern]:
    def walk(patterns, segments: tuple) -> Iterator[Pattern]:
        for entry in patterns:
            if isinstance(entry, URLResolver):
                yield from walk(entry.url_patterns, (*segments, entry.pattern))
            elif isinstance(entry, URLPattern):
                chain = (*segments, entry.pattern)
                yield Pattern("".join(str(s) for s in chain), entry.callback, chain)

    return list(walk(get_resolver().url_patterns, ()))


ROUTE_PARAMETER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")
REGEX_GROUP = re.compile(r"\(\?P<(?P<name>\w+)>(?P<body>[^)]*)\)")


@dataclass
class Values:
    """What a converter can be filled with: real values first, then hostile ones."""

    real: dict[str, list[str]]
    hostile: dict[str, list[str]]

    def of(self, converter: str, name: str) -> tuple[list[str], list[str]]:
        real = self.real.get(name) or self.real.get(converter) or self.real["str"]
        hostile = self.hostile.get(converter) or self.hostile["str"]
        return real, hostile


def fill(pattern: Pattern, values: Values) -> list[tuple[str, bool]]:
    """The paths for one pattern as (path, real): every real combination, then each parameter
    hostile in turn with the others real."""
    slots: list[tuple[list[str], list[str], str]] = []  # real values, hostile values, safe chars
    template = ""
    for segment in pattern.segments:
        text = str(segment)
        if isinstance(segment, RegexPattern):
            text = text.removeprefix("^").removesuffix("$")

            def group(match: re.Match) -> str:
                body = match["body"]
                if re.fullmatch(r"[\w|-]+", body):  # an alternation of names
                    slots.append((body.split("|")[:1], [], ""))
                else:
                    slots.append((["no-such-page"], ["x" * 300, "\x00", HUGE], "/"))
                return f"{{{len(slots) - 1}}}"

            template += REGEX_GROUP.sub(group, text)
        else:

            def parameter(match: re.Match) -> str:
                converter = match["converter"] or "str"
                real, hostile = values.of(converter, match["name"])
                slots.append((real, hostile, "/" if converter == "path" else ""))
                return f"{{{len(slots) - 1}}}"

            template += ROUTE_PARAMETER.sub(parameter, text.replace("{", "{{").replace("}", "}}"))
    paths: list[tuple[str, bool]] = []

    def build(choice: list[str]) -> str:
        return "/" + template.format(
            *(
                urllib.parse.quote(value, safe=slot[2])
                for value, slot in zip(choice, slots, strict=True)
            )
        )

    combinations: list[list[str]] = [[]]
    for real, _, _ in slots:
        combinations = [[*c, value] for c in combinations for value in real]
    paths += [(build(c), True) for c in combinations]
    for index, (_, hostile, _) in enumerate(slots):
        for value in hostile:
            choice = [slot[0][0] for slot in slots]
            choice[index] = value
            paths.append((build(choice), False))
    return paths


def resolves_to(path: str, pattern: Pattern) -> bool | None:
    """Whether the path reaches the pattern's view; None when an earlier pattern with the same
    route shadows it (the project's own login in front of Django's), so no URL can."""
    try:
        match = resolve(urllib.parse.unquote(path))
    except Resolver404:
        return False
    if match.func is pattern.callback:
        return True
    # A regex route's "^" is left out of the matched route.
    return None if match.route == pattern.route.replace("^", "") else False


# The learner, and watching which fields a view reads.


@pytest.fixture
def settled(learner):
    """A learner with a plan, two ticks, a question missed in a drill (due for review), a drill,
    a live mock and a study session."""
    make_plan(learner, exam_in=60)
    tick(learner, TICKED, "p2-fid-direction")
    record_session(
        user=learner, phase_slug="core-ml-foundations", domain_slug="core-ml", day=TODAY, minutes=30
    )
    make_missed_due(learner, *miss(learner, Question.objects.current().first()))
    drill = drill_for(learner)
    mock = mock_for(learner)
    return learner, drill, mock


def missed_card(learner) -> QuestionCard:
    return QuestionCard.objects.get(user=learner)


@pytest.fixture
def watch_reads(monkeypatch):
    """Every key a view looks up in request.GET or request.POST lands in sweep.read."""
    target: list[Sweep] = []

    def recording(method):
        def wrapper(self, key, *args, **kwargs):
            # Only once parsed: building request.GET looks up each key it adds.
            if target and not self._mutable:
                target[0].read.add(key)
            return method(self, key, *args, **kwargs)

        return wrapper

    for name in ("get", "getlist", "__getitem__", "__contains__"):
        monkeypatch.setattr(QueryDict, name, recording(getattr(QueryDict, name)))
    return target


@pytest.fixture
def quiet_logs():
    # Thousands of refused requests each log a warning; the sweep reports its own findings.
    logger = logging.getLogger("django")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    yield
    logger.setLevel(level)


def converter_values(learner, drill: Attempt, mock: Attempt) -> Values:
    phase = Phase.objects.order_by("number").values_list("slug", flat=True).first()
    return Values(
        real={
            # Both kinds of slug the pages take: a phase, and a self-check the learner ticked.
            "slug": [phase, TICKED],
            "attempt_id": [str(drill.pk), str(mock.pk)],
            "position": ["1"],
            "card_id": [str(missed_card(learner).pk)],
            # The settled learner's first session (the sweep's own posts record more, or delete it).
            "session_id": [
                str(pk)
                for pk in StudySession.objects.for_user(learner)
                .order_by("pk")
                .values_list("pk", flat=True)[:1]
            ],
            "int": ["1"],
            "object_id": [str(learner.pk)],
            "content_type_id": ["1"],
            "path": [str(learner.pk)],
            "uidb64": ["MQ"],
            "token": ["set-password"],
            "str": [str(learner.pk)],
        },
        hostile={
            "slug": [HOSTILE_SLUG],
            "int": ["0", PAST_BIGINT, HUGE],
            "str": ["x" * 300, "\x00", "ü١²🦄"],
            "path": ["x" * 300 + "/y", "\x00", "-1"],
        },
    )


# Every hostile value at once, dealt out over the fields: for a view that reads no field, or an
# address that is no page, the values matter only to what runs before the view.
ALL_AT_ONCE = {key: HOSTILE[number % len(HOSTILE)] for number, key in enumerate(sorted(BASELINE))}
assert len(BASELINE) >= len(HOSTILE)  # so every value is dealt


def sweep_pattern(sweep: Sweep, paths: list[tuple[str, bool]]) -> None:
    for number, (path, real) in enumerate(paths):
        if not real:
            for method in ("get", "post"):
                sweep.send(method, path, query=ALL_AT_ONCE, data=ALL_AT_ONCE)
            continue
        # Hostile headers and cookies go to the pages that read fields (a login among them),
        # with the method they read them by.
        reader = None
        for method in ("get", "post"):
            read = sweep.send(method, path, query=BASELINE, data=BASELINE)
            if not read:
                sweep.send(method, path, query=ALL_AT_ONCE, data=ALL_AT_ONCE)
                continue
            sweep_fields(sweep, method, path, read)
            reader = method
        for headers in HOSTILE_HEADERS if reader else []:
            sweep.send(reader, path, query=BASELINE, data=BASELINE, headers=headers)
        sweep.send("head", path, query={"next": "//evil.example", "q": HUGE})
        # PUT and DELETE take turns: no view here reads their bodies.
        sweep.send(("put", "delete")[number % 2], path, query={"q": "\x00"}, data=BASELINE)


def sweep_fields(sweep: Sweep, method: str, path: str, read: set[str]) -> None:
    baseline = {**dict.fromkeys(read, "1"), **BASELINE}
    for number, value in enumerate(HOSTILE):
        htmx = {"HTTP_HX_REQUEST": "true"} if number % 2 else {}
        # Every field hostile at once, in the query string and the body ...
        every = dict.fromkeys(baseline, value)
        query = every if method == "get" else dict.fromkeys(read, value)
        unreached = read - sweep.send(method, path, query=query, data=every, headers=htmx)
        # ... then, where a check stopped the view before it read a field (a tick's `done`
        # before its `next`), the others valid and the unread ones hostile.
        while unreached:
            some = {**baseline, **dict.fromkeys(unreached, value)}
            query = some if method == "get" else dict.fromkeys(unreached, value)
            left = unreached - sweep.send(method, path, query=query, data=some, headers=htmx)
            if left == unreached:
                break
            unreached = left


def report(sweep: Sweep) -> str:
    unique = list(dict.fromkeys(sweep.failures))
    shown = "\n".join(unique[:40])
    return f"{len(unique)} bad answers out of {sweep.sent} requests:\n{shown}"


# A session cookie of 300 "ü" makes a cache key memcached would refuse; the site's caches
# (per-process memory, Redis) take any key.
@pytest.mark.filterwarnings("ignore::django.core.cache.CacheKeyWarning")
@pytest.mark.parametrize("visitor", ["anonymous", "learner"])
def test_every_url_answers_hostile_input_with_4xx_or_a_clean_answer(
    client, settled, watch_reads, quiet_logs, visitor
):
    learner, drill, mock = settled
    user = learner if visitor == "learner" else None
    if user is not None:
        client.force_login(user)
    sweep = Sweep(client, user)
    watch_reads.append(sweep)
    values = converter_values(learner, drill, mock)

    patterns = url_patterns()
    unreached = []
    for pattern in patterns:
        paths = fill(pattern, values)
        reached = {resolves_to(path, pattern) for path, real in paths if real}
        if reached == {None}:
            continue
        if True not in reached:
            unreached.append(pattern.route)
            continue
        sweep_pattern(sweep, paths)

    assert not unreached, f"the sweep could not build a URL for {unreached}"
    assert len(patterns) > 30  # the sweep walked the included URLconfs, not only the root
    assert not sweep.failures, report(sweep)
    # The learner is still there, as the sweep never had their password.
    assert get_user_model().objects.filter(pk=learner.pk).exists()


# The cases found by hand before the sweep, each pinned on its own.


def test_a_tick_with_a_next_that_is_not_a_path_returns_to_the_check(client, settled):
    learner, _, _ = settled
    client.force_login(learner)
    for target in ("0", "javascript:alert(1)", "//evil.example", "http://evil.example/", "/\\x"):
        for path in ("", "reveal/", "outcome/"):
            response = client.post(
                f"/study/checks/{TICKED}/{path}",
                {"done": "0", "outcome": "got-it", "next": target},
            )
            assert response.status_code == 302, (path, target)
            assert response["Location"].startswith("/study/core-ml-foundations/#check-"), target


def test_an_option_of_thousands_of_digits_is_a_400(client, settled):
    learner, drill, _ = settled
    client.force_login(learner)
    for option in ("4" * 4301, HUGE, PAST_BIGINT, "-1", "²", "١"):
        response = client.post(f"/practice/{drill.pk}/questions/1/", {"option": option})
        assert response.status_code == 400, option
        assert "Choose among this question's options." in response.text
    assert not drill.questions.filter(answered_at__isnull=False).exists()


def reviewed_rows(learner) -> tuple[list[dict], list[dict]]:
    return (
        list(learner.check_offs.order_by("pk").values()),
        list(learner.question_cards.order_by("pk").values()),
    )


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_rating_of_thousands_of_digits_or_odd_characters_is_a_400(client, settled, htmx):
    learner, _, _ = settled
    client.force_login(learner)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    before = reviewed_rows(learner)
    # A self-check is rated; a missed question is answered by its options' places.
    for url, name, message in (
        (
            f"/review/{TICKED}/",
            "rating",
            "Say rating=1 (forgot), 2 (hard), 3 (knew it) or 4 (easy).",
        ),
        (
            f"/review/questions/{missed_card(learner).pk}/",
            "option",
            "Choose among this question's options.",
        ),
    ):
        for rating in ("3" * 4301, HUGE, PAST_BIGINT, "-1", "²", "١", "3\x00", "🦄", " 3", "3.0"):
            response = client.post(url, {name: rating}, **headers)
            assert response.status_code == 400, (url, rating[:20])
            assert message in response.text
    assert reviewed_rows(learner) == before


def test_a_missed_question_card_id_past_any_database_integer_is_a_404(client, settled):
    learner, _, _ = settled
    client.force_login(learner)
    before = reviewed_rows(learner)
    for card_id in (PAST_BIGINT, str(2**31), "4" * 4301, HUGE):
        response = client.post(f"/review/questions/{card_id}/", {"rating": "3"})
        assert response.status_code == 404, card_id[:20]
    assert reviewed_rows(learner) == before


@pytest.mark.parametrize(
    "path, field, longest, status",
    [
        # allauth's log-in takes a username or an email address (at most 254 characters).
        ("/accounts/login/", "login", 254, 400),
        ("/admin/login/", "username", 150, 200),
    ],
)
def test_a_username_longer_than_any_account_is_refused_before_it_is_checked(
    client, learner, path, field, longest, status
):
    from axes.models import AccessAttempt, AccessFailureLog

    for username in ("u" * (longest + 1), "u" * 256, HUGE):
        response = client.post(path, {field: username, "password": "whatever-1"})
        assert response.status_code == status  # the login page again, saying why
        assert f"at most {longest} characters" in response.text
    # Nothing was counted against it: it can be no one's username.
    assert not AccessAttempt.objects.exists()
    assert not AccessFailureLog.objects.exists()
    # A username of the longest allowed length is checked as any other.
    client.post(path, {field: "u" * longest, "password": "whatever-1"})
    assert AccessAttempt.objects.filter(username="u" * longest).exists()


def test_a_nul_byte_in_a_drills_domain_is_a_400_and_starts_nothing(client, settled):
    learner, _, _ = settled
    client.force_login(learner)
    before = Attempt.objects.filter(user=learner).count()
    for domain in ("core-ml\x00", "\x00", "core ml", "core-ml/", "ü"):
        response = client.post("/practice/drill/", {"domain": domain})
        assert response.status_code == 400, domain
        assert "Choose one of the syllabus's domains to drill." in response.text
    assert Attempt.objects.filter(user=learner).count() == before


@pytest.mark.parametrize(
    "header",
    [
        {"HTTP_USER_AGENT": "bot\x00"},
        {"HTTP_ACCEPT": "text/html\x00"},
        {"HTTP_COOKIE": "sessionid=abcdefgh\x00ijklmnop"},
        {"HTTP_X_FORWARDED_FOR": "10.0.0.1\x00"},
    ],
)
def test_a_nul_byte_in_a_header_or_cookie_is_a_400_that_says_so(client, learner, header):
    from axes.models import AccessAttempt, AccessLog

    for method, path, data in (
        ("post", "/accounts/login/", {"login": learner.username, "password": "wrong-1"}),
        ("post", "/accounts/login/", {"login": learner.username, "password": PASSWORD}),
        ("get", "/dashboard/", {}),
    ):
        response = getattr(client, method)(path, data, **header)
        assert response.status_code == 400
        assert "Null characters are not allowed" in response.text
    assert not AccessAttempt.objects.exists()
    assert not AccessLog.objects.exists()


def test_a_locked_out_address_answers_hostile_logins_without_a_server_error(
    client, learner, settings
):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 3
    for n in range(3):
        client.post("/accounts/login/", {"login": f"sprayed{n}", "password": "wrong-1"})
    assert client.post("/accounts/login/", {"login": "x", "password": "y"}).status_code == 429
    for value in HOSTILE:
        for path in ("/accounts/login/", "/admin/login/"):
            form = {"login": value, "username": value, "password": value, "next": value}
            response = client.post(f"{path}?next=//evil.example", form, HTTP_USER_AGENT="ü" * 300)
            assert response.status_code in (200, 400, 429), (path, value)
            assert _problem(response) is None, (path, value)


def test_a_plan_with_a_huge_year_is_a_400_that_says_why(client, settled):
    learner, _, _ = settled
    client.force_login(learner)
    for start, exam in (
        ("99999-01-01", ""),
        (TODAY.isoformat(), "99999-01-01"),
        (TODAY.isoformat(), "9999-12-31"),
        ("0000-00-00", ""),
        (HUGE, HUGE),
    ):
        form = {"intensity": "standard", "start_date": start, "exam_date": exam}
        assert client.post("/plan/choose/", form).status_code == 400, form
        assert client.get("/plan/preview/", form).status_code == 400, form


# Any text in any fields of any page but the admin's, drawn by hypothesis.

any_text = st.text(st.characters(exclude_categories=("Cs",)), max_size=400)


@hypothesis_settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_any_text_in_any_field_is_never_a_server_error(client, settled, quiet_logs, data):
    learner, drill, mock = settled
    client.force_login(learner)
    sweep = Sweep(client, learner)
    values = converter_values(learner, drill, mock)
    pages = [
        path
        for pattern in url_patterns()
        if not pattern.route.startswith("admin/")
        for path, real in fill(pattern, values)
        if real
    ]
    path = data.draw(st.sampled_from(pages))
    fields = data.draw(st.sets(st.sampled_from(sorted(BASELINE)), min_size=1, max_size=4))
    drawn = {key: data.draw(st.one_of(any_text, st.lists(any_text, max_size=3))) for key in fields}
    form = {**BASELINE, **drawn}
    method = data.draw(st.sampled_from(["get", "post"]))
    sweep.send(method, path, query=form if method == "get" else drawn, data=form)
    assert not sweep.failures, report(sweep)
