"""Every check the drive applies to an answer: its id, the role whose answer it reads, the stage
it runs at, its effect (refuse the answer, repair it before it is judged, or add a hint to the
failure the model sees), the profile it belongs to and what it protects. A check runs only when
its profile is in effect and no `drive.checks.disabled` entry names it; a refusal it makes
starts with `[check: ID]` so a person can turn it off (docs/checks.md)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal

from tddhooks.errors import ConfigError

Effect = Literal["refuse", "repair", "hint"]
Profile = Literal["core", "small-model"]
Stage = Literal["prompt", "parse", "answer", "written", "red", "green"]
PROFILES: tuple[Profile, ...] = ("core", "small-model")


@dataclass(frozen=True)
class Check:
    """One check: `run` names the function that implements it (`module:function`)."""

    id: str
    role: str  # tester | implementor | refactorer | source (implementor and refactorer) | any
    # prompt: a line of the prompt; parse: on the answer's text; answer: before a write;
    # written: on the written files; red / green: on the gate's verdict
    stage: Stage
    effect: Effect
    profile: Profile
    reason: str
    run: str
    locked: bool = False  # a rule of the commit policy itself: never disabled

    def function(self) -> Callable[..., Any]:
        """The function that implements the check."""
        module, _, name = self.run.partition(":")
        found: Any = importlib.import_module(module)
        for part in name.split("."):
            found = getattr(found, part)
        function: Callable[..., Any] = found
        return function


def _check(
    id: str, role: str, stage: Stage, effect: Effect, profile: Profile, run: str, reason: str
) -> Check:
    return Check(id, role, stage, effect, profile, reason, run, id in _LOCKED)


# the policy's own rules (docs/checks.md): one new failing test, handed over red for its own
# reason, code that keeps the kata's Interface, a refactor that keeps the tests; the path rules
_LOCKED = frozenset(
    ["path-rules", "one-new-test", "own-red", "interface-compiles", "interface-kept", "tests-kept"]
)


_D = "tddhooks.drive."
_J = "tddhooks.llm.jsonanswer:"
CHECKS: tuple[Check, ...] = (
    # core: what the commit policy and the edit protocol need
    _check(
        "json-wrapped",
        "any",
        "parse",
        "repair",
        "core",
        _J + "extract_json_object",
        "the answer's one JSON object is read from a Markdown fence, prose or a `<think>` block",
    ),
    _check(
        "path-rules",
        "any",
        "answer",
        "refuse",
        "core",
        _D + "ports:GitWorkspace.check_edits",
        "a role writes only its own paths; nothing escapes the repository",
    ),
    _check(
        "no-edits",
        "any",
        "answer",
        "refuse",
        "core",
        _D + "turns:TesterTurn.judge",
        "an answer that is not done changes something",
    ),
    _check(
        "unchanged-edits",
        "implementor",
        "answer",
        "refuse",
        "core",
        _D + "turns:ImplementorTurn.judge",
        "edits that leave every file as it is cannot make the staged test pass",
    ),
    _check(
        "one-new-test",
        "tester",
        "red",
        "refuse",
        "core",
        _D + "redcheck:misplaced_red",
        "exactly one new test is handed over",
    ),
    _check(
        "own-red",
        "tester",
        "red",
        "refuse",
        "core",
        _D + "redcheck:misplaced_red",
        "the red comes from the new test; no test that passed before fails now",
    ),
    _check(
        "interface-compiles",
        "tester",
        "red",
        "refuse",
        "core",
        _D + "interface:interface_mismatch",
        "the new test calls the kata's Interface as the kata file states it",
    ),
    _check(
        "interface-kept",
        "source",
        "written",
        "refuse",
        "core",
        _D + "interface:broken_interface",
        "the code keeps the signatures the kata's Interface section states",
    ),
    _check(
        "test-lints",
        "tester",
        "red",
        "refuse",
        "core",
        _D + "redcheck:lints_in_test",
        "the new test passes the linter: only the tester may change tests",
    ),
    _check(
        "tests-kept",
        "refactorer",
        "green",
        "refuse",
        "core",
        _D + "redcheck:changed_behaviour",
        "a refactor keeps the set of tests and how many pass",
    ),
    _check(
        "function-added",
        "refactorer",
        "green",
        "refuse",
        "core",
        _D + "added:added_function",
        "a refactor does not add an Interface function no test asked for yet",
    ),
    _check(
        "format-fixes",
        "any",
        "written",
        "repair",
        "core",
        _D + "workspace:format_files",
        "the files an answer wrote get the project's fix and format commands before the gate",
    ),
    _check(
        "test-lint-fixes",
        "implementor",
        "green",
        "repair",
        "core",
        _D + "turns:ImplementorTurn.settled",
        "the linter's safe fixes to the handed-over test are applied by the drive",
    ),
    # small-model: aids for models that cannot follow the protocol unaided
    _check(
        "json-triple-quotes",
        "any",
        "parse",
        "repair",
        "small-model",
        _J + "triple_quoted",
        "a file sent in Python's triple quotes inside the JSON is read as a JSON string",
    ),
    _check(
        "json-code-quotes",
        "any",
        "parse",
        "repair",
        "small-model",
        _J + "escape_content_quotes",
        "the code's own unescaped quotes, and a content string never closed, do not break the JSON",
    ),
    _check(
        "double-escaped-file",
        "any",
        "parse",
        "repair",
        "small-model",
        "tddhooks.agents.literals:unescaped_flat_file",
        "a Rust or Python file sent escaped twice, on one line, is decoded once more",
    ),
    _check(
        "raw-char-literals",
        "any",
        "parse",
        "repair",
        "small-model",
        "tddhooks.agents.literals:escape_raw_char_literals",
        "a char literal JSON turned into a raw line end or tab is written back as its escape",
    ),
    _check(
        "snippet-merge",
        "any",
        "parse",
        "repair",
        "small-model",
        "tddhooks.agents.snippets:merge_snippet",
        "an edit of only some items (`insert`, a partial upsert) is merged into its whole file",
    ),
    _check(
        "offered-paths",
        "tester",
        "answer",
        "refuse",
        "small-model",
        _D + "turns:TesterTurn.not_offered",
        "only the offered paths are written (schema enum, prompt); no other test file is rewritten",
    ),
    _check(
        "placeholder-copied",
        "any",
        "answer",
        "refuse",
        "small-model",
        "tddhooks.agents.edits:copied_placeholder",
        "a placeholder of the prompt's example answer is not written as code",
    ),
    _check(
        "done-open",
        "tester",
        "answer",
        "refuse",
        "small-model",
        _D + "turns:TesterTurn.refuse_done",
        "done is not taken while a listed requirement has no test",
    ),
    _check(
        "assertion-count",
        "tester",
        "answer",
        "refuse",
        "small-model",
        _D + "redcheck:too_many_checks",
        "a new test checks one step of the kata, not many requirements at once",
    ),
    _check(
        "example-contradicted",
        "tester",
        "answer",
        "refuse",
        "small-model",
        "tddhooks.agents.examples:contradicted_example",
        "a new test does not expect, of a kata example's input, what the kata does not say",
    ),
    _check(
        "examples-kept",
        "source",
        "green",
        "refuse",
        "small-model",
        _D + "probe:broken_examples",
        "a change keeps what the code gave for kata examples no test checks yet",
    ),
    _check(
        "crate-path",
        "tester",
        "answer",
        "repair",
        "small-model",
        _D + "testimports:repaired_answer",
        "a Rust test imports the kata's crate by its real name",
    ),
    _check(
        "typed-empty-vec",
        "tester",
        "answer",
        "repair",
        "small-model",
        _D + "emptyvecs:typed_answer",
        "an untyped `vec![]` compared with an Interface function gets its element type",
    ),
    _check(
        "compiler-fixes",
        "any",
        "written",
        "repair",
        "small-model",
        _D + "rustfixes:takes_rustc_fixes",
        "rustc's `.to_string()` for a literal and fixes for char, brace and vec slips are applied",
    ),
    _check(
        "handed-intent",
        "tester",
        "red",
        "repair",
        "small-model",
        _D + "intent:handed_intent",
        "the plan handed over with a test is kept only when it is about that test",
    ),
    _check(
        "empty-start",
        "implementor",
        "prompt",
        "hint",
        "small-model",
        _D + "startlines:empty_start",
        "the first test that expects only empty lists is answered by an empty-list body",
    ),
    _check(
        "count-characters",
        "implementor",
        "prompt",
        "hint",
        "small-model",
        _D + "startlines:length_in_view",
        "the kata's note that lengths count characters, not bytes, is shown where a length shows",
    ),
    _check(
        "refusal-shape",
        "tester",
        "prompt",
        "hint",
        "small-model",
        "tddhooks.agents.context:refusal_shape",
        "a requirement that refuses an input is shown how the language tests a refusal",
    ),
    _check(
        "rust-hints",
        "source",
        "red",
        "hint",
        "small-model",
        _D + "rusthints:rust_hints",
        "a Rust compile error the model keeps repeating is explained in one line",
    ),
    _check(
        "stray-values",
        "source",
        "red",
        "hint",
        "small-model",
        _D + "strays:stray_values",
        "a value the code gives that no test and no kata line asks for is pointed out",
    ),
    _check(
        "extra-values",
        "source",
        "red",
        "hint",
        "small-model",
        _D + "extras:extra_values",
        "a failure that shows values of another requirement is pointed out",
    ),
)
_BY_ID = {check.id: check for check in CHECKS}


def check_of(check_id: str) -> Check:
    """The registered check with this id (KeyError names a programming error)."""
    return _BY_ID[check_id]


@dataclass(frozen=True)
class ActiveChecks:
    """Which checks are in effect: the profile's (core is always in) minus the disabled ones."""

    profile: Profile = "core"
    disabled: frozenset[str] = frozenset()

    def on(self, check_id: str) -> bool:
        check = check_of(check_id)
        wanted = check.profile == "core" or self.profile == "small-model"
        return wanted and check_id not in self.disabled

    def in_effect(self) -> tuple[Check, ...]:
        return tuple(check for check in CHECKS if self.on(check.id))

    def ids(self) -> frozenset[str]:
        """The ids of the checks in effect: what the layers below the drive are handed (llm and
        agents name their repairs by these ids and import no registry)."""
        return frozenset(check.id for check in self.in_effect())

    @staticmethod
    def refusal(check_id: str, message: str) -> str:
        """A refusal's text, naming the check that made it."""
        check_of(check_id)
        return f"[check: {check_id}] {message}"


