"""The seed's traps and the subjects the bank must cover, as patterns its questions are read with.

Pure: a question's field dicts in, names out. phases.bank_quality counts them (its docstring
defines trap usage and gap coverage) and holds their limits.
"""

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from phases.bank_cues import QuestionFields


def _pattern(regex: str) -> re.Pattern[str]:
    return re.compile(regex, re.IGNORECASE)


@dataclass(frozen=True)
class TrapMarker:
    """One way a wrong option states a trap: a claim, and the subject it must be about."""

    claim: re.Pattern[str]
    subject: re.Pattern[str] | None = None

    def stated_by(self, option: str, prompt: str) -> bool:
        if not self.claim.search(option):
            return False
        return self.subject is None or bool(
            self.subject.search(option) or self.subject.search(prompt)
        )


# The seed's "one verb per product": NeMo builds, Riva speaks, Triton serves, TensorRT
# optimizes, ACE animates an avatar, cuDNN provides primitives.
PRODUCT_JOBS: Final[Mapping[str, str]] = {
    "NeMo": r"build\w*|customi[sz]\w*",
    "Riva": r"speak\w*|speech|voices?|transcri\w*|recogni[sz]\w*|synthesi[sz]\w*",
    "Triton": r"serv(?:e|es|ed|ing|er)\b|host(?:s|ed|ing)?\b",
    "TensorRT": r"optimi[sz]\w*",
    "ACE": r"animat\w*",
    "cuDNN": r"primitives?",
}


def _verb_swap(product: str) -> TrapMarker:
    others = [name for name in PRODUCT_JOBS if name != product]
    wrong_jobs = "|".join(PRODUCT_JOBS[name] for name in others)
    # Within the product's own clause: before any other product is named or a second step begins
    # ("Optimize with TensorRT, then serve it with Triton" gives TensorRT no wrong verb).
    stop = "|".join([*others, "then", "and", "while", "but", "before", "after", "whereas"])
    near = rf"(?:(?!\b(?:{stop})\b)[^.;]){{0,40}}?"
    return TrapMarker(_pattern(rf"\b{product}\b{near}\b(?:{wrong_jobs})"))


# What a distractor praises a higher FID with.
_FID_PRAISE: Final = (
    r"\b(?:better|wins?|improv\w*|richer|closer|superior|wider\s+variety|"
    r"more\s+(?:diverse|detailed|realistic|varied|natural)|"
    r"(?:higher|greater|better)[- ](?:quality|fidelity|realism))\b"
)

