"""The bank's coverage: the map in docs/content.md, each sub-area's size and sources, and a
first-party NVIDIA source behind every NVIDIA product a live question names.

Reads the YAML fixtures only (through scripts/coverage_map.py); no database.
"""

import importlib.util
import re
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit

import pytest

from phases.bank_quality import LIMITS
from phases.validation import MAX_SOURCES, MIN_SOURCES, source_problems

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "coverage_map.py"
CONTENT = ROOT / "docs" / "content.md"
START, END = "<!-- coverage-map:start -->", "<!-- coverage-map:end -->"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("coverage_map_script", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


coverage = _script()


def _fields(objects: list[dict[str, Any]], model: str) -> list[dict[str, Any]]:
    return [obj["fields"] for obj in objects if obj["model"] == f"phases.{model}"]


def _key(value: Any) -> str:
    if isinstance(value, list | tuple):
        value = value[0] if value else ""
    return value if isinstance(value, str) else ""


@pytest.fixture(scope="module")
def fixtures() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    return coverage.load(ROOT)


# The map in the docs


def test_the_coverage_map_in_the_docs_is_the_scripts_output():
    text = CONTENT.read_text(encoding="utf-8")
    assert text.count(START) == 1 and text.count(END) == 1, (
        f"docs/content.md needs one {START} line and one {END} line around the coverage map"
    )
    pasted = text.split(START, 1)[1].split(END, 1)[0]
    assert pasted.strip() == coverage.coverage_map().strip(), (
        "The coverage map in docs/content.md is stale: run "
        "`.venv/bin/python scripts/coverage_map.py` and paste its output between "
        f"{START} and {END}."
    )


def test_the_map_has_a_row_per_sub_area_and_counts_every_live_question(fixtures):
    syllabus, bank = fixtures
    text = coverage.coverage_map()
    subareas = _fields(bank, "subarea")
    live = [q for q in _fields(bank, "question") if not q.get("retired")]
    for row in subareas:
        assert f"(`{row['slug']}`)" in text
    first, second = text.split("\n\n")
    in_subareas = int(first.splitlines()[-1].split("|")[4].split()[0])
    without = int(second.splitlines()[-1].split("|")[3])
    assert in_subareas + without == len(live)
    assert f"| {len(subareas)} sub-areas |" in first
    assert f"| {len(_fields(syllabus, 'topic'))} topics |" in second


# Each sub-area: sources and size, as phases.validation and phases.bank_quality count them


def test_each_sub_area_has_one_to_three_sources_and_enough_live_questions(fixtures):
    _, bank = fixtures
    live = Counter(
        _key(q.get("subarea")) for q in _fields(bank, "question") if not q.get("retired")
    )
    problems = []
    for row in _fields(bank, "subarea"):
        slug, sources = row["slug"], row.get("sources") or []
        if not MIN_SOURCES <= len(sources) <= MAX_SOURCES:
            problems.append(f"{slug}: {len(sources)} sources, not {MIN_SOURCES} to {MAX_SOURCES}")
        problems += source_problems(slug, sources, what="sub-area")
        # bank_quality's per-sub-area figure: every live question, stretch ones included.
        if live[slug] < LIMITS.min_per_subarea:
            problems.append(
                f"{slug}: {live[slug]} live questions, at least {LIMITS.min_per_subarea}"
            )
    assert problems == []


# NVIDIA products and their first-party sources

# Case-sensitive, whole words. TensorRT is TensorRT itself, not TensorRT-LLM; a bare NeMo is
# not one of the NeMo products named after it.
PRODUCTS: dict[str, re.Pattern[str]] = {
    name: re.compile(pattern)
    for name, pattern in {
        "NIM": r"\bNIMs?\b",
        "NeMo": r"\bNeMo\b(?! (?:Curator|Guardrails|Retriever)\b)",
        "NeMo Curator": r"\bNeMo Curator\b",
        "NeMo Guardrails": r"\bNeMo Guardrails\b",
        "NeMo Retriever": r"\bNeMo Retriever\b",
        "Riva": r"\bRiva\b",
        "TensorRT": r"\bTensorRT\b(?![- ]LLM\b)",
        "TensorRT-LLM": r"\bTensorRT[- ]LLM\b",
        "Triton": r"\bTriton\b",
        "DALI": r"\bDALI\b",
        "cuDNN": r"\bcuDNN\b",
        "Model Optimizer": r"\bModel Optimizer\b",
        "ACE": r"\bACE\b|\bAvatar Cloud Engine\b",
        "Audio2Face": r"\bAudio2Face\b",
        "Dynamo": r"\bDynamo\b",
        "AIPerf": r"\bAIPerf\b|\bGenAI-Perf\b",
        "NGC": r"\bNGC\b",
    }.items()
}
# OpenAI's Triton, the GPU-kernel language, is another product of the same name: a question
# that means it names no NVIDIA Triton.
OPENAI_TRITON = re.compile(
    r"OpenAI(?:'s)? Triton|Triton (?:language|kernels?|compiler)|triton\.jit|@triton"
)
NVIDIA_ORGS = {"nvidia", "nvidia-nemo", "triton-inference-server", "ai-dynamo"}


def products_named(text: str) -> set[str]:
    named = {name for name, pattern in PRODUCTS.items() if pattern.search(text)}
    if OPENAI_TRITON.search(text):
        named.discard("Triton")
    return named


def nvidia_owned(url: str) -> bool:
    """An address NVIDIA publishes: nvidia.com or one of its subdomains, or the GitHub
    organizations (and their github.io pages) of NVIDIA, NeMo, Triton and Dynamo."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if parts.scheme != "https":
        return False
    if host == "nvidia.com" or host.endswith(".nvidia.com"):
        return True
    if host.endswith(".github.io"):
        return host.removesuffix(".github.io") in NVIDIA_ORGS
    if host == "github.com":
        return parts.path.strip("/").split("/")[0].lower() in NVIDIA_ORGS
    return False


def claims(question: dict[str, Any]) -> str:
    """What a question asserts: its prompt, its key and its explanation (a wrong option names a
    product only to be wrong about it, and the explanation says why)."""
    keys = [
        str(option.get("text") or "")
        for option in question.get("options") or []
        if option.get("correct")
    ]
    return "\n".join([str(question.get("prompt") or ""), *keys, str(question["explanation"])])


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("Triton Inference Server serves the model.", {"Triton"}),
        ("NVIDIA Dynamo-Triton", {"Dynamo", "Triton"}),
        ("A kernel written in OpenAI's Triton language.", set()),
        ("NVIDIA ACE bundles Audio2Face.", {"ACE", "Audio2Face"}),
        ("A SPACE, an ace, ACEs and RACE name no product.", set()),
        ("TensorRT-LLM builds on TensorRT.", {"TensorRT", "TensorRT-LLM"}),
        ("TensorRT LLM serves it.", {"TensorRT-LLM"}),
        ("NeMo Guardrails, not NeMo itself.", {"NeMo Guardrails", "NeMo"}),
        ("NeMo Curator filters it.", {"NeMo Curator"}),
        ("two NIMs behind one gateway", {"NIM"}),
        ("NIMBLE, nim, Rivals, cudnn.benchmark", set()),
        ("AIPerf, once GenAI-Perf, on NGC", {"AIPerf", "NGC"}),
        ("TorchDynamo and the Model Optimizer", {"Model Optimizer"}),
    ],
)
def test_products_are_named_by_whole_words(text, named):
    assert products_named(text) == named


@pytest.mark.parametrize(
    ("url", "owned"),
    [
        ("https://docs.nvidia.com/nim/large-language-models/latest/introduction.html", True),
        ("https://nvidia.com/", True),
        ("https://catalog.ngc.nvidia.com/containers", True),
        ("https://nvidia.github.io/TensorRT-LLM/", True),
        ("https://github.com/NVIDIA/TensorRT-Model-Optimizer", True),
        ("https://github.com/NVIDIA-NeMo/Curator", True),
        ("https://github.com/triton-inference-server/server", True),
        ("https://github.com/ai-dynamo/dynamo", True),
        ("https://github.com/treeverse/dvc", False),
        ("https://notnvidia.com/docs", False),
        ("https://nvidia.com.example.org/", False),
        ("https://arxiv.org/abs/2310.10501", False),
        ("http://docs.nvidia.com/", False),
    ],
)
def test_nvidia_owned_addresses(url, owned):
    assert nvidia_owned(url) is owned


def test_every_nvidia_product_in_a_live_question_has_a_first_party_source(fixtures):
    syllabus, bank = fixtures
    topic_sources = {row["slug"]: row.get("sources") or [] for row in _fields(syllabus, "topic")}
    subarea_sources = {row["slug"]: row.get("sources") or [] for row in _fields(bank, "subarea")}
    misses = []
    for question in _fields(bank, "question"):
        if question.get("retired"):
            continue
        # What the question rests on: its sub-area's sources and its topic's.
        subarea, topic = _key(question.get("subarea")), _key(question.get("topic"))
        sources = [*subarea_sources.get(subarea, []), *topic_sources.get(topic, [])]
        if any(nvidia_owned(str(source.get("url") or "")) for source in sources):
            continue
        misses += [
            f"{question['slug']} names {product}; its sub-area {subarea or '(none)'} and "
            f"topic {topic or '(none)'} cite {[source.get('url') for source in sources]}"
            for product in sorted(products_named(claims(question)))
        ]
    assert misses == [], "\n".join(misses)
