from django.apps import AppConfig


class PhasesConfig(AppConfig):
    name = "phases"
    verbose_name = "Syllabus"
