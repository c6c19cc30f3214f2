import datetime
from typing import Any

from studyplan.caching import moves_learner

from .. import leitner
from ..models import CheckOff, Confidence


@moves_learner
def review(*, user: Any, self_check_id: int, knew: bool, today: datetime.date) -> bool:
    """Record a review: a due check moves up a box when known; a miss sends it back to the
    first and marks it shaky. An early "knew it" is recorded but promotes nothing.
    False when the check is not ticked."""
    check_off = (
        CheckOff.objects.for_user(user).with_due(today).filter(self_check_id=self_check_id).first()
    )
    if check_off is None:
        return False
    check_off.box, check_off.due_on = leitner.on_review(
        check_off.box, check_off.due_on or today, knew=knew, due=bool(check_off.is_due), today=today
    )
    check_off.reviewed_on = today
    if not knew:
        check_off.confidence = Confidence.SHAKY
    check_off.save(update_fields=["box", "due_on", "reviewed_on", "confidence"])
    return True
