"""Check `typed-empty-vec` (small-model, docs/checks.md): an untyped empty `vec![]` (or `&[]`,
`[]`, `Vec::new()`) that a Rust test compares with a call of the kata's Interface function gets
the function's element type before the gate, e.g. `Vec::<String>::new()` for `-> Vec<String>`
(docs/agents.md, "The tester's red").

rustc cannot type that comparison (E0282/E0283). The repair says nothing the test did not: the
element type is the one the Interface fixes. Only a whole argument that is exactly one of those
empty values is rewritten, and only when the other argument is exactly a call of such a
function, borrowed or `.as_slice()` at most; comments and literals are never read."""

from __future__ import annotations

import re
from collections.abc import Mapping

from tddhooks.agents.edits import AgentAnswer
from tddhooks.agents.expectations import closing_paren
from tddhooks.drive.testimports import masked, rewritten_contents

_ASSERT = re.compile(r"\b(?:debug_)?assert_(?:eq|ne)!\s*\(")
_RETURNS_VEC = re.compile(r"->\s*Vec\s*<(?P<item>.+)>\s*(?:where\b.*)?$")
_EMPTY = re.compile(r"\s*(?:vec!\s*\[\s*\]|&?\s*\[\s*\]|Vec\s*::\s*new\s*\(\s*\))\s*")
_AS_SLICE = re.compile(r"\s*(?:\.\s*as_slice\s*\(\s*\)\s*)?")
# the function's own type parameters (`fn dedupe<T: Clone, const N: usize>(`): a test cannot name
# them, and rustc infers them from the arguments
_GENERICS = re.compile(r"\bfn\s+\w+\s*<(?P<params>.*?)>\s*\(")
_PARAM = re.compile(r"(?:^|,)\s*(?:const\s+)?(\w+)")
_WORD = re.compile(r"\b(?:impl|dyn)\b|\w+")


def element_types(functions: Mapping[str, str]) -> dict[str, str]:
    """name -> T of each Interface function (name -> signature) that returns `Vec<T>`."""
    found = {}
    for name, signature in functions.items():
        match = _RETURNS_VEC.search(signature.strip())
        if match is None or "<" in match["item"] or "'" in match["item"]:
            continue
        generics = _GENERICS.search(signature)
        params = set(_PARAM.findall(generics["params"])) if generics else set()
        words = set(_WORD.findall(match["item"]))
        if not words & (params | {"impl", "dyn"}):
            found[name] = match["item"].strip()  # `Vec<String>`, `Vec<u32>`: a plain type
    return found


def _arguments(code: str, start: int, end: int) -> list[tuple[int, int]]:
    """The spans of the top-level comma-separated arguments in `code[start:end]` (masked)."""
    spans, depth, begin = [], 0, start
    for index in range(start, end):
        char = code[index]
        depth += (char in "([{") - (char in ")]}")
        if char == "," and depth == 0:
            spans.append((begin, index))
            begin = index + 1
    if code[begin:end].strip():
        spans.append((begin, end))
    return spans


def typed_empty_vecs(content: str, functions: Mapping[str, str]) -> str:
    """`content` with each `vec![]` compared with a call of a `Vec<T>`-returning Interface
    function (`functions`: name -> signature) written `Vec::<T>::new()`."""
    types = element_types(functions)
    if not types:
        return content
    code = masked(content)
    calls = re.compile(
        rf"\s*(?P<borrow>&\s*)?(?:(?:crate|\w+)\s*::\s*)?"
        rf"(?P<name>{'|'.join(map(re.escape, types))})\s*\("
    )
    rewrites: list[tuple[int, int, str]] = []
    for match in _ASSERT.finditer(code):
        end = closing_paren(code, match.end()) - 1
        spans = _arguments(code, match.end(), end)
        if len(spans) < 2:
            continue
        first, second = spans[0], spans[1]
        for empty, other in ((first, second), (second, first)):
            call = calls.match(code, other[0], other[1])
            if call is None or not _EMPTY.fullmatch(code, empty[0], empty[1]):
                continue
            tail = _AS_SLICE.fullmatch(code, closing_paren(code, call.end()), other[1])
            if tail is None or (call["borrow"] and tail.group().strip()):
                continue  # the call is not the whole argument (nor its `.as_slice()`)
            borrow = "&" if call["borrow"] else ""
            rewrites.append((empty[0], empty[1], f"{borrow}Vec::<{types[call['name']]}>::new()"))
    text = content
    for start, stop, typed in sorted(rewrites, reverse=True):
        inner = content[start:stop]
        lead = inner[: len(inner) - len(inner.lstrip())]
        trail = inner[len(inner.rstrip()) :]
        text = text[:start] + f"{lead}{typed}{trail}" + text[stop:]
    return text


def typed_answer(
    answer: AgentAnswer, functions: Mapping[str, str]
) -> tuple[AgentAnswer, list[str]]:
    """The tester's answer with `typed_empty_vecs` applied to each Rust file it writes, and the
    paths that changed."""
    return rewritten_contents(answer, lambda path, content: (
        typed_empty_vecs(content, functions) if path.endswith(".rs") else content))  # fmt: skip
