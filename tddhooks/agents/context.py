"""The prompt an agent sees: its role's system prompt and only the context the role needs, under a
token budget, built deterministically (same inputs, byte-identical messages: the cache replays)."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from tddhooks.agents.diagnostics import in_location_order
from tddhooks.agents.edits import matches_any
from tddhooks.agents.roles import role_spec, system_prompt
from tddhooks.agents.waiting import waiting_on
from tddhooks.policy.compose import kata_requirements, kata_without_requirements

DEFAULT_TEST_GLOBS = ("tests/**", "test_*.py", "*_test.py")
# share of the budget each section may take at most; relevant files get whatever is left
_CAPS: dict[str, dict[str, float]] = {
    # the tester gets no last commit or diff: the covered tests' names say what is done, and a
    # small model may copy the last cycle's test from them
    "tester": {"kata": 0.22, "commit": 0.0, "diff": 0.0, "files": 0.05, "output": 0.05,
               "covered": 0.12, "hints": 0.06, "failure": 0.10, "handoff": 0.0, "expects": 0.0,
               "next": 0.08},
    # nor does the implementor: the staged test, its failure and the code are its whole task
    "implementor": {"kata": 0.12, "commit": 0.0, "diff": 0.0, "files": 0.04, "output": 0.12,
                    "covered": 0.0, "hints": 0.05, "failure": 0.14, "handoff": 0.05,
                    "expects": 0.08, "next": 0.0},
    # the refactorer's hints may hold a preparatory refactor's request
    "refactorer": {"kata": 0.10, "commit": 0.06, "diff": 0.10, "files": 0.04, "output": 0.04,
                   "covered": 0.0, "hints": 0.12, "failure": 0.12, "handoff": 0.0,
                   "expects": 0.0, "next": 0.0},
}  # fmt: skip
_FENCES = {".rs": "rust", ".py": "python", ".toml": "toml", ".md": "markdown"}
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
# cargo's progress, and the lines whose order depends on which of the lib and the lib test build
# finished first (a replay would otherwise ask the model anew after two of them swapped)
_NOISE = re.compile(
    r"^\s*(?:(?:Compiling|Checking|Finished|Blocking|Fresh|Locking|Updating)\s"
    r"|error: could not compile `|warning: build failed, waiting for other jobs to finish"
    r"|For more information about (?:this|an) error, try `rustc --explain"
    r"|Some errors have detailed explanations: )"
)
_DURATION = re.compile(r"\bin \d+(?:\.\d+)?\s?(?:ms|s)\b")
_ABSOLUTE = re.compile(r"(?<![\w.~/-])/(?!dev/null\b)(?:[^\s:'\"()\[\]/]+/)+([^\s:'\"()\[\]/]*)")
_BUILD_HASH = re.compile(r"-[0-9a-f]{16}\b")
_HEADING = re.compile(r"^(#{1,4})(?=\s)", re.MULTILINE)
_RUST_API = re.compile(
    r"^\s*(?:pub(?:\([^)]*\))?\s+(?:(?:const|async|unsafe)\s+)*"
    r"(?:fn|struct|enum|trait|type|const|static|mod|use)\b|impl\b)"
)
_PYTHON_API = re.compile(r"^\s*(?:async\s+)?(?:def|class)\s+[A-Za-z]")


@dataclass(frozen=True)
class TurnContext:
    """Everything one agent turn may be told; the loop gathers it, build_messages trims it."""

    role: str
    cycle: int
    kata: str
    language: str
    last_commit_message: str
    last_diff: str
    files: tuple[str, ...]
    file_texts: Mapping[str, str]  # candidate contents; ties in relevance keep this order
    test_output_tail: str
    hints: tuple[str, ...]
    previous_failure: str | None
    handoff_intent: str | None
    covered_behaviours: tuple[str, ...]  # test names already present (tester must not repeat)
    crate_name: str | None = None  # None: read from Cargo.toml in file_texts when present
    staged_files: tuple[str, ...] = ()  # the implementor's staged test files, shown first
    test_globs: tuple[str, ...] = DEFAULT_TEST_GLOBS
    work_dir: str = ""  # only to turn absolute paths in tool output into relative ones
    expectations: tuple[str, ...] = ()  # what the staged test calls and expects (implementor)
    unit_test_files: tuple[str, ...] = ()  # source files with tests beside the code (kata shape)
    write_paths: tuple[str, ...] = ()  # the paths offered for this turn's edits (agents/offers.py)
    # only the offered paths may be written (check `offered-paths`, small-model); else they are
    # suggestions, and the tester sees the test files it may grow
    paths_closed: bool = True
    working: tuple[int, ...] = ()  # requirements found already working this drive (0-based)
    put_off: tuple[int, ...] = ()  # requirements whose test the implementor gave up on
    # the ids of the checks in effect (docs/checks.md), for the prompt's hint lines; None: all
    checks: frozenset[str] | None = None


REFUSAL_SHAPE = "refusal-shape"  # the check id of `refusal_shape`'s line (docs/checks.md)


def estimate_tokens(text: str) -> int:
    """About four UTF-8 bytes per token (non-ASCII text costs more, as in real tokenizers)."""
    return (len(text.encode("utf-8")) + 3) // 4


def crate_name(manifest: str) -> str | None:
    """The name tests import a Rust crate by (`[lib] name`, else `[package] name` with '-' as
    '_'), if readable."""
    try:
        data = tomllib.loads(manifest)
    except tomllib.TOMLDecodeError:
        return None
    lib, package = data.get("lib"), data.get("package")
    name = lib.get("name") if isinstance(lib, dict) else None
    if not (isinstance(name, str) and name) and isinstance(package, dict):
        name = package.get("name")
    return name.replace("-", "_") if isinstance(name, str) and name else None


def scrub(text: str, work_dir: str = "") -> str:
    """Drop what changes from run to run (timings, absolute paths, build hashes, colours, cargo
    progress lines) and put rustc's diagnostics in a stable order (agents/diagnostics.py), so the
    same state always gives the same prompt."""
    if work_dir:
        text = text.replace(work_dir.rstrip("/") + "/", "")
    text = _ANSI.sub("", text)
    lines = [line for line in text.splitlines() if not _NOISE.match(line)]
    text = "\n".join(in_location_order(lines))
    text = _DURATION.sub("in <time>", text)
    text = _ABSOLUTE.sub(lambda match: "…/" + match.group(1), text)
    return _BUILD_HASH.sub("", text)


def _fit_line(line: str, tokens: int) -> str:
    while line and estimate_tokens(line + " …") > tokens:
        line = line[: max(0, len(line) - max(1, len(line) // 8))]
    return line.rstrip() + " …" if line.strip() else ""


def trim_head(text: str, tokens: int) -> str:
    """The beginning of text within `tokens`, whole lines, with a note of what was cut."""
    text = text.strip("\n")
    if estimate_tokens(text) <= tokens:
        return text
    lines = text.splitlines()
    kept: list[str] = []
    for line in lines:
        note = f"… ({len(lines) - len(kept) - 1} more lines)"
        if estimate_tokens("\n".join([*kept, line, note])) > tokens:
            break
        kept.append(line)
    if not kept:
        return _fit_line(lines[0], tokens)
    return "\n".join([*kept, f"… ({len(lines) - len(kept)} more lines)"])


def trim_tail(text: str, tokens: int) -> str:
    """The end of text within `tokens`, whole lines, with a note of what was cut."""
    text = text.strip("\n")
    if estimate_tokens(text) <= tokens:
        return text
    lines = text.splitlines()
    kept: list[str] = []
    for line in reversed(lines):
        note = f"({len(lines) - len(kept) - 1} earlier lines) …"
        if estimate_tokens("\n".join([note, line, *kept])) > tokens:
            break
        kept.insert(0, line)
    if not kept:
        return _fit_line(lines[-1], tokens)
    return "\n".join([f"({len(lines) - len(kept)} earlier lines) …", *kept])


def public_api(text: str, language: str) -> str:
    """Signatures only (bodies dropped): what a tester may call without reading the code."""
    pattern = _RUST_API if language == "rust" else _PYTHON_API if language == "python" else None
    if pattern is None:
        return text
    api = []
    for line in text.splitlines():
        if not pattern.match(line):
            continue
        if language == "python":  # the pattern already skips _private names
            api.append(line.rstrip().removesuffix(":") + ": ...")
        elif line.lstrip().startswith("impl"):
            api.append(line.split("{")[0].rstrip())
        else:
            signature = line.split("{")[0].rstrip().removesuffix(";")
            api.append(signature + (" {…}" if "{" in line else ";"))
    return "\n".join(api) if api else "(no public items yet)"


UNIT_TESTS_LABEL = (
    "unit tests beside the code: you may add your test inside its test module; send the whole "
    "file with every other line exactly as it is"
)


def _is_test(path: str, ctx: TurnContext) -> bool:
    return matches_any(path, ctx.test_globs)


def _ranked(ctx: TurnContext) -> list[tuple[str, str, str]]:
    """(path, label, text) in the role's order of relevance; ties keep the given order."""

    def group(path: str) -> int:
        test = _is_test(path, ctx)
        source = not test and path.endswith((".rs", ".py"))
        if ctx.role == "tester":
            return 0 if source else 1 if test else 3
        if ctx.role == "implementor":
            return 0 if path in ctx.staged_files else 1 if source else 2 if test else 3
        return 0 if source else 1 if test else 3

    order = sorted(ctx.file_texts, key=group)  # sorted() is stable
    ranked = []
    hide_tests = _offered_new_file(ctx) and ctx.paths_closed
    # an implementor offered its source files sees the staged test and the code, not the other
    # tests or the manifest, which it could copy into its plan
    only_task = ctx.role == "implementor" and bool(ctx.write_paths)
    for path in order:
        text = ctx.file_texts[path]
        if only_task and group(path) > 1:
            continue
        if hide_tests and group(path) == 1:
            # a tester writing a new file sees the covered tests' names, not their code, which
            # a small model may copy, name and all
            continue
        if ctx.role == "tester" and path in ctx.unit_test_files:
            ranked.append((path, f"{path} ({UNIT_TESTS_LABEL})", text))
        elif ctx.role == "tester" and group(path) == 0:
            ranked.append((path, f"{path} (public API)", public_api(text, ctx.language)))
        elif group(path) < 3 or ctx.role != "tester":
            ranked.append((path, path, text))
    return ranked


