"""Shipped templates: tdd.yaml validates with every default, katas have the agreed sections."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import BaseModel

from tddhooks.config import TddConfig, default_config_yaml, parse_config
from tddhooks.resources import read_template, templates

KATAS = (
    "string-calculator",
    "bowling",
    "mars-rover",
    "game-of-life",
    "fizzbuzz",
    "password-validation",
    "roman-numerals",
    "prime-factors",
    "word-wrap",
)


@pytest.mark.parametrize("language", ["rust", "python"])
@pytest.mark.parametrize("kata", ["kata.md", "katas/bowling kätä.md", "docs/a: b.md"])
def test_tdd_yaml_template_validates_and_spells_out_the_defaults(language: str, kata: str) -> None:
    text = default_config_yaml(language, kata)
    assert "{language}" not in text
    assert "{kata}" not in text
    config = parse_config(text, Path("tdd.yaml"))
    assert config == TddConfig(language=language, kata_description=kata)  # type: ignore[arg-type]


def test_tdd_yaml_template_comments_every_setting() -> None:
    for line in read_template("tdd.yaml").splitlines():
        if re.match(r"^\s*[a-z_]+:", line):
            assert " # " in line, f"setting without a comment: {line.strip()}"


def _fields(model: type[BaseModel]) -> set[str]:
    """Every field name of `model` and of the models its fields hold."""
    names: set[str] = set()
    for name, info in model.model_fields.items():
        names.add(name)
        kind = info.annotation
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            names |= _fields(kind)
    return names


def test_tdd_yaml_template_names_every_field() -> None:
    """README: "tdd.yaml with every default spelled out": each field of each section is a line."""
    text = read_template("tdd.yaml")

    missing = {n for n in _fields(TddConfig) if not re.search(rf"^\s*{n}:", text, re.MULTILINE)}
    assert not missing, f"tdd.yaml template lacks {sorted(missing)}"


def test_the_config_docs_tdd_yaml_block_names_every_field() -> None:
    """docs/config.md's tdd.yaml block (once the README's) lagged init's file (llm.provider, …)."""
    doc = (Path(__file__).parents[2] / "docs" / "config.md").read_text(encoding="utf-8")
    block = doc.split("# Configuration: `tdd.yaml`", 1)[1].split("```yaml", 1)[1]
    block = block.split("```", 1)[0]

    missing = {name for name in _fields(TddConfig) if not re.search(rf"\b{name}\b", block)}
    assert not missing, f"docs/config.md's tdd.yaml block lacks {sorted(missing)}"


def test_every_shipped_kata_is_listed() -> None:
    shipped = sorted(
        node.name.removesuffix(".md")
        for node in (templates() / "katas").iterdir()
        if node.name.endswith(".md")
    )
    assert shipped == sorted(KATAS)


@pytest.mark.parametrize("kata", KATAS)
def test_kata_has_title_goal_requirements_notes_and_done_when(kata: str) -> None:
    text = read_template(f"katas/{kata}.md")
    lines = text.splitlines()
    assert lines[0].startswith("# ")
    goal = text.split("\n\n")[1]
    assert not goal.startswith("#")
    assert goal.rstrip().endswith(".")
    headings = [line for line in lines if line.startswith("## ")]
    assert headings == ["## Interface", "## Requirements", "## Notes", "## Done when"]
    # the interface the hidden acceptance suites call (docs/bench.md), for both languages
    interface = text.split("## Interface", 1)[1].split("## Requirements", 1)[0]
    assert "- Rust: `pub fn " in interface
    assert "- Python: `def " in interface
    requirements = text.split("## Requirements", 1)[1].split("## Notes", 1)[0]
    steps = re.findall(r"^(\d+)\. ", requirements, flags=re.MULTILINE)
    assert steps == [str(number) for number in range(1, len(steps) + 1)]
    assert 6 <= len(steps) <= 10
    assert text.split("## Done when", 1)[1].strip()
    assert len(lines) <= 60
