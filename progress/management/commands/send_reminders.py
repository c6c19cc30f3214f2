from typing import Any

from django.core.mail import get_connection
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from phases.words import counted
from progress.accounts import reminders

FAILURES_SHOWN = 20  # cron mails this output: the first few say what went wrong


class Command(BaseCommand):
    help = (
        "Send this week's reminder email to every learner who asked for one and has not had it "
        "yet, and today's study-day reminder to each learner whose chosen hour has come on a "
        "study day of their plan (run it hourly). Safe to run as often as you like, on several "
        "servers at once: each learner gets at most one weekly reminder a week (Monday to "
        "Sunday, in the site's time zone) and one study-day reminder a day (theirs)."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--dry-run",
            action="store_true",
            help="Print each reminder (to, subject, body) instead of sending it; claims nothing.",
        )

    def handle(self, *args: Any, dry_run: bool = False, **options: Any) -> None:
        today = timezone.localdate()
        week = f"the week of {reminders.week_start(today):%Y-%m-%d}"
        if dry_run:
            due = [reminders.compose(u, now=timezone.now()) for u in reminders.learners_due(today)]
            for draft in due:
                self.stdout.write(
                    f"To: {draft.to[0]}\nSubject: {draft.subject}\n\n{draft.body}\n{'-' * 72}"
                )
            self.stdout.write(
                f"Would send {counted(len(due), 'reminder')} for {week} "
                "(dry run: nothing sent, nothing claimed)."
            )
            return

        sent, taken, study_days, asked, failed = 0, 0, 0, 0, []
        with get_connection() as connection:
            for user in reminders.learners_due(today):
                try:
                    message = reminders.send_reminder(user=user, today=today, connection=connection)
                except Exception as exc:  # one bad address must not stop the others
                    failed.append(f"{user.email}: {exc}")
                    continue
                if message is None:
                    taken += 1
                else:
                    sent += 1
                    if options["verbosity"] >= 2:
                        self.stdout.write(f"Sent to {message.to[0]}: {message.subject}")
            # Each study day's reminder, at the hour each learner chose in their zone: this
            # command runs hourly, and a learner's day is claimed once.
            now = timezone.now()
            for user in reminders.learners_with_study_day_reminders():
                try:
                    message = reminders.send_study_day_reminder(
                        user=user, now=now, connection=connection
                    )
                except Exception as exc:
                    failed.append(f"{user.email}: {exc}")
                    continue
                if message is not None:
                    study_days += 1
                    if options["verbosity"] >= 2:
                        self.stdout.write(f"Sent to {message.to[0]}: {message.subject}")
            # The day after the exam date, one mail asking how it went.
            for user in reminders.learners_to_ask_outcome(today):
                try:
                    message = reminders.send_outcome_ask(user=user, now=now, connection=connection)
                except Exception as exc:
                    failed.append(f"{user.email}: {exc}")
                    continue
                asked += message is not None
        summary = f"Sent {counted(sent, 'reminder')} for {week}"
        summary += f" and {counted(study_days, 'study-day reminder')}"
        summary += f"; asked {counted(asked, 'learner')} how their exam went."
        if taken:
            summary += f" {taken} already taken by another run at the same time."
        self.stdout.write(summary)
        if failed:
            lines = "\n".join(f"  - {line}" for line in failed[:FAILURES_SHOWN])
            if len(failed) > FAILURES_SHOWN:
                lines += f"\n  and {len(failed) - FAILURES_SHOWN} more"
            raise CommandError(
                f"{counted(len(failed), 'reminder')} could not be sent; "
                f"they will be tried again on the next run:\n{lines}"
            )