def _file_block(label: str, path: str, text: str) -> str:
    fence = next((lang for ext, lang in _FENCES.items() if path.endswith(ext)), "")
    return f"### {label}\n```{fence}\n{text.rstrip()}\n```"


def _relevant_files(ctx: TurnContext, tokens: int) -> str:
    blocks: list[str] = []
    left_out: list[str] = []
    for path, label, text in _ranked(ctx):
        block = _file_block(label, path, text)
        cost = estimate_tokens(block) + 1
        writable = _is_test(path, ctx) == (ctx.role == "tester") or (
            ctx.role == "tester" and path in ctx.unit_test_files
        )
        if cost <= tokens:
            blocks.append(block)
            tokens -= cost
        elif not writable and tokens > 80 and not blocks:
            # a read-only file may be cut; a writable one never (a whole-file upsert from a
            # truncated view would destroy the rest of it)
            cut = trim_head(text, tokens - estimate_tokens(_file_block(label, path, "")) - 4)
            blocks.append(_file_block(f"{label} (truncated)", path, cut))
            tokens = 0
        else:
            left_out.append(path)
    if left_out:
        note = f"(not shown, over the context budget: {', '.join(left_out)})"
        if estimate_tokens(note) <= tokens:
            blocks.append(note)
    return "\n\n".join(blocks)


