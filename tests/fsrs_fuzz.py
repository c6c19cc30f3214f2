"""FSRS's fuzz rule, written from its published ranges (``fsrs.scheduler.FUZZ_RANGES``, the same
as Anki's): an interval of N days (N ≥ 2.5) may move by 1 day plus a share of N within each
range, never below 2 days nor past the maximum interval; shorter intervals are not fuzzed. The
fuzzed interval is drawn uniformly from [low, high + 1) and rounded, so high + 1 can come out."""

from fsrs.scheduler import FUZZ_RANGES

DEFAULT_MAXIMUM_INTERVAL = 36500


def fuzz_range(interval_days: int, maximum: int = DEFAULT_MAXIMUM_INTERVAL) -> tuple[int, int]:
    if interval_days < 2.5:
        return interval_days, interval_days
    delta = 1.0
    for part in FUZZ_RANGES:
        delta += part["factor"] * max(min(float(interval_days), part["end"]) - part["start"], 0.0)
    low = max(2, round(interval_days - delta))
    high = min(round(interval_days + delta), maximum)
    low = min(low, high)
    return low, min(high + 1, maximum)