# Each seed trap (shared/seed and the `trap` fields of fixtures/syllabus.yaml), as the markers a
# wrong option states it with.
TRAPS: Final[Mapping[str, tuple[TrapMarker, ...]]] = {
    "higher-fid-better": (
        TrapMarker(
            _pattern(
                rf"\b(?:higher|rising|risen|increased|larger|bigger)\s+FID\b[^.;]*?{_FID_PRAISE}"
                r"|\b(?:better|wins?)\b[^.;]*?\bhigher\s+FID\b"
                r"|\b(?:lower|falling|decreased|smaller)\s+FID\b[^.;]*?"
                r"\b(?:worse|loses?|poorer|degrad\w*)\b"
                r"|\bFID\b[^.;]*?\b(?:rose|rises|rising|increas\w*|goes\s+up|went\s+up)\b"
                rf"[^.;]*?{_FID_PRAISE}"
                r"|\bFID\b[^.;]*?\b(?:pick|choose|prefer|return|keep)\w*\b[^.;]*?\bhigh(?:er|est)\b"
                r"|\b(?:pick|choose|prefer)\w*\b[^.;]*?\bhigh(?:er|est)\s+FID\b"
            )
        ),
    ),
    "residual-for-parameter-reduction": (
        TrapMarker(
            _pattern(
                r"\b(?:reduc\w*|fewer|cut\w*|sav\w*|shrink\w*)\b[^.;]*?\bparameter"
                r"|\bparameter\w*\b[^.;]*?\b(?:reduc\w*|fewer)\b"
                r"|\btoo\s+many\s+parameters\b|\bweights\s+removed\b"
            ),
            subject=_pattern(r"\bresidual\b|\bskip\s+(?:connection|path)s?\b"),
        ),
    ),
    "ddpm-direction-inverted": (
        TrapMarker(
            _pattern(
                r"\bforward\s+(?:process|diffusion)\b[^.;]{0,60}?"
                r"\b(?:is\s+learned|learns?|learned|trained|weights|removes?|removing|denois\w*|"
                r"at\s+inference|sampling\s+steps?|generation\s+time)\b"
                r"|\breverse\s+(?:process|diffusion|steps?)\b[^.;]{0,60}?\b(?:adds?|adding)\b"
                r"|\breverse\s+process\b[^.;]{0,30}?\bis\s+fixed\b"
            )
        ),
        TrapMarker(
            _pattern(r"^(?:it|this)\b[^.;]{0,40}?\b(?:removes?|learns?|is\s+learned|denois\w*)\b"),
            subject=_pattern(r"\bforward\s+process\b"),
        ),
        TrapMarker(
            _pattern(r"^(?:it|this)\b[^.;]{0,40}?\badds?\b[^.;]{0,30}?\bnoise\b"),
            subject=_pattern(r"\breverse\s+process\b"),
        ),
    ),
    "experimentation-is-eda": (
        TrapMarker(
            _pattern(r"(?<!not\s)\b(?:EDA|exploratory\s+data\s+analysis)\b"),
            subject=_pattern(r"\bexperimentation\b"),
        ),
    ),
    "fusion-tradeoff-inverted": (
        TrapMarker(
            _pattern(
                r"\blate\s+fusion\b[^.;]{0,80}?\b(?:low(?:er|est)?\s+latency|fast(?:er|est)|"
                r"soonest|quickest|real-time|(?:cost|compute)\s+lowest|lowest\s+(?:cost|compute))\b"
                r"|\bearly\s+fusion\b[^.;]{0,80}?\b(?:robust\w*|missing|absent|copes?|"
                r"highest\s+accuracy|most\s+accurate)\b"
            )
        ),
    ),
    "attention-proves-reasoning": (
        TrapMarker(
            _pattern(
                r"(?<!not\s)\b(?:prove[sn]?|proving|proof|certif\w*|guarantee[sd]?)\b"
                r"|\bshows?\s+how\s+the\s+model\s+reason"
            ),
            subject=_pattern(r"\battention\b"),
        ),
    ),
    "quantization-mixed-precision-swap": (
        TrapMarker(_pattern(r"\bmixed[- ]precision\b[^.;]{0,80}?\b(?:INT8|integers?)\b")),
        TrapMarker(_pattern(r"\bquantiz\w*\b[^.;]{0,60}?\bmaster\s+weights\b")),
        TrapMarker(
            _pattern(
                r"\b(?:same|identical)\s+(?:technique|thing|method)\b|\bunder\s+two\s+names\b"
                r"|\banother\s+name\s+for\b"
            ),
            subject=_pattern(r"\bquantiz"),
        ),
        TrapMarker(_pattern(r"\bINT8\b"), subject=_pattern(r"\bmixed[- ]precision\b")),
    ),
    "clip-zero-shot-needs-fine-tuning": (
        TrapMarker(
            _pattern(r"(?<!no\s)(?<!without\s)\bfine-tun\w*|\blabell?ed\s+examples\b"),
            subject=_pattern(r"\bzero-shot\b"),
        ),
    ),
    "general-llm-material-covers-media": (
        TrapMarker(
            _pattern(
                r"\bLLM\b[^.;]{0,80}?\b(?:enough|sufficient|covers?|already)\b"
                r"|\b(?:enough|sufficient)\b[^.;]{0,60}?\bLLM\b"
            )
        ),
    ),
    "skip-trustworthy-ai": (
        TrapMarker(
            _pattern(
                r"\b(?:skip|ignor|drop)\w*\b[^.;]{0,60}?\btrustworthy\b"
                r"|\btrustworthy\s+AI\b[^.;]{0,60}?\b(?:skip\w*|ignor\w*|not\s+worth)\b"
            )
        ),
    ),
    "overall-average-means-ready": (
        TrapMarker(
            _pattern(
                r"\b(?:overall|average)\b[^.;]{0,60}?\b(?:is\s+what\s+counts|what\s+matters|"
                r"enough|sufficient)\b|\bbook\s+the\s+exam\b|\boverall\s+(?:average|score)\s+rises\b"
            )
        ),
    ),
    "published-pass-mark": (
        TrapMarker(
            _pattern(
                r"\bpass(?:ing)?\s+(?:mark|score)\b[^.;]{0,60}?\b\d{1,3}\s?%"
                r"|\bNVIDIA\s+publishes\b[^.;]{0,40}?\bpass"
            )
        ),
    ),
    **{f"{product.lower()}-verb-swap": (_verb_swap(product),) for product in PRODUCT_JOBS},
}

