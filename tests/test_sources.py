"""Every topic's primary sources: one to three of {title, url, kind}; a paper is its arXiv
abstract page and names the same identifier in its title. Pure: phases.validation on the
parsed YAML, no database."""

import copy
import re
from pathlib import Path
from typing import Any

import pytest

from phases.validation import (
    MAX_SOURCES,
    MIN_SOURCES,
    SOURCE_KINDS,
    SyllabusError,
    find_problems,
    source_problems,
    validate,
)
from tests.conftest import read_yaml

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "syllabus.yaml"

DDPM = {
    "title": "Denoising Diffusion Probabilistic Models (arXiv:2006.11239)",
    "url": "https://arxiv.org/abs/2006.11239",
    "kind": "paper",
}
TRITON = {
    "title": "NVIDIA Triton Inference Server documentation",
    "url": "https://docs.nvidia.com/deeplearning/triton-inference-server/user-guide/docs/index.html",
    "kind": "docs",
}
C2PA = {
    "title": "C2PA Technical Specification (Content Credentials), version 2.4",
    "url": "https://spec.c2pa.org/specifications/specifications/2.4/specs/C2PA_Specification.html",
    "kind": "spec",
}


def real_syllabus() -> list[dict[str, Any]]:
    return read_yaml(FIXTURE)


