"""The pages' words for allauth's rate limits, read from ``settings.ACCOUNT_RATE_LIMITS``: a
limit changed there is the limit the reset and "too many requests" pages state.

allauth writes a limit as ``amount/period/per``, several joined by commas: ``10/h/ip`` is ten an
hour from one network, ``1/15m/key`` one every 15 minutes for one address (for a reset, the
address it is sent to)."""

import re

from django import template
from django.conf import settings

from phases.words import counted

register = template.Library()

UNITS = {"s": "second", "m": "minute", "h": "hour", "d": "day"}
PER = {"ip": "from one network", "key": "for one address", "user": "for one account"}


def rate_words(rates: str) -> list[str]:
    """``"10/h/ip,1/15m/key"`` as ``["10 an hour from one network", "1 every 15 minutes for one
    address"]``; a part it cannot read is left out."""
    words = []
    for rate in filter(None, (part.strip() for part in rates.split(","))):
        amount, period, *per = [*rate.split("/"), ""][:3]
        found = re.fullmatch(r"(\d*)([smhd])", period)
        if not amount.isdigit() or found is None:
            continue
        span, unit = int(found[1] or 1), UNITS[found[2]]
        every = f"every {counted(span, unit)}" if span > 1 else f"a{'n' * (unit == 'hour')} {unit}"
        who = PER.get(per[0], "")
        words.append(" ".join(filter(None, (amount, every, who))))
    return words


@register.simple_tag
def rate_limit(action: str) -> str:
    """The limit on one of allauth's actions in words, e.g. ``1 every 15 minutes for one address
    and 10 an hour from one network``; empty when there is none."""
    rates = (getattr(settings, "ACCOUNT_RATE_LIMITS", None) or {}).get(action) or ""
    words = sorted(rate_words(rates), key=lambda part: "network" in part)
    return " and ".join(words)
