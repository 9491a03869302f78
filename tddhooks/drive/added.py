"""Check `function-added` (core, docs/checks.md): a refactor that adds a function the
kata's Interface names and HEAD lacks is refused (docs/kata-checks.md, "A refactor that adds the
kata's function"). A refactor keeps behaviour, and a function HEAD does not have has none to
keep: new behaviour is a `feat:` with the test that asks for it."""

from __future__ import annotations

import re
from collections.abc import Mapping

from tddhooks.drive.interface import interface_functions

_DEFINED = {"rust": r"\bfn\s+{name}\b", "python": r"^[ \t]*(?:async\s+)?def\s+{name}\b"}


def _defines(texts: Mapping[str, str], name: str, language: str) -> bool:
    pattern = re.compile(_DEFINED[language].format(name=re.escape(name)), re.MULTILINE)
    return any(pattern.search(text) for text in texts.values())


def added_function(
    kata: str, language: str, before: Mapping[str, str], after: Mapping[str, str]
) -> str | None:
    """Why the refactor, whose code files are `after` (path -> text, the ones it wrote), adds a
    function the kata's Interface section names that none of HEAD's code files (`before`)
    defines; None when it adds none."""
    if language not in _DEFINED:
        return None
    for name in interface_functions(kata, language):
        if _defines(after, name, language) and not _defines(before, name, language):
            return (
                f"the refactor adds `{name}`, which HEAD does not have: a refactor keeps "
                "behaviour, and a function the kata's tests call comes in a feat: commit with "
                "the test that calls it. Undo that change: leave the code as HEAD has it, or "
                "answer with no edits"
            )
    return None
