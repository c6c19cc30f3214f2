from django.apps import AppConfig


class StudyplanConfig(AppConfig):
    name = "studyplan"
    verbose_name = "Study plan"

    def ready(self) -> None:
        from studyplan import checks  # noqa: F401 - registers the production checks