def topics(objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [obj["fields"] for obj in objects if obj["model"] == "phases.topic"]


def with_sources(sources: Any) -> list[dict[str, Any]]:
    """The real syllabus with the fid topic's sources replaced."""
    objects = real_syllabus()
    (fid,) = [fields for fields in topics(objects) if fields["slug"] == "fid"]
    fid["sources"] = sources
    return objects


# The real fixture


def test_the_real_syllabus_passes_with_its_sources():
    assert find_problems(real_syllabus()) == []


def test_every_topic_in_the_fixture_has_one_to_three_sources_of_the_right_form():
    rows = topics(real_syllabus())
    assert len(rows) == 38
    for fields in rows:
        sources = fields["sources"]
        assert MIN_SOURCES <= len(sources) <= MAX_SOURCES, fields["slug"]
        for source in sources:
            assert set(source) == {"title", "url", "kind"}, fields["slug"]
            assert source["kind"] in SOURCE_KINDS
            assert source["title"].strip()
            assert source["url"].startswith("https://")
            if source["kind"] == "paper":
                match = re.fullmatch(r"https://arxiv\.org/abs/(\d{4}\.\d{4,5})", source["url"])
                assert match, source["url"]
                assert source["title"].endswith(f"(arXiv:{match[1]})"), source["title"]


def test_the_papers_the_issue_names_are_cited_with_their_arxiv_identifiers():
    cited = {
        source["url"]: source["title"]
        for fields in topics(real_syllabus())
        for source in fields["sources"]
    }
    for arxiv, title in {
        "2006.11239": "Denoising Diffusion Probabilistic Models",
        "1706.08500": "GANs Trained by a Two Time-Scale Update Rule Converge to a Local Nash "
        "Equilibrium",
        "2103.00020": "Learning Transferable Visual Models From Natural Language Supervision",
        "1505.04597": "U-Net: Convolutional Networks for Biomedical Image Segmentation",
        "1512.03385": "Deep Residual Learning for Image Recognition",
        "2112.10752": "High-Resolution Image Synthesis with Latent Diffusion Models",
        "2207.12598": "Classifier-Free Diffusion Guidance",
        "2010.02502": "Denoising Diffusion Implicit Models",
        "1706.03762": "Attention Is All You Need",
    }.items():
        assert cited[f"https://arxiv.org/abs/{arxiv}"] == f"{title} (arXiv:{arxiv})"


def test_the_content_authenticity_topic_cites_the_c2pa_specification():
    (fields,) = [f for f in topics(real_syllabus()) if f["slug"] == "content-authenticity"]
    assert C2PA in fields["sources"]


# Each refusal


@pytest.mark.parametrize("sources", [[DDPM], [DDPM, TRITON], [DDPM, TRITON, C2PA]])
def test_one_to_three_sources_of_each_kind_pass(sources):
    assert source_problems("fid", sources) == []


@pytest.mark.parametrize("sources", [None, []])
def test_a_topic_with_no_sources_is_refused(sources):
    assert source_problems("fid", sources) == ["topic 'fid' has 0 sources; it needs 1 to 3"]


def test_a_topic_without_the_key_is_refused_by_the_whole_check():
    objects = real_syllabus()
    (fid,) = [fields for fields in topics(objects) if fields["slug"] == "fid"]
    del fid["sources"]

    with pytest.raises(SyllabusError) as excinfo:
        validate(objects)

    assert excinfo.value.problems == ["topic 'fid' has 0 sources; it needs 1 to 3"]


def test_a_topic_with_four_sources_is_refused():
    fourth = {**TRITON, "url": "https://docs.nvidia.com/deeplearning/tensorrt/latest/index.html"}

    assert find_problems(with_sources([DDPM, TRITON, C2PA, fourth])) == [
        "topic 'fid' has 4 sources; it needs 1 to 3"
    ]


@pytest.mark.parametrize("url", ["http://arxiv.org/abs/2006.11239", "arxiv.org/abs/2006.11239", ""])
def test_an_address_that_is_not_https_is_refused(url):
    assert source_problems("fid", [{**DDPM, "url": url}]) == [
        f"topic 'fid' source 1 has the address {url!r}; it must start https://"
    ]


@pytest.mark.parametrize(
    "url",
    [
        "https://arxiv.org/pdf/2006.11239",
        "https://www.arxiv.org/abs/2006.11239",
        "https://arxiv.org/abs/2006.11239/",
        "https://papers.nips.cc/paper/2020/hash/4c5bcfec8584af0d967f1ab10179ca4b",
    ],
)
def test_a_paper_that_is_not_an_arxiv_abstract_page_is_refused(url):
    assert source_problems("fid", [{**DDPM, "url": url}]) == [
        f"topic 'fid' source 1 is a paper at {url!r}; a paper's address is "
        "https://arxiv.org/abs/<id>"
    ]


@pytest.mark.parametrize(
    "title",
    [
        "Denoising Diffusion Probabilistic Models",
        "Denoising Diffusion Probabilistic Models (arXiv:2006.11238)",
        "Denoising Diffusion Probabilistic Models (2006.11239)",
    ],
)
def test_a_paper_whose_title_does_not_name_its_arxiv_identifier_is_refused(title):
    assert source_problems("fid", [{**DDPM, "title": title}]) == [
        "topic 'fid' source 1 is arXiv:2006.11239, but its title does not say so"
    ]


def test_a_versioned_arxiv_address_names_the_same_version_in_its_title():
    versioned = {
        "title": "Adam: A Method for Stochastic Optimization (arXiv:1412.6980v9)",
        "url": "https://arxiv.org/abs/1412.6980v9",
        "kind": "paper",
    }
    assert source_problems("fid", [versioned]) == []


@pytest.mark.parametrize("kind", ["blog", "Paper", "", None])
def test_a_kind_outside_the_three_is_refused(kind):
    assert source_problems("fid", [{**TRITON, "kind": kind}]) == [
        f"topic 'fid' source 1 has kind {kind or ''!r}; it must be one of paper, docs, spec"
    ]


def test_a_source_with_no_title_is_refused():
    assert source_problems("fid", [{**TRITON, "title": "  "}]) == [
        "topic 'fid' source 1 has no title"
    ]


def test_the_same_address_twice_is_refused():
    assert source_problems("fid", [DDPM, copy.deepcopy(DDPM)]) == [
        "topic 'fid' lists 'https://arxiv.org/abs/2006.11239' 2 times"
    ]


@pytest.mark.parametrize("sources", [DDPM, "https://arxiv.org/abs/2006.11239", [DDPM["url"]]])
def test_sources_that_are_not_a_list_of_mappings_are_refused(sources):
    assert source_problems("fid", sources) == [
        "topic 'fid' needs its sources as a list of {title, url, kind}"
    ]


def test_every_problem_is_named_with_its_source_number():
    problems = source_problems(
        "fid", [TRITON, {"title": "", "url": "http://example.org", "kind": "blog"}]
    )

    assert problems == [
        "topic 'fid' source 2 has no title",
        "topic 'fid' source 2 has kind 'blog'; it must be one of paper, docs, spec",
        "topic 'fid' source 2 has the address 'http://example.org'; it must start https://",
    ]
