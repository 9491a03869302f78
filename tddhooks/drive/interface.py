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
from tddhooks.drive.rustcode import without_comments
from tddhooks.policy.settings import PolicySettings
from tddhooks.policy.verdicts import Verdict

if TYPE_CHECKING:
    from tddhooks.drive.ports import Gate

LIB = "src/lib.rs"
# the `;` of an array type (`-> [u8; 3]`) is no end; a declaration's own `;` is left out
_SIGNATURE = re.compile(
    r"`(pub\s+fn\s+(?P<name>\w+)\s*(?:<[^`>]*>)?\s*\([^`]*?\)(?:\[[^`]*?\]|[^`{;\[])*?)\s*;?`"
)
_PY_SIGNATURE = re.compile(r"`(def\s+(?P<name>\w+)\s*\([^`]*?\)(?:\s*->\s*[^`:]+?)?)\s*:?\s*`")
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


def _collapse(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def interface_functions(kata: str, language: str = "rust") -> dict[str, str]:
    """name -> signature of each Rust `pub fn` (Python: `def`) the kata's text names in
    backticks, or declares in a fenced code block of its Interface section; a name given two
    different signatures is left out (which one would the test have to follow?)."""
    found: dict[str, dict[str, str]] = {}  # name -> key -> the first signature with that key
    pattern = _PY_SIGNATURE if language == "python" else _SIGNATURE
    for match in pattern.finditer(kata + "".join(_fenced(kata, language))):
        signature = _collapse(match[1])
        if language == "rust" and not (_whole(signature) and _free(signature)):
            continue
        key = signature_key(signature) if language == "rust" else signature
        found.setdefault(match["name"], {}).setdefault(key, signature)
    return {name: next(iter(sigs.values())) for name, sigs in found.items() if len(sigs) == 1}


# the heading of the section that fixes the entry points (`## Interface`, `## API`)
_INTERFACE_HEADING = re.compile(r"^#{1,6}\s+.*\b(?:interface|api|signatures?)\b", re.I)
_HEADING = re.compile(r"^(?P<level>#{1,6})\s")
_FENCE = re.compile(r"^\s{0,3}(?P<fence>`{3,}|~{3,})")
_CODE_START = {
    "rust": re.compile(r"^\s*pub\s+(?:const\s+)?fn\s"),
    "python": re.compile(r"^\s*def\s"),
}
MAX_SIGNATURE_LINES = 8
# a line's comment (a string's `//` or `#` is cut too: a declaration's line holds none)
_COMMENT = {"rust": re.compile(r"//.*"), "python": re.compile(r"#.*")}


def _fenced(kata: str, language: str) -> list[str]:
    """The signatures declared in the fenced code blocks of the kata's Interface section, each
    written as the kata would in backticks (`` `pub fn is_leap(year: u32) -> bool` ``): a
    newcomer's Leap Year kata gave its Interface as a ```` ```rust ```` block, and no check read
    it. A signature runs from `pub fn`/`def` to its body's `{`, a `;` or a `:` ending its line."""
    lines, found = kata.splitlines(), []
    level: int | None = None  # the Interface heading's, while inside its section
    fence: str | None = None
    start = _CODE_START.get(language)
    depth = 0  # Rust: the braces open in the block (an `impl`'s functions are no free ones)
    margin = 0  # the fence's indent (a block in a list item is indented whole)
    index = 0
    while start is not None and index < len(lines):
        line = lines[index]
        index += 1
        opened = _FENCE.match(line)
        if fence is not None:
            if opened and opened["fence"][0] == fence[0] and len(opened["fence"]) >= len(fence):
                fence = None
                continue
            indent = len(line) - len(line.lstrip())  # a class's method is indented further
            top = depth <= 0 if language == "rust" else indent <= margin
            if level is not None and top and start.match(line):
                taken = _declaration_lines(lines, index - 1, start, language)
                found.append(f"`{_declared(' '.join(taken), language)}`")
            code = _COMMENT[language].sub("", line)
            depth += code.count("{") - code.count("}")
            continue
        if opened:
            fence, depth, margin = opened["fence"], 0, len(line) - len(line.lstrip())
            continue
        heading = _HEADING.match(line)
        if heading:
            depth = len(heading["level"])
            if _INTERFACE_HEADING.match(line):
                level = depth
            elif level is not None and depth <= level:
                level = None
    return found


def _declaration_lines(
    lines: Sequence[str], first: int, start: re.Pattern[str], language: str
) -> list[str]:
    """The lines of the declaration at `lines[first]`, comments left out: up to a blank line, the
    block's fence or the next declaration (a list of signatures without bodies is one each)."""
    taken = [_COMMENT[language].sub("", lines[first]).strip()]
    for line in lines[first + 1 : first + MAX_SIGNATURE_LINES]:
        if not line.strip() or _FENCE.match(line) or start.match(line):
            break
        taken.append(_COMMENT[language].sub("", line).strip())
    return taken


def _declared(code: str, language: str) -> str:
    """A declaration up to its body: the `{` or `;` outside brackets, or Python's `:` there (the
    parameters' annotations are inside the brackets); rustfmt's layout undone."""
    declared = _signature_rest(code, 0, ":" if language == "python" else "{;")
    declared = re.sub(r"\(\s+", "(", declared.strip())
    return re.sub(r",?\s*\)", ")", declared)


def _whole(signature: str) -> bool:
    """A Rust signature code can declare: no `…` and a type for each parameter (`self` aside),
    not the shorthand a text may use (`pub fn execute(commands: &str, …)`)."""
    if "…" in signature or "..." in signature:
        return False
    opening, closing = parentheses(signature)
    params = split_top(signature[opening + 1 : closing])
    return all(":" in param or param.endswith("self") for param in params)


def _free(signature: str) -> bool:
    """Not a method (`pub fn report(&self) -> String`): a method is no top-level item, cannot be
    stubbed beside the library's functions, and its name in an error is no free function's."""
    opening, closing = parentheses(signature)
    first = split_top(signature[opening + 1 : closing])[:1]
    return not first or re.fullmatch(r"(?:&\s*(?:'\w+\s+)?)?(?:mut\s+)?self\b.*", first[0]) is None


def defined_signature(lib: str, name: str) -> str | None:
    """The library's own signature of `name` (comments left out, whitespace collapsed), None
    when it has none: a top-level item, written at the start of a line as rustfmt leaves it (a
    method of the same name in an `impl` block is indented, and is another function), whatever
    its visibility (`fn name` alone is not the kata's `pub fn name`)."""
    code = without_comments(lib)
    match = re.search(_DEFINED.format(name=re.escape(name)), code, re.MULTILINE)
    if match is None:
        return None
    return _collapse(f"{match['head']}fn {name}{_signature_rest(code, match.end())}")


def _signature_rest(code: str, start: int, ends: str = "{;") -> str:
    """The signature from `start` to its body's `{` (or a declaration's `;`; Python's `:`, in
    `ends`): one outside brackets, as `[u8; 3]` holds a `;` that ends nothing."""
    depth = 0
    for index in range(start, len(code)):
        char = code[index]
        if depth <= 0 and char in ends:
            return code[start:index]
        arrow = char == ">" and code[index - 1 : index] == "-"  # `-> u8` closes nothing
        depth += (char in "([<") - (char in ")]>" and not arrow)
    return code[start:]


def split_top(text: str) -> list[str]:
    """`text` split at the commas outside brackets (`a: &[(u32, u32)], b: u8` is two parts)."""
    parts, depth, current = [], 0, ""
    for index, char in enumerate(text):
        arrow = char == ">" and text[index - 1 : index] == "-"  # `fn(u8) -> u8` closes nothing
        depth += (char in "([<{") - (char in ")]>}" and not arrow)
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return [part.strip() for part in [*parts, current] if part.strip()]


def parentheses(signature: str) -> tuple[int, int]:
    """Where the parameter list opens and closes (-1 and the end when it does not)."""
    opening = signature.find("(")
    depth = 0
    for index in range(max(opening, 0), len(signature) if opening >= 0 else 0):
        depth += (signature[index] == "(") - (signature[index] == ")")
        if depth == 0:
            return opening, index
    return opening, len(signature)


def signature_key(signature: str) -> str:
    """What a caller depends on: the name, the generics, the parameter types and the result,
    without layout, named lifetimes or parameter names (`_password: &str`, `mut n: u32`: a name
    the function body picks, e.g. `_password` to keep clippy quiet)."""
    bare = re.sub(r"\s+", " ", signature).strip()
    opening, closing = parentheses(bare)
    if opening < 0:
        return re.sub(r"\s+", "", bare)
    params = [_param_type(part) for part in split_top(bare[opening + 1 : closing])]
    head = re.sub(r"\bconst\s+(?=.*\bfn\b)", "", bare[:opening])  # `const` is the body's
    key = f"{head}({','.join(params)}){bare[closing + 1 :]}"
    # named lifetimes too: `<'a>(password: &'a str)` is called as `(password: &str)` is
    key = re.sub(r"'(?!static\b)\w+\s*,?\s*", "", key)
    # a path to a type is the type (`std::string::String`, `::std::vec::Vec`, `crate::Grid`)
    key = re.sub(r"(?<![\w>])(?:::)?(?:\w+::)+(?=\w)", "", key)
    key = re.sub(r"\s+", "", key).replace("<>", "")
    # rustfmt's trailing commas (`Result<\n    String,\n    String,\n>`), and `-> ()` said
    return re.sub(r"(?:,(?=>)|,$|->\(\)$)", "", key)


def _param_type(param: str) -> str:
    """The type of one parameter: what follows its pattern's `:` (`mut n: u32`, `(x, y): (u8,
    u8)`, `Point { x, y }: Point`); `&self` as it is."""
    depth = 0
    for index, char in enumerate(param):
        depth += (char in "([{<") - (char in ")]}>")
        if (
            char == ":"
            and depth == 0
            and ":" not in (param[index - 1 : index], param[index + 1 :][:1])
        ):
            return param[index + 1 :].strip()
    return param.strip()


def same_signature(one: str, other: str) -> bool:
    """Equal for every caller: layout (rustfmt breaks a long signature over lines with a trailing
    comma) and parameter names aside."""
    return signature_key(one) == signature_key(other)


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
