"""The shipped katas of `tddhooks bench`: the development and held-out sets, and each held-out
kata's hidden suites proved right (a reference solution passes them all; the scaffold that
`tddhooks init` makes passes none)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.references import PYTHON_FILE, RUST_FILE, katas_with_own_reference, own_reference

from tddhooks.bench import acceptance
from tddhooks.bench.katas import (
    DEVELOPMENT,
    SETS,
    kata_set,
    resolve_bench_kata,
    set_of,
    shipped_bench_katas,
)
from tddhooks.cli import cli
from tddhooks.commands.bench import BenchLLM, plan
from tddhooks.errors import UsageError

OWN = katas_with_own_reference()


def test_the_held_out_set_is_every_shipped_kata_but_the_development_ones() -> None:
    shipped = shipped_bench_katas()
    assert set(DEVELOPMENT) <= set(shipped)  # a renamed kata would drop out of the split
    held_out = kata_set("held-out")
    assert len(held_out) >= 4
    assert sorted(held_out + kata_set("development")) == kata_set("all") == shipped
    assert not set(held_out) & set(DEVELOPMENT)
    assert {set_of(kata) for kata in held_out} == {"held-out"}
    assert [set_of(kata) for kata in DEVELOPMENT] == ["development"] * len(DEVELOPMENT)


@pytest.mark.parametrize("kata", kata_set("held-out"))
def test_every_held_out_kata_is_judged_in_both_languages(kata: str) -> None:
    found = resolve_bench_kata(kata)
    for language in ("rust", "python"):
        tests = sum(acceptance.count_tests(f, language) for f in found.suite(language))
        assert 8 <= tests <= 10, (kata, language, tests)


def test_every_kata_with_a_reference_of_its_own_is_shipped() -> None:
    assert OWN, "no kata has a reference folder of its own"
    assert set(OWN) <= set(shipped_bench_katas())


def test_the_set_option_offers_the_sets() -> None:
    result = CliRunner().invoke(cli, ["bench", "--help"], terminal_width=200)
    offered = re.search(r"--set \[([^\]]+)\]", result.output)
    assert offered is not None, result.output
    assert tuple(offered.group(1).split("|")) == SETS
    assert "fizzbuzz (development)" in result.output


def test_a_set_plans_its_katas_and_a_kata_given_too(tmp_path: Path) -> None:
    llm = BenchLLM(provider="custom", base_url="http://127.0.0.1:9/v1")
    held = plan([], ["custom:m"], 1, 1, "rust", tmp_path / "a", llm, kata_set="held-out")
    assert [spec.kata.name for spec in held] == kata_set("held-out")
    both = plan(["bowling", "fizzbuzz"], ["custom:m"], 1, 1, "rust", tmp_path / "b", llm,
                kata_set="development")  # fmt: skip
    # a kata of the set named again by --kata runs once
    assert [spec.kata.name for spec in both] == ["password-validation", "bowling", "fizzbuzz"]
    every = plan([], ["custom:m"], 1, 1, "rust", tmp_path / "c", llm)
    assert [spec.kata.name for spec in every] == shipped_bench_katas()


def test_an_unknown_set_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="--set 'tuned'"):
        kata_set("tuned")
    result = CliRunner().invoke(cli, ["bench", "--set", "tuned", "--model", "custom:m"])
    assert result.exit_code == 2
    assert "held-out" in result.output


def _scaffold(root: Path, kata: str, language: str) -> Path:
    """`tddhooks init` of the kata; returns the file its code goes in."""
    result = CliRunner().invoke(cli, ["init", str(root), "--kata", kata, "--language", language])
    assert result.exit_code == 0, result.output
    if language == "rust":
        return root / "src" / "lib.rs"
    (package,) = (root / "src").glob("*/__init__.py")
    return package


def _prove(kata: str, language: str, tmp_path: Path) -> None:
    """The kata's hidden suite fails on the scaffold and passes whole on the reference."""
    reference = own_reference(kata)
    assert reference is not None
    suite = resolve_bench_kata(kata).suite(language)
    root = tmp_path / f"{kata}-{language}"
    code = _scaffold(root, kata, language)
    bare = acceptance.score(root, suite, language)
    assert bare.passed == 0, (kata, bare.output_tail)
    assert bare.total >= 8, (kata, bare.output_tail)
    source = RUST_FILE if language == "rust" else PYTHON_FILE
    code.write_text((reference / source).read_text("utf-8"), encoding="utf-8")
    solved = acceptance.score(root, suite, language)
    assert solved.passed == solved.total == bare.total, (kata, solved.output_tail)


@pytest.mark.pygate
def test_the_python_suites_pass_on_their_reference_and_fail_on_the_scaffold(
    tmp_path: Path,
) -> None:
    for kata in OWN:
        _prove(kata, "python", tmp_path)


@pytest.mark.cargo
def test_the_rust_suites_pass_on_their_reference_and_fail_on_the_scaffold(
    tmp_path: Path,
) -> None:
    for kata in OWN:
        _prove(kata, "rust", tmp_path)