def active_checks(profile: str = "core", disabled: Iterable[str] = ()) -> ActiveChecks:
    """The checks for `profile` without `disabled`; unknown names are a ConfigError."""
    if profile not in PROFILES:
        raise ConfigError(
            f"unknown drive profile {profile!r}",
            fix=f"set drive.profile (or --profile) to one of {', '.join(PROFILES)}",
        )
    off = frozenset(disabled)
    unknown = sorted(off - set(_BY_ID))
    if unknown:
        raise ConfigError(
            f"drive.checks.disabled names unknown check(s) {unknown}",
            fix="use the ids `tddhooks doctor` lists (docs/checks.md)",
        )
    locked = sorted(check for check in off if _BY_ID[check].locked)
    if locked:
        raise ConfigError(
            f"drive.checks.disabled names {locked}, a rule of the commit policy itself",
            fix="remove them from drive.checks.disabled; the policy's rules cannot be turned off",
        )
    chosen: Profile = "small-model" if profile == "small-model" else "core"
    return ActiveChecks(chosen, off)


def markdown_table() -> str:
    """The registry as the Markdown table of docs/checks.md (scripts/checks-doc writes it)."""
    lines = [
        "| id | role | stage | effect | profile | protects |",
        "|---|---|---|---|---|---|",
    ]
    for check in CHECKS:
        locked = " (policy: cannot be disabled)" if check.locked else ""
        lines.append(
            f"| `{check.id}` | {check.role} | {check.stage} | {check.effect} | {check.profile} "
            f"| {check.reason}{locked} |"
        )
    return "\n".join(lines) + "\n"
