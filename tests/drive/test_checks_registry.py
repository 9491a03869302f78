"""The registry of answer checks (tddhooks/drive/checks/registry.py): what each profile turns on,
what a person may turn off, tdd.yaml's `drive` section, docs/checks.md and `tddhooks doctor`."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.e2e_kit import run_cli

from tddhooks.config import load_config
from tddhooks.drive.checks import CHECKS, active_checks, check_of
from tddhooks.drive.checks.registry import markdown_table
from tddhooks.drive.redcheck import same_test
from tddhooks.errors import ConfigError

DOC = Path(__file__).resolve().parents[2] / "docs" / "checks.md"


def test_every_check_has_a_unique_id_a_one_line_reason_and_a_function_that_exists() -> None:
    ids = [check.id for check in CHECKS]
    assert len(ids) == len(set(ids))
    for check in CHECKS:
        assert check.reason
        assert "\n" not in check.reason
        assert callable(check.function())
        assert check.profile in ("core", "small-model")
        assert check.effect in ("refuse", "repair", "hint")


def test_core_holds_only_what_the_policy_and_the_protocol_need() -> None:
    core = {check.id for check in active_checks("core").in_effect()}
    assert core == {check.id for check in CHECKS if check.profile == "core"}
    # the aids that refused careful answers are no part of the default
    for aid in ("offered-paths", "assertion-count", "examples-kept", "done-open"):
        assert aid not in core
    assert {check.id for check in active_checks("small-model").in_effect()} == {
        check.id for check in CHECKS
    }


def test_a_disabled_check_is_off_and_the_others_stay_on() -> None:
    active = active_checks("small-model", ["assertion-count"])
    assert not active.on("assertion-count")
    assert active.on("offered-paths")
    assert active.on("own-red")


@pytest.mark.parametrize(
    ("profile", "disabled", "words"),
    [
        ("fast", [], "unknown drive profile 'fast'"),
        ("core", ["assertion_count"], "unknown check(s) ['assertion_count']"),
        # the policy's own rules cannot be turned off
        ("core", ["own-red"], "a rule of the commit policy itself"),
        ("small-model", ["one-new-test", "stray-values"], "['one-new-test']"),
        ("core", ["path-rules"], "['path-rules']"),
    ],
)
def test_a_wrong_profile_or_check_id_is_an_error_naming_the_fix(
    profile: str, disabled: list[str], words: str
) -> None:
    with pytest.raises(ConfigError) as raised:
        active_checks(profile, disabled)
    assert words in raised.value.message
    assert raised.value.fix


def test_a_refusal_names_its_check() -> None:
    assert active_checks().refusal("own-red", "tests that passed before now fail: t") == (
        "[check: own-red] tests that passed before now fail: t"
    )
    with pytest.raises(KeyError):
        check_of("no-such-check")


def test_tdd_yaml_sets_the_profile_and_the_disabled_checks(tmp_path: Path) -> None:
    (tmp_path / "tdd.yaml").write_text(
        "drive:\n  profile: small-model\n  checks:\n    disabled: [stray-values]\n",
        encoding="utf-8",
    )
    config = load_config(tmp_path)
    assert config.drive.profile == "small-model"
    assert config.drive.checks.disabled == ["stray-values"]
    (tmp_path / "tdd.yaml").write_text("drive:\n  profile: tiny\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"drive\.profile"):
        load_config(tmp_path)
    (tmp_path / "tdd.yaml").write_text("drive:\n  checks:\n    skip: [x]\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"unknown field 'drive\.checks\.skip'"):
        load_config(tmp_path)


def test_the_default_config_has_the_core_profile(tmp_path: Path) -> None:
    config = load_config(tmp_path)
    assert config.drive.profile == "core"
    assert config.drive.checks.disabled == []


def test_docs_checks_md_holds_the_registrys_table() -> None:
    """scripts/checks-doc writes it; run that after changing the registry."""
    text = DOC.read_text(encoding="utf-8")
    begin, end = "<!-- checks:begin -->\n", "<!-- checks:end -->\n"
    assert text.split(begin, 1)[1].split(end, 1)[0] == markdown_table()


@pytest.mark.parametrize(
    ("failing", "new", "same"),
    [
        ("tests/test_a.py::test_y[rhythm-ythmrhay]", "tests/test_a.py::test_y", True),
        ("tests/test_a.py::test_y[a]", "tests/test_a.py::test_y", True),
        ("tests/test_a.py::test_yz[a]", "tests/test_a.py::test_y", False),
        ("tests/test_b.py::test_y[a]", "tests/test_a.py::test_y", False),
        ("tests/a.rs::m::t", "tests/a.rs::t", True),
    ],
)
def test_a_parametrized_case_is_its_test(failing: str, new: str, same: bool) -> None:
    assert same_test(failing, new) is same


@pytest.mark.pygate
def test_doctor_lists_the_checks_in_effect(tmp_path: Path) -> None:
    from tddhooks.commands import init_cmd
    from tddhooks.commands.doctor import answer_checks

    repo = tmp_path / "kata"
    init_cmd.run(repo, language="python", kata="fizzbuzz", direct=False)
    assert "own-red" in run_cli("doctor", "-C", str(repo), "--offline").output
    rows = {row.name: row for row in answer_checks(load_config(repo))}
    assert rows["check own-red"].detail.startswith("refuse, core: ")
    assert "check assertion-count" not in rows  # a small-model aid: not in core
    yaml = repo / "tdd.yaml"
    text = yaml.read_text(encoding="utf-8").replace("profile: core", "profile: small-model")
    yaml.write_text(text, encoding="utf-8")
    assert "check assertion-count" in {row.name for row in answer_checks(load_config(repo))}
    yaml.write_text(text.replace("disabled: []", "disabled: [own-red]"), encoding="utf-8")
    [broken] = answer_checks(load_config(repo))
    assert broken.status == "fail"
    assert "commit policy itself" in broken.detail


def test_the_repairs_below_the_drive_are_registered_and_handed_down_by_id() -> None:
    """llm and agents name their answer repairs by registry ids (they import no registry); the
    drive hands them the ids in effect (drive/asking.py)."""
    from tddhooks.agents.edits import answer_repairs

    assert answer_repairs() <= {check.id for check in CHECKS}
    assert answer_repairs() & active_checks("core").ids() == {"json-wrapped"}
    assert answer_repairs() <= active_checks("small-model").ids()
    assert "snippet-merge" not in active_checks("small-model", ["snippet-merge"]).ids()
    for repair in answer_repairs() - {"json-wrapped"}:
        assert check_of(repair).profile == "small-model"
