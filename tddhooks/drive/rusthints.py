"""Check `rust-hints` (small-model hint, docs/checks.md): one concrete change for rustc errors a
model tends to repeat, added to a red attempt's failure (docs/answers.md, "Hints on a red
attempt"). rustc's own machine-applicable fixes are applied before the gate
(drive/workspace.py); these are the ones it only explains."""

from __future__ import annotations

import re

from tddhooks.policy.verdicts import Verdict

_HINTS: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(r"expected `(?:std::string::)?String`, found `&(?:'static )?str`"),
        'a `String` is expected where the code gives a `&str` (a "…" literal): write '
        '`"…".to_string()` (inside `Ok(…)`/`Some(…)` too: `Ok("…".to_string())`)',
    ),
    (
        re.compile(r"expected `&str`, found `(?:std::string::)?String`"),
        "a `&str` is expected where the code gives a `String`: borrow it, `&value` or "
        "`value.as_str()`",
    ),
    (
        re.compile(r"error\[E0317\]"),
        "an `if` without `else` gives `()`: after `if … { return …; }` end the function with the "
        "value it returns otherwise, or write `if … { a } else { b }` as its last expression",
    ),
    (
        # `match n % 3 { 0 => "Fizz", _ => … }` followed by `match n % 5 { … }`
        re.compile(r"expected `\(\)`, found `(?!\(\))"),
        "a `match` or `if … else` before the function's last line is a statement, and its "
        'arms must give `()`: return from them (`0 => return "Fizz".to_string(),`), or make one '
        "`match` or `if … else if … else` the last expression, the value the function returns",
    ),
    (
        # `else => n.to_string(),` as a match's last arm
        re.compile(r"expected identifier, found keyword `else`[\s\S]{0,300}?\belse\s*=>"),
        "a `match` has no `else` arm: its last arm is `_ => …` (`_ => n.to_string(),`)",
    ),
    (
        re.compile(
            r"expected `(?:std::result::)?Result<[^`]*`, found `(?!(?:std::result::)?Result)"
        ),
        "the function returns a `Result`: wrap the value it returns, `Ok(value)`",
    ),
    (
        re.compile(r"error\[E0593\][\s\S]{0,600}?\bis_digit\b"),
        "`char::is_digit` takes a radix too: pass a closure, `|c| c.is_ascii_digit()`",
    ),
    (
        re.compile(r"error\[E0631\][\s\S]{0,900}?found function signature `fn\(&"),
        "a method that takes `&self` (`char::is_ascii_uppercase`) cannot be passed by name to "
        "`any`/`all`/`filter` over `chars()`: pass a closure, `|c| c.is_ascii_uppercase()`",
    ),
    (
        # the scaffold's clippy lint (templates/scaffolds/rust/Cargo.toml)
        re.compile(r"error: collection is never read"),
        "the code fills a collection and never uses it: return it as the function's value "
        "(not a new `vec![]`), or remove it",
    ),
)


def rust_hints(verdict: Verdict) -> str:
    """The hint lines for the errors in the gate's output ("" when none applies), each ending in
    a line break: they go before rustc's output, which the prompt cuts from the end."""
    output = "\n".join(step.output_tail for step in verdict.steps)
    found = [hint for pattern, hint in _HINTS if pattern.search(output)]
    return "".join(f"Hint: {hint}.\n" for hint in found)
