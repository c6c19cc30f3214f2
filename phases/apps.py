from django.apps import AppConfig


class PhasesConfig(AppConfig):
    name = "phases"
    verbose_name = "Syllabus"

    def ready(self) -> None:
        from phases.content import connect_signals

        connect_signals()  # every change to the content moves its version
