"""The NCA-GENM syllabus: content loaded from fixtures/syllabus.yaml.

Every model has a slug natural key, so the YAML carries no primary keys and reloading it updates
rows in place: learner rows that point at a self-check survive any content change.
"""

from django.db import models
from django.db.models import F


class SlugManager(models.Manager):
    def get_by_natural_key(self, slug: str):
        return self.get(slug=slug)


class Domain(models.Model):
    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=100)
    short_name = models.CharField(max_length=20, blank=True, help_text="For narrow chart labels.")
    exam_weight = models.PositiveSmallIntegerField(help_text="Share of the exam, in percent.")
    description = models.TextField()
    study_order = models.PositiveSmallIntegerField(unique=True)

    objects = SlugManager()

    class Meta:
        ordering = ["study_order"]

    def __str__(self) -> str:
        return self.name

    def natural_key(self) -> tuple[str]:
        return (self.slug,)


class Phase(models.Model):
    number = models.PositiveSmallIntegerField(unique=True)
    slug = models.SlugField(unique=True)
    title = models.CharField(max_length=120)
    goal = models.TextField()
    how_examined = models.TextField()
    practice_exercise = models.TextField()
    domains = models.ManyToManyField(Domain, related_name="phases")

    objects = SlugManager()

    class Meta:
        ordering = ["number"]

    def __str__(self) -> str:
        return f"Phase {self.number}: {self.title}"

    def natural_key(self) -> tuple[str]:
        return (self.slug,)


class Topic(models.Model):
    slug = models.SlugField(unique=True)
    domain = models.ForeignKey(Domain, on_delete=models.CASCADE, related_name="topics")
    title = models.CharField(max_length=160)
    summary = models.TextField()
    is_published = models.BooleanField(
        default=False, help_text="A published guide; the rest are on the way."
    )
    trap = models.TextField(blank=True, help_text="The wrong answer the exam baits, if any.")
    order = models.PositiveSmallIntegerField()
    sources = models.JSONField(
        default=list,
        blank=True,
        help_text='One to three primary sources: a list of {"title": ..., "url": ..., '
        '"kind": "paper" | "docs" | "spec"}; a paper is its arXiv abstract page, and its title '
        'names the same "arXiv:<id>".',
    )

    objects = SlugManager()

    class Meta:
        ordering = ["domain__study_order", "order"]

    def __str__(self) -> str:
        return self.title

    def natural_key(self) -> tuple[str]:
        return (self.slug,)

    natural_key.dependencies = [  # type: ignore[attr-defined]
        "phases.domain"
    ]

    @property
    def subarea_titles(self) -> list[str]:
        """The exam's subjects asked inside this topic, as the topic list shows them (the
        syllabus page prefetches them; the phase pages read the snapshot's)."""
        return [subarea.title for subarea in self.subareas.all()]


class SubArea(models.Model):
    """A subject the exam lists inside one of the guide's topics (the guide fixes the topics; a
    sub-area is a finer cut of one): RAG inside multimodal data, speculative decoding inside
    inference optimization. Its questions name it, and its sources are what they rest on."""

    slug = models.SlugField(unique=True)
    topic = models.ForeignKey(Topic, on_delete=models.CASCADE, related_name="subareas")
    title = models.CharField(max_length=160)
    sources = models.JSONField(
        default=list,
        blank=True,
        help_text="One to three primary sources, as a topic's: a list of "
        '{"title": ..., "url": ..., "kind": "paper" | "docs" | "spec"}.',
    )

    objects = SlugManager()

    class Meta:
        ordering = ["topic__domain__study_order", "topic__order", "slug"]
        verbose_name = "sub-area"

    def __str__(self) -> str:
        return self.title

    def natural_key(self) -> tuple[str]:
        return (self.slug,)

    natural_key.dependencies = [  # type: ignore[attr-defined]
        "phases.topic"
    ]


class RetirableQuerySet(models.QuerySet):
    def current(self):
        """Rows still in the syllabus (retired ones stay only for learners' history)."""
        return self.filter(retired=False)


class RetirableManager(SlugManager.from_queryset(RetirableQuerySet)):  # type: ignore[misc]
    pass


class SelfCheck(models.Model):
    """A question the learner must answer without notes; it counts for one phase and one domain."""

    slug = models.SlugField(unique=True)
    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="self_checks")
    domain = models.ForeignKey(Domain, on_delete=models.CASCADE, related_name="self_checks")
    topic = models.ForeignKey(
        Topic, on_delete=models.SET_NULL, null=True, blank=True, related_name="self_checks"
    )
    prompt = models.TextField()
    answer = models.TextField(help_text="A short reference answer, drawn from the study guide.")
    order = models.PositiveSmallIntegerField()
    retired = models.BooleanField(
        default=False,
        help_text="Removed from the syllabus: counts nowhere, but learners' ticks are kept.",
    )

    objects = RetirableManager()

    class Meta:
        ordering = ["phase__number", "order"]
        indexes = [models.Index(fields=["phase", "order"]), models.Index(fields=["domain"])]

    def __str__(self) -> str:
        return self.prompt[:80]

    def natural_key(self) -> tuple[str]:
        return (self.slug,)

    natural_key.dependencies = [  # type: ignore[attr-defined]
        "phases.phase",
        "phases.domain",
        "phases.topic",
    ]