# The guide's mistakes of study rather than of knowledge ("How people waste weeks"): the dashboard
# and the plan answer them, and no exam question asks about how to prepare, so the bank need not
# offer them as wrong answers. Every other trap is offered in at least one question.
PROCESS_TRAPS: Final = frozenset(
    {
        "experimentation-is-eda",
        "skip-trustworthy-ai",
        "overall-average-means-ready",
        "published-pass-mark",
    }
)

# The subjects the bank must cover, each as the terms that name it.
GAPS: Final[Mapping[str, re.Pattern[str]]] = {
    "classifier-free guidance": _pattern(r"classifier-free guidance|guidance scale"),
    "DDIM / samplers": _pattern(r"\bDDIM\b|sampler|sampling steps|denoising steps"),
    "latent vs pixel diffusion": _pattern(r"latent diffusion|pixel space|latent space"),
    "VAE": _pattern(r"\bVAE\b|variational autoencoder"),
    "self-attention": _pattern(r"self-attention"),
    "vision-language models": _pattern(r"vision-language|\bVLMs?\b|visual question answering"),
    "CLIP score": _pattern(r"CLIP ?score"),
    "curating multimodal data": _pattern(r"\bcurat|CLIP-score filter|near-duplicate|dedup"),
    "NIM": _pattern(r"\bNIM\b"),
    "TensorRT-LLM": _pattern(r"TensorRT-LLM"),
    "Audio2Face": _pattern(r"Audio2Face"),
    "NeMo Guardrails": _pattern(r"Guardrails"),
    "Triton ensembles / model repository": _pattern(r"ensemble|model repository"),
    "LoRA / ControlNet": _pattern(r"\bLoRA\b|ControlNet"),
    "how attention maps are made": _pattern(
        r"Grad-CAM|attention rollout|cross-attention (?:heat)?maps?"
    ),
    "distillation": _pattern(r"distill"),
    "FP8": _pattern(r"\bFP8\b"),
    "2:4 sparsity": _pattern(r"2:4|structured sparsity"),
    "C2PA / Content Credentials": _pattern(r"C2PA|Content Credentials"),
    "safety": _pattern(r"\bsafety\b|unsafe|harmful"),
    "transparency": _pattern(r"transparen|model card"),
    "consent for voice cloning": _pattern(r"consent"),
}


def traps_stated(question: QuestionFields) -> frozenset[str]:
    """The traps that at least one of the question's wrong options states."""
    wrong = [option["text"] for option in question["options"] if not option["correct"]]
    return frozenset(
        name
        for name, markers in TRAPS.items()
        if any(marker.stated_by(text, question["prompt"]) for marker in markers for text in wrong)
    )


def gaps_covered(question: QuestionFields) -> frozenset[str]:
    """The subjects in GAPS that the question's prompt or one of its correct options names."""
    texts = [question["prompt"], *(o["text"] for o in question["options"] if o["correct"])]
    return frozenset(
        name for name, pattern in GAPS.items() if any(pattern.search(text) for text in texts)
    )
