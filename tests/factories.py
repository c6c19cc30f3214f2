import datetime
from dataclasses import dataclass, field
from html.parser import HTMLParser

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

from phases.models import Intensity, SelfCheck
from progress import services
from progress.models import CheckOff, StudyPlan

PASSWORD = "correct-horse-battery-9"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"learner{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")
    password = factory.django.Password(PASSWORD)


class StudyPlanFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = StudyPlan

    user = factory.SubFactory(UserFactory)
    intensity = factory.LazyFunction(lambda: Intensity.objects.get(slug="standard"))
    start_date = factory.LazyFunction(datetime.date.today)
    exam_date = None


class CheckOffFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = CheckOff

    user = factory.SubFactory(UserFactory)
    self_check = factory.LazyFunction(lambda: SelfCheck.objects.current().first())


def tick(user, *slugs: str) -> None:
    """Tick through the app's own write path, so cached dashboards see it as they would."""
    for slug in slugs:
        services.set_done(user=user, self_check_id=SelfCheck.objects.get(slug=slug).pk, done=True)


def make_plan(user, *, intensity: str = "standard", days_ago: int = 0, exam_in: int | None = None):
    """A plan that started ``days_ago`` days before today (the server's today, not the OS's)."""
    today = timezone.localdate()
    return StudyPlanFactory(
        user=user,
        intensity=Intensity.objects.get(slug=intensity),
        start_date=today - datetime.timedelta(days=days_ago),
        exam_date=today + datetime.timedelta(days=exam_in) if exam_in is not None else None,
    )


# Reading responses: the tests look at elements and their text, not at exact markup.

# Elements that never have an end tag.
VOID_ELEMENTS = frozenset(
    {
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "source",
        "track",
        "wbr",
    }
)


@dataclass
class Element:
    tag: str
    attrs: dict[str, str | None]
    depth: int  # 0 for an element at the top level of a fragment
    parts: list[str] = field(default_factory=list)
    children: list["Element"] = field(default_factory=list)

    @property
    def text(self) -> str:
        """The element's text with entities decoded and whitespace collapsed."""
        return " ".join("".join(self.parts).split())

    @property
    def classes(self) -> list[str]:
        return (self.attrs.get("class") or "").split()


class _Outline(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self.open: list[Element] = []

    def handle_starttag(self, tag, attrs):
        element = Element(tag, dict(attrs), len(self.open))
        self.elements.append(element)
        if self.open:
            self.open[-1].children.append(element)
        if tag not in VOID_ELEMENTS:
            self.open.append(element)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID_ELEMENTS:
            self.open.pop()

    def handle_endtag(self, tag):
        for index in range(len(self.open) - 1, -1, -1):
            if self.open[index].tag == tag:
                del self.open[index:]
                return

    def handle_data(self, data):
        for element in self.open:
            element.parts.append(data)


def elements(html: str | bytes) -> list[Element]:
    parser = _Outline()
    parser.feed(html.decode() if isinstance(html, bytes) else html)
    parser.close()
    return parser.elements


def element_by_id(html: str | bytes, element_id: str) -> Element:
    found = [element for element in elements(html) if element.attrs.get("id") == element_id]
    assert len(found) == 1, f"expected one element with id={element_id!r}, found {len(found)}"
    return found[0]


def with_class(html: str | bytes, css_class: str) -> list[Element]:
    return [element for element in elements(html) if css_class in element.classes]


def table_rows(html: str | bytes, css_class: str) -> list[list[str]]:
    """The text of each body row's cells in the one table with this class."""
    (table,) = [element for element in with_class(html, css_class) if element.tag == "table"]
    (body,) = [child for child in table.children if child.tag == "tbody"]
    return [
        [cell.text for cell in row.children if cell.tag in ("th", "td")]
        for row in body.children
        if row.tag == "tr"
    ]


def page_text(html: str | bytes) -> str:
    return " ".join(element.text for element in elements(html) if element.depth == 0)


def practise(user, domain_slug: str, *, right: int, wrong: int = 0):
    """A finished drill in one domain with ``right`` and ``wrong`` scored answers."""
    from django.utils import timezone

    from phases.models import Domain, Question
    from progress.models import Attempt, AttemptQuestion

    now = timezone.now()
    attempt = Attempt.objects.create(
        user=user,
        kind=Attempt.Kind.DRILL,
        domain=Domain.objects.get(slug=domain_slug),
        started_at=now,
        submitted_at=now,
    )
    questions = list(Question.objects.filter(domain__slug=domain_slug)[: right + wrong])
    for position, question in enumerate(questions, start=1):
        correct = position <= right
        AttemptQuestion.objects.create(
            attempt=attempt,
            question=question,
            position=position,
            order=list(range(len(question.options))),
            chosen=sorted(question.correct_options) if correct else [],
            is_correct=correct,
            answered_at=now,
        )
    services._moved(user)
    return attempt


# The dashboard, read as a learner reads it.

DOMAIN_NAMES = {
    "core-ml": "Core Machine Learning and AI Knowledge",
    "experimentation": "Experimentation",
    "multimodal-data": "Multimodal Data",
    "software-development": "Software Development",
    "data-analysis": "Data Analysis",
    "performance-optimization": "Performance Optimization",
    "trustworthy-ai": "Trustworthy AI",
}


def domain_rows(response) -> dict[str, list[str]]:
    """The accessible table's cells per domain slug, in page order."""
    by_name = {name: slug for slug, name in DOMAIN_NAMES.items()}
    rows = {}
    for cells in table_rows(response.content, "domain-table"):
        (slug,) = [by_name[name] for name in by_name if cells[0].startswith(name)]
        rows[slug] = cells
    return rows


def focus(response) -> str:
    """The card that says where to start, which domain lags, or that none does."""
    (card,) = [
        e for e in elements(response.content) if e.attrs.get("aria-labelledby") == "focus-heading"
    ]
    return card.text


def verdict(response) -> str:
    (element,) = with_class(response.content, "verdict")
    return element.text
