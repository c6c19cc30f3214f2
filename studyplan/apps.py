from django.apps import AppConfig


class StudyplanConfig(AppConfig):
    name = "studyplan"
    verbose_name = "Study plan"
