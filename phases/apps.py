from django.apps import AppConfig


class PhasesConfig(AppConfig):
    name = "phases"
    verbose_name = "Syllabus"

    def ready(self) -> None:
        from . import content  # noqa: F401 - connects the signals that drop the cached syllabus