def _covered(ctx: TurnContext) -> str:
    names = dict.fromkeys(name.rsplit("::", 1)[-1] for name in ctx.covered_behaviours)
    return ", ".join(names)


def next_requirement(
    kata: str,
    covered: Sequence[str],
    working: Sequence[int] = (),
    put_off: Sequence[int] = (),
    language: str = "",
    shape: bool = True,
) -> str:
    """The requirement the tester's cycle should take on, quoted whole with its examples: the
    first one no covered test is about (policy/goals.py), so the tester is pointed at one
    behaviour instead of picking among all of them. Every one covered: check and finish. With
    `shape` (check `refusal-shape`), how the language tests a refusal the requirement states."""
    requirements = kata_requirements(kata, whole=True)
    if not requirements:
        return ""
    index = focus_index(kata, covered, working, put_off)
    if index is None:
        return (
            f"Every one of the {len(requirements)} requirements seems to have a test. Check the "
            "covered tests: test one that none of them checks yet, or answer done."
        )
    notes = [
        _note("Already working, no test needed", working, "a test for it passed at once"),
        _note("Put off for now", [n for n in put_off if n != index],
              "the implementor could not make its test pass"),
        _note("Waits for a put-off one", [n for n in waiting_on(requirements, put_off)
                                          if n != index], "its examples use a put-off one's words"),
    ]  # fmt: skip
    if index in put_off:  # back to it, every other one done: a smaller step this time
        notes.append(BACK_TO_IT)
    shown = "".join(f"\n({note})" for note in notes if note)
    how = refusal_shape(kata, requirements, index + 1, language) if shape else ""
    return f"Requirement {index + 1} of {len(requirements)}: {requirements[index]}{shown}{how}"