class ExercisePart(models.Model):
    """One part of a phase's written practice exercise, in the study guide's words: the learner
    ticks it when their text covers it, and the exercise is done when every part is ticked."""

    slug = models.SlugField(unique=True)
    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="exercise_parts")
    text = models.TextField()
    order = models.PositiveSmallIntegerField()
    retired = models.BooleanField(
        default=False,
        help_text="Removed from the syllabus: counts nowhere, but learners' ticks are kept.",
    )

    objects = RetirableManager()

    class Meta:
        ordering = ["phase__number", "order"]

    def __str__(self) -> str:
        return self.text[:80]

    def natural_key(self) -> tuple[str]:
        return (self.slug,)

    natural_key.dependencies = [  # type: ignore[attr-defined]
        "phases.phase"
    ]


class IntensityQuerySet(models.QuerySet):
    def default(self):
        return self.filter(is_default=True).first()


class IntensityManager(SlugManager.from_queryset(IntensityQuerySet)):  # type: ignore[misc]
    pass


class Intensity(models.Model):
    """One of the study guide's three calendars: how many hours a week, and for whom."""

    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=60)
    audience = models.TextField(help_text="Who this intensity is for, from the study guide.")
    hours_per_week = models.PositiveSmallIntegerField()
    revision_hours = models.PositiveSmallIntegerField(
        default=0,
        help_text="Revision after phase 6, before the full mock's hour (phases.schedule).",
    )
    is_default = models.BooleanField(default=False)
    order = models.PositiveSmallIntegerField(default=0)

    objects = IntensityManager()

    class Meta:
        ordering = ["order"]
        verbose_name_plural = "intensities"

    def __str__(self) -> str:
        return self.name

    def natural_key(self) -> tuple[str]:
        return (self.slug,)


class PhaseHoursManager(models.Manager):
    def get_by_natural_key(self, intensity_slug: str, phase_slug: str):
        return self.get(intensity__slug=intensity_slug, phase__slug=phase_slug)


class PhaseHours(models.Model):
    """The hours an intensity gives one phase."""

    intensity = models.ForeignKey(Intensity, on_delete=models.CASCADE, related_name="phase_hours")
    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="hours")
    hours = models.PositiveSmallIntegerField()

    objects = PhaseHoursManager()

    class Meta:
        ordering = ["intensity__order", "phase__number"]
        verbose_name_plural = "phase hours"
        constraints = [
            models.UniqueConstraint(fields=["intensity", "phase"], name="unique_phase_hours")
        ]

    def __str__(self) -> str:
        return f"{self.intensity}: {self.phase} ({self.hours} h)"

    def natural_key(self) -> tuple[str, str]:
        return (self.intensity.slug, self.phase.slug)

    natural_key.dependencies = [  # type: ignore[attr-defined]
        "phases.intensity",
        "phases.phase",
    ]


class Question(models.Model):
    """A multiple-choice practice question; "choose two" ones are scored all-or-nothing."""

    slug = models.SlugField(unique=True)
    domain = models.ForeignKey(Domain, on_delete=models.CASCADE, related_name="questions")
    topic = models.ForeignKey(
        Topic, on_delete=models.SET_NULL, null=True, blank=True, related_name="questions"
    )
    subarea = models.ForeignKey(
        SubArea,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="questions",
        help_text="The exam's sub-area of the topic it tests, when it has one.",
    )
    prompt = models.TextField()
    options = models.JSONField(help_text='A list of {"text": ..., "correct": true/false}.')
    explanation = models.TextField()
    stretch = models.BooleanField(
        default=False,
        help_text="Deeper than the associate exam asks (paper or implementation depth): offered "
        "in drills as a stretch, never drawn for a mock or the placement.",
    )
    retired = models.BooleanField(default=False)

    objects = RetirableManager()

    class Meta:
        ordering = ["domain__study_order", "slug"]

    def __str__(self) -> str:
        return self.prompt[:80]

    def natural_key(self) -> tuple[str]:
        return (self.slug,)

    natural_key.dependencies = [  # type: ignore[attr-defined]
        "phases.domain",
        "phases.topic",
        "phases.subarea",
    ]

    @property
    def source(self) -> dict[str, str] | None:
        """The one source its explanation rests on: its sub-area's first, else its topic's."""
        for holder in (self.subarea, self.topic):
            if holder is not None and holder.sources:
                return dict(holder.sources[0])
        return None

    @property
    def correct_options(self) -> frozenset[int]:
        return frozenset(i for i, option in enumerate(self.options) if option.get("correct"))


class ContentVersion(models.Model):
    """A single row counting changes to the syllabus content.

    load_syllabus and every admin save or delete move it (see phases.content). It lives in the
    database, so every server reads the same number and drops its in-memory snapshot of the
    syllabus on its next request after a change.
    """

    number = models.PositiveBigIntegerField(default=0)

    class Meta:
        verbose_name = "content version"

    def __str__(self) -> str:
        return f"content version {self.number}"

    @classmethod
    def bump(cls) -> None:
        if not cls.objects.filter(pk=1).update(number=F("number") + 1):
            cls.objects.get_or_create(pk=1, defaults={"number": 1})
