"""The bank's coverage map: live questions and primary sources per sub-area, in study order.

    .venv/bin/python scripts/coverage_map.py

Reads fixtures/syllabus.yaml and fixtures/questions/*.yaml only (no database, no Django) and
prints two Markdown tables: one row per sub-area (domain study order, then topic order, then
sub-area slug) with its live questions, the stretch ones among them in parentheses, and its
sources as links; then, per topic, the live questions that name no sub-area. docs/content.md
carries this output between its coverage-map markers, and tests/test_bank_coverage.py checks that
the two agree.
"""

from collections import Counter
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _load(path: Path) -> list[dict[str, Any]]:
    return yaml.load(path.read_text(encoding="utf-8"), Loader=Loader) or []


def _fields(objects: list[dict[str, Any]], model: str) -> list[dict[str, Any]]:
    return [obj.get("fields") or {} for obj in objects if obj.get("model") == f"phases.{model}"]


def _key(value: Any) -> str:
    """A natural-key reference as the fixtures write it: ``[slug]`` or a bare slug."""
    if isinstance(value, list | tuple):
        value = value[0] if value else ""
    return value if isinstance(value, str) else ""


def load(root: Path = ROOT) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The syllabus's objects and the question bank's objects (every domain's file together)."""
    syllabus = _load(root / "fixtures" / "syllabus.yaml")
    bank = [
        obj
        for path in sorted((root / "fixtures" / "questions").glob("*.yaml"))
        for obj in _load(path)
    ]
    return syllabus, bank


def _cell(text: str) -> str:
    """Text safe inside a table cell and a link's words."""
    return " ".join(str(text).split()).replace("|", r"\|").replace("[", r"\[").replace("]", r"\]")


def _link(source: dict[str, Any]) -> str:
    url = str(source.get("url") or "").strip()
    if any(char in url for char in " ()<>"):
        url = f"<{url}>"
    return f"[{_cell(source.get('title') or url)}]({url})"


def coverage_map(root: Path = ROOT) -> str:
    """Both tables, as Markdown."""
    syllabus, bank = load(root)
    order = {row["slug"]: row.get("study_order", 0) for row in _fields(syllabus, "domain")}
    topics = sorted(
        _fields(syllabus, "topic"),
        key=lambda row: (order.get(_key(row.get("domain")), 0), row.get("order", 0), row["slug"]),
    )
    topic_rank = {row["slug"]: rank for rank, row in enumerate(topics)}
    topic_domain = {row["slug"]: _key(row.get("domain")) for row in topics}
    subareas = sorted(
        _fields(bank, "subarea"),
        key=lambda row: (topic_rank.get(_key(row.get("topic")), len(topics)), row["slug"]),
    )
    live = [row for row in _fields(bank, "question") if not row.get("retired")]
    per_subarea = Counter(_key(row.get("subarea")) for row in live)
    stretch = Counter(_key(row.get("subarea")) for row in live if row.get("stretch"))
    without = Counter(_key(row.get("topic")) for row in live if not _key(row.get("subarea")))

    lines = [
        "| domain | topic | sub-area | live questions (stretch) | sources |",
        "| --- | --- | --- | ---: | --- |",
    ]
    for row in subareas:
        slug, topic = row["slug"], _key(row.get("topic"))
        sources = "; ".join(_link(source) for source in row.get("sources") or [])
        lines.append(
            f"| {topic_domain.get(topic, '?')} | {topic} | {_cell(row.get('title') or slug)} "
            f"(`{slug}`) | {per_subarea[slug]} ({stretch[slug]}) | {sources} |"
        )
    in_subareas = sum(per_subarea[row["slug"]] for row in subareas)
    stretch_in = sum(stretch[row["slug"]] for row in subareas)
    lines.append(f"| all | | {len(subareas)} sub-areas | {in_subareas} ({stretch_in}) | |")
    lines += [
        "",
        "| domain | topic | live questions without a sub-area |",
        "| --- | --- | ---: |",
    ]
    for row in topics:
        lines.append(f"| {topic_domain[row['slug']]} | {row['slug']} | {without[row['slug']]} |")
    lines.append(f"| all | {len(topics)} topics | {sum(without[row['slug']] for row in topics)} |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(coverage_map())