_RUST_FN = re.compile(r"\bpub fn (\w+)\s*[<(]")
_RAISES = re.compile(r"\braises `(\w+)`")


def refusal_shape(kata: str, requirements: Sequence[str], number: int, language: str) -> str:
    """For a requirement whose example is refused (`0 panics`): how the language writes a test
    of a refusal, with the kata's own call."""
    from tddhooks.agents.examples import kata_examples, literal

    refused = [
        e for e in kata_examples(requirements) if e.requirement == number and e.values is None
    ]
    if not refused or language not in ("rust", "python"):
        return ""
    given = literal(refused[0].given, language)
    if language == "python":
        named = _RAISES.search(requirements[number - 1]) or _RAISES.search(kata)
        error = named[1] if named else "Exception"
        return (
            f"\nA refusal is tested with `with pytest.raises({error}):` around the call with "
            f"{given}, no assertion."
        )
    found = _RUST_FN.search(kata)
    call = f"{found[1]}({given});" if found else f"the call with {given};"
    return (
        "\nA refusal is tested in Rust with `#[should_panic]` under `#[test]`, the body only "
        f"calling the code, no assertion: `#[test] #[should_panic] fn NAME() {{ {call} }}`."
    )


# a tester back at a requirement whose test was set aside tests one example of it, not the same
# assertions the implementor failed
BACK_TO_IT = (
    "Back to this requirement: the implementor could not make its last test pass. Test one of "
    "its examples only, with one assertion."
)


def _note(title: str, indices: Sequence[int], why: str) -> str:
    if not indices:
        return ""
    numbers = ", ".join(str(number + 1) for number in sorted(indices))
    return f"{title}: requirement{'s' if len(indices) > 1 else ''} {numbers}; {why}."


def requirement_in_focus(
    kata: str, covered: Sequence[str], working: Sequence[int] = (), put_off: Sequence[int] = ()
) -> str:
    """The next requirement's first sentence ("" when none is open or the kata lists none)."""
    index = focus_index(kata, covered, working, put_off)
    return "" if index is None else kata_requirements(kata)[index]


