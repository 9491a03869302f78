"""A kata's name, read from its Markdown text."""

from __future__ import annotations

import re


def kata_title(text: str, fallback: str) -> str:
    """The kata's name from its first Markdown heading, without a leading/trailing 'kata'."""
    for line in text.splitlines():
        if line.startswith("# "):
            title = line[2:].strip().strip("#").strip()
            title = re.sub(r"^kata\s*[:\-–—]\s*", "", title, flags=re.IGNORECASE)
            title = re.sub(r"\s+kata$", "", title, flags=re.IGNORECASE)
            if title:
                return title
    return fallback
