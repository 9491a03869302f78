"""Does the tester's new test call the kata's code the way its Interface section says? (Rust;
checks `interface-compiles` and `interface-kept`, docs/checks.md)

A kata that fixes its entry point is scored with hidden acceptance tests written against exactly
that signature, so a test that calls it otherwise is red for a reason no implementation can
remove. The tester's red is compiled once more against the interface: the staged tree, with a
stub of each interface function the library does not define yet, judged by the same gate. A type
error left in the new test file is the test's own (docs/agents.md, "The tester's red").

Only when it can tell: a Rust kata whose text names `pub fn` signatures in backticks, a
`src/lib.rs`, and a library that defines each of them as written or not at all (a library whose
signature already differs was changed on purpose). Unresolved names in the test (a type or
method the implementor is to write) stay a valid red."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tddhooks import git
from tddhooks.kata.interface import collapsed, signature_rest
from tddhooks.kata.interface import interface_functions as interface_functions
from tddhooks.kata.interface import parentheses as parentheses
from tddhooks.kata.interface import same_signature as same_signature
from tddhooks.kata.interface import signature_key as signature_key
from tddhooks.kata.interface import split_top as split_top
from tddhooks.policy.settings import PolicySettings
from tddhooks.policy.verdicts import Verdict
from tddhooks.runners.rust_lexer import without_comments

if TYPE_CHECKING:
    from tddhooks.drive.ports import Gate

LIB = "src/lib.rs"
# any visibility and qualifiers: `pub(crate) fn` and a private `fn` hide the kata's function
_DEFINED = (
    r"^(?P<head>(?:pub(?:\s*\([^)]*\))?\s+)?"
    r"(?:(?:const|async|unsafe|extern(?:\s+\"[^\"]*\")?)\s+)*)fn\s+{name}\b"
)
_LOCATED = re.compile(r"^(?P<path>[^\s:]+):\d+(?::\d+)?: error(?:\[(?P<code>E\d+)\])?: ")
# names the test uses that the implementor is still to write: a valid red, whatever the interface
_UNRESOLVED = {"E0405", "E0412", "E0422", "E0423", "E0425", "E0432", "E0433", "E0599", "E0531"}
# rustc's own words on the mismatch: "expected `Result<String, String>`, found `&str`"
_VEC_RETURNED = re.compile(r"->\s*(?:[\w:]*::)?Vec\s*<(?P<item>.+)>\s*$")
_EXPECTED = re.compile(r"expected [^\n]{1,160}?, found [^\n]{1,160}")
_STUB_MARK = "// tddhooks: interface stubs, only in the tree that checks the test"


def defined_signature(lib: str, name: str) -> str | None:
    """The library's own signature of `name` (comments left out, whitespace collapsed), None
    when it has none: a top-level item, written at the start of a line as rustfmt leaves it (a
    method of the same name in an `impl` block is indented, and is another function), whatever
    its visibility (`fn name` alone is not the kata's `pub fn name`)."""
    code = without_comments(lib)
    match = re.search(_DEFINED.format(name=re.escape(name)), code, re.MULTILINE)
    if match is None:
        return None
    return collapsed(f"{match['head']}fn {name}{signature_rest(code, match.end())}")


def kept_interface(functions: Mapping[str, str], lib: str) -> dict[str, str]:
    """The kata's `functions` (name -> signature) that `lib` does not declare otherwise: a
    library that already differs was changed on purpose (by a person, say), and the tests and
    edits follow the code there, not the kata."""
    return {name: wanted for name, wanted in functions.items()
            if (found := defined_signature(lib, name)) is None
            or same_signature(found, wanted)}  # fmt: skip


def broken_interface(kata: str, before: str, after: str) -> str | None:
    """Why a library edit breaks the kata's Interface section, None when it keeps it: `after`
    defines a listed function with other types. A function `before` already defined otherwise
    was changed on purpose (by a person, say) and is not second-guessed; one not defined at all
    is not the edit's concern (a test calls it, and fails)."""
    for name, wanted in kept_interface(interface_functions(kata), before).items():
        new = defined_signature(after, name)
        if new is not None and not same_signature(new, wanted):
            hidden = re.match(r"pub (?:const )?fn ", new) is None
            return (
                f"{LIB} declares `{new}`, but the kata's Interface section fixes `{wanted}`, and "
                "the kata's tests call it that way. "
                + ("Declare it `pub`, callable from outside the crate. " if hidden else "")
                + "Keep exactly its parameter and return types (parameter names may differ); "
                'convert inside the body instead (a string literal is `"…".to_string()` where a '
                "`String` is returned)"
            )
    return None


def stubbed(lib: str, signatures: Sequence[str]) -> str:
    """The library with a body-less stub of each signature appended."""
    stubs = [f"#[allow(unused_variables, dead_code)]\n{sig} {{\n    unimplemented!()\n}}"
             for sig in signatures]  # fmt: skip
    separator = "" if not lib or lib.endswith("\n") else "\n"
    return f"{lib}{separator}\n{_STUB_MARK}\n" + "\n\n".join(stubs) + "\n"


def tree_with_file(root: Path, path: str, text: str, base: str | None = None) -> str:
    """The tree of the index (or `base`, a tree id) with `path` holding `text`, written through
    a private index file: the person's index is never touched."""
    index_file = git.git_dir(root) / "tddhooks" / "interface.index"
    index_file.parent.mkdir(parents=True, exist_ok=True)
    env = {"GIT_INDEX_FILE": str(index_file)}
    try:
        git.run_git(["read-tree", base or git.write_tree(root)], root, env_extra=env)
        blob = git.out(["hash-object", "-w", "--stdin"], root, stdin=text)
        git.run_git(["update-index", "--add", "--cacheinfo", f"100644,{blob},{path}"], root,
                    env_extra=env)  # fmt: skip
        return git.out(["write-tree"], root, env_extra=env)
    finally:
        index_file.unlink(missing_ok=True)


def errors_of_the_test(verdict: Verdict, paths: Sequence[str], names: Sequence[str]) -> list[str]:
    """The compile errors located in the new test's files that are not unresolved names, or that
    are and name one of `names`: the interface's functions, which the checked tree defines
    (`use crate::execute;` in an integration test, where `crate` is the test itself)."""
    found = []
    for error in verdict.report.compile_errors:
        match = _LOCATED.match(error)
        if not match or match["path"] not in paths:
            continue
        named = any(re.search(rf"`(?:[\w:]*::)?{re.escape(name)}`", error) for name in names)
        if match["code"] not in _UNRESOLVED or named:
            found.append(error)
    return found


def interface_mismatch(
    gate: Gate,
    root: Path,
    settings: PolicySettings,
    kata: str,
    paths: Sequence[str],
    verdict: Verdict,
) -> str | None:
    """Why the tester's red test cannot pass against the kata's interface; None when it can, or
    when that cannot be told (see the module's docstring)."""
    if settings.language != "rust" or not verdict.report.compile_errors:
        return None
    functions = interface_functions(kata)
    lib = git.read_blob(root, ":", LIB)
    if not functions or lib is None:
        return None
    if kept_interface(functions, lib) != functions:
        return None
    missing = [wanted for name, wanted in functions.items() if defined_signature(lib, name) is None]
    checked = verdict
    if missing:
        checked = gate.tree(root, tree_with_file(root, LIB, stubbed(lib, missing)), settings)
    errors = errors_of_the_test(checked, paths, list(functions))
    if not errors:
        # it compiles against the interface; the linter may still reject it (drive/redcheck.py)
        from tddhooks.drive.redcheck import lints_in_test

        # not in src/lib.rs: the stubs appended there are ours (after a test module beside the
        # code, clippy's items_after_test_module), and the real tree's lints are judged anyway
        own = [path for path in paths if path != LIB]
        return lints_in_test(checked, own) if checked is not verdict else None
    wanted = "; ".join(f"`{sig}`" for sig in functions.values())
    detail = _EXPECTED.search("\n".join(step.output_tail for step in checked.steps))
    return (
        f"the new test does not compile against the kata's interface ({wanted}): "
        + "; ".join(errors[:3])
        + (f" ({detail[0].strip()})" if detail else "")
        + ". "
        + (wrapped_hint(detail[0]) if detail else "")
        + _import_hint(errors, list(functions), root)
        + annotation_hint(errors, list(functions.values()))
        + macro_hint(errors, list(functions))
        + "Call the code exactly as the Interface section says (its argument and return types)"
    )


def _import_hint(errors: Sequence[str], names: Sequence[str], root: Path) -> str:
    """For an import of a listed function that failed: the line that imports it (`use
    crate::execute;` in an integration test)."""
    from tddhooks.drive.turnkit import kata_crate

    crate = kata_crate(root)
    imported = [name for name in names for error in errors
                if "E0432" in error and re.search(rf"::{re.escape(name)}`", error)]  # fmt: skip
    if crate is None or not imported:
        return ""
    return (
        f"A test in tests/ is a crate of its own: import from the kata's crate, "
        f"`use {crate}::{imported[0]};`. "
    )


def annotation_hint(errors: Sequence[str], signatures: Sequence[str]) -> str:
    """For a value rustc cannot type (`assert_eq!(validate("Abcdefg1"), vec![])`, E0282, as a
    `Vec<String>` compares with vectors of several element types): the two ways to write an
    empty expected list, with the element type the kata's function returns; without one, only to
    write the type out."""
    if not any(re.search(r"error\[E028[23]\]", error) for error in errors):
        return ""
    returned = (_VEC_RETURNED.search(sig) for sig in signatures)
    items = {match["item"] for match in returned if match}
    if len(items) != 1:
        return (
            "rustc cannot tell the type of a value in the test: write it out "
            "(`let expected: Type = …;`) or compare with a value of the type the function "
            "returns. "
        )
    item = items.pop().strip()
    return (
        "rustc cannot tell the type of an empty `vec![]` in a comparison: write the expected "
        f"value with its type (`Vec::<{item}>::new()`), or assert `….is_empty()`. "
    )


_NO_MACRO = re.compile(r"cannot find macro `(?P<name>\w+)`")
_REFUSAL_WORDS = re.compile(r"panic|throw|raise|err|fail|refus", re.IGNORECASE)


def macro_hint(errors: Sequence[str], names: Sequence[str]) -> str:
    """For an assertion macro Rust does not have (`assert_panics!(say(0))`): a test that expects
    a panic is a `#[should_panic]` test that only calls the code; any other check is `assert!`,
    `assert_eq!` or `assert_ne!`."""
    found = next((m["name"] for e in errors if (m := _NO_MACRO.search(e))), None)
    if found is None:
        return ""
    if _REFUSAL_WORDS.search(found):
        call = f"{names[0]}(…);" if names else "the call;"
        return (
            f"Rust has no `{found}!`: a test that expects a panic is marked `#[should_panic]` "
            f"under `#[test]`, and its body only calls the code (`{call}`), with no assertion. "
        )
    return f"Rust has no `{found}!`: check with `assert!`, `assert_eq!` or `assert_ne!`. "


def wrapped_hint(detail: str) -> str:
    """What to write when the test compares a `Result`/`Option` with the bare value: the one
    concrete change, where rustc's words alone may not be enough."""
    match = re.match(r"expected `(?P<kind>Result|Option)<(?P<inner>String)?", detail)
    if match is None:
        return ""
    wrapper = "Ok" if match["kind"] == "Result" else "Some"
    value = '"…".to_string()' if match["inner"] else "…"
    return (
        f"The function returns a `{match['kind']}`: compare `.unwrap()` of the call with the "
        f"expected value (`assert_eq!(f(…).unwrap(), …)`), or compare the call with "
        f"`{wrapper}({value})`. "
    )