def focus_index(
    kata: str, covered: Sequence[str], working: Sequence[int] = (), put_off: Sequence[int] = ()
) -> int | None:
    """Index of the requirement the tester is pointed at (policy/goals.py), None when none:
    past the ones found `working`, and past the `put_off` ones while another is open (then
    back to them)."""
    from tddhooks.policy.goals import back_to
    from tddhooks.policy.goals import next_requirement as pick

    requirements = kata_requirements(kata)
    if not requirements:
        return None
    waiting = {*put_off, *waiting_on(kata_requirements(kata, whole=True), put_off)}
    index = pick(requirements, covered, {*working, *waiting})
    return back_to(requirements, covered, working, waiting) if index is None and waiting else index


def focus_of(ctx: TurnContext) -> int | None:
    """The requirement `ctx`'s tester is pointed at (focus_index of its kata and state)."""
    return focus_index(ctx.kata, ctx.covered_behaviours, ctx.working, ctx.put_off)


def tests_requirements(kata: str, names: Sequence[str], focus: int | None) -> set[int]:
    """The requirements tests are about: the one each test's name matches (policy/goals.py),
    else `focus`, the one the tester was pointed at."""
    from tddhooks.policy.goals import about

    requirements = kata_requirements(kata)
    found: set[int] = set()
    for name in names:
        match = about(requirements, name.rsplit("::", 1)[-1])
        if match is not None:
            found.add(match[1])
        elif focus is not None:
            found.add(focus)
    return found


def _write_to(ctx: TurnContext) -> str:
    if not ctx.write_paths:
        return ""
    lines = [f"- {path}" + ("" if path in ctx.files else _new_file(ctx, path))
             for path in ctx.write_paths]  # fmt: skip
    heading = (
        "Your edits may write only these paths:" if ctx.paths_closed
        else "Offered paths (a new file is a suggestion; any path your role may write is fine):"
    )  # fmt: skip
    return "\n".join([heading, *lines])


def _new_file(ctx: TurnContext, path: str) -> str:
    # the test's name too: a small model otherwise names it after a test it has seen
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    if ctx.role != "tester" or not stem.isidentifier():
        return " (new file)"
    return f" (new file; name its test `{stem}`)"


def _offered_new_file(ctx: TurnContext) -> bool:
    return ctx.role == "tester" and any(path not in ctx.files for path in ctx.write_paths)


def _crate_line(ctx: TurnContext) -> str:
    name = ctx.crate_name
    if name is None and "Cargo.toml" in ctx.file_texts:
        name = crate_name(ctx.file_texts["Cargo.toml"])
    if not name:
        return ""
    return f"\nCrate: `{name}` (integration tests import it as `use {name}::...;`)"


def _kata_for(ctx: TurnContext) -> str:
    """The implementor reads the kata without its requirements (kata_without_requirements)."""
    return kata_without_requirements(ctx.kata) if ctx.role == "implementor" else ctx.kata


def _demote_headings(markdown: str) -> str:
    # the kata's own headings sit below our "## " sections, so the model sees one outline
    return _HEADING.sub(r"##\1", markdown)


# the tester's plan as it usually begins: "Add a new failing test for the requirement that …"
_TEST_PLAN_OPENING = re.compile(
    r"^\s*(?:(?:add|write|create|adds|writes)\s+)?(?:an?\s+|one\s+)?(?:new\s+)?(?:failing\s+)?"
    r"(?:unit\s+|integration\s+)?test(?:\s+case)?s?(?![\w/]|\.\w)[\s,:]*"
    r"(?:(?:for|that|which|to\s+cover|to\s+check|to\s+verify|checking|covering)\s+)?"
    r"(?:(?:the\s+)?requirement\s+(?:\d+\s*)?(?:that|where|of|:)?\s*)?"
    r"(?:[\s,:]*(?:which|that)\s+(?:checks?|tests?|verif(?:y|ies)|ensures?)\s+(?:that\s+|if\s+)?)?",
    re.IGNORECASE,
)


def what_the_test_checks(intent: str) -> str:
    """The tester's handoff intent without its "Add a new failing test for …" opening: the
    implementor could copy that opening into its own plan and then write a test. One line: a
    plan's own `## Write to` line cannot pass for a section of the prompt."""
    checks = _TEST_PLAN_OPENING.sub("", " ".join(intent.split()), count=1)
    return checks.lstrip(" ,;:.").rstrip(" ,;:")


