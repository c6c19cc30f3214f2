import datetime

import factory
from django.contrib.auth import get_user_model

from phases.models import Intensity, SelfCheck
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
    for slug in slugs:
        CheckOffFactory(user=user, self_check=SelfCheck.objects.get(slug=slug))
