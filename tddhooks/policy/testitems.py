"""One source file split into its test items and its code items, as text (pure).

A source file that holds tests beside code (a Rust `#[cfg(test)]` module or `#[test]` functions;
Python test functions in a module pytest collects) is one file to git but two things to the
policy. The agents' sandbox asks `split` whether an edit kept the code (tester) or the tests
(implementor, refactorer) as they were, and the handoff records `items_token` of the test items
handed over, so the implementor may change the code beside them but not them. Lines are compared
without trailing blanks and without blank lines; the item spans come from policy/items.py.
"""

from __future__ import annotations

from collections.abc import Mapping

ITEMS_PREFIX = "items:"


def split(language: str, path: str, text: str, files: Mapping[str, str]) -> tuple[str, str]:
    """(the test items' lines, the code items' lines) of `text`, the content of `path`; `files`
    is the tree's source and test-configuration files (which modules are test-only, which modules
    pytest collects). A file that is a test as a whole has no code lines."""
    from tddhooks.policy.items import source_spans

    spans = source_spans(language, files)(path, text)
    tests: list[str] = []
    code: list[str] = []
    for number, row in enumerate(text.split("\n"), start=1):
        if not row.strip():
            continue
        inside = spans is None or any(first <= number <= last for first, last in spans)
        (tests if inside else code).append(row.rstrip())
    return "\n".join(tests), "\n".join(code)


def has_test_items(language: str, path: str, text: str, files: Mapping[str, str]) -> bool:
    return bool(split(language, path, text, files)[0])


def items_token(language: str, path: str, text: str, files: Mapping[str, str]) -> str:
    """`items:<sha256 of the test items>`: what a handoff records for a source file whose tests
    were handed over (a test file as a whole is recorded by its blob id instead)."""
    import hashlib  # not at the top: OpenSSL's load costs the hooks ~3 ms, and few need a digest

    tests = split(language, path, text, files)[0]
    return ITEMS_PREFIX + hashlib.sha256(tests.encode("utf-8")).hexdigest()