def implementor_task(ctx: TurnContext) -> str:
    """The implementor's task in its own words, last in its prompt (docs/agents.md)."""
    staged = ", ".join(ctx.staged_files) or "the staged test"
    paths = ", ".join(ctx.write_paths) or "the source files"
    lines = [
        f"The test is written and staged ({staged}); do not write or change a test.",
        f"Change the code in {paths} so that it passes, and keep every other test passing.",
    ]
    checks = what_the_test_checks(ctx.handoff_intent or "")
    if checks:
        lines.append(f"What the test checks: {checks}")
    return "\n".join(lines)


def _diff(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith("index "))


def build_messages(ctx: TurnContext, *, budget_tokens: int) -> list[dict[str, str]]:
    """[system, user]: the role's template, then the context sections trimmed so the user message
    stays within budget_tokens; deterministic and free of volatile data."""
    spec = role_spec(ctx.role)
    caps = _CAPS[spec.name]
    clean: Callable[[str], str] = lambda text: scrub(text, ctx.work_dir)  # noqa: E731

    def section(title: str, body: str, cap: str, trim: Callable[[str, int], str]) -> str:
        limit = int(budget_tokens * caps[cap]) - estimate_tokens(f"## {title}\n") - 1
        if not body.strip() or limit <= 0:
            return ""
        return f"## {title}\n{trim(body, limit)}"

    hints = "\n".join(f"- {hint}" for hint in ctx.hints)
    sections = {
        "kata": section("Kata", _demote_headings(_kata_for(ctx)), "kata", trim_head),
        "cycle": f"## Cycle\n{ctx.cycle} · you are the {spec.title} · language: {ctx.language}"
        + _crate_line(ctx),
        "next": section(
            "Next requirement", next_requirement(
                ctx.kata, ctx.covered_behaviours, ctx.working, ctx.put_off, ctx.language,
                shape=ctx.checks is None or REFUSAL_SHAPE in ctx.checks,
            ),
            "next",
            trim_head,
        ),
        "write": f"## Write to\n{_write_to(ctx)}" if ctx.write_paths else "",
        "commit": section("Last commit message", ctx.last_commit_message, "commit", trim_head),
        "diff": section("Last diff", _diff(ctx.last_diff), "diff", trim_head),
        "files": section("Files", "\n".join(ctx.files), "files", trim_head),
        "relevant": "",
        # the implementor needs the first error (the compiler's or the assertion's), others the end
        "output": section(
            "Test output" if spec.name == "implementor" else "Test output (tail)",
            clean(ctx.test_output_tail), "output",
            trim_head if spec.name == "implementor" else trim_tail,
        ),
        "expects": section(
            "What the staged test expects", "\n".join(ctx.expectations), "expects", trim_head
        ),
        "covered": section("Covered tests", _covered(ctx), "covered", trim_tail),
        "hints": section("Supervisor hints", hints, "hints", trim_head),
        "failure": section(
            "Previous attempt failed because", clean(ctx.previous_failure or ""), "failure",
            trim_head,
        ),
        "handoff": section(
            "Your task" if spec.name == "implementor" else "Handoff intent",
            implementor_task(ctx) if spec.name == "implementor" else ctx.handoff_intent or "",
            "handoff", trim_head,
        ),
    }  # fmt: skip
    used = sum(estimate_tokens(text) + 1 for text in sections.values() if text)
    header = "## Relevant files\n"
    files = _relevant_files(ctx, budget_tokens - used - estimate_tokens(header) - 2)
    sections["relevant"] = header + files if files else ""
    user = "\n\n".join(text for text in sections.values() if text) + "\n"
    if estimate_tokens(user) > budget_tokens:  # only for budgets too small for the headers
        user = trim_head(user, budget_tokens) + "\n"
    return [
        {"role": "system", "content": system_prompt(spec.name)},
        {"role": "user", "content": user},
    ]
