"""YAML nodes with exact character spans, for editing a file in place (pure).

Built from PyYAML's event stream (as pre-commit's own `yaml_rewrite` uses node marks): scalars,
aliases and flow collections end exactly where their text ends, so an edit can insert after the
last character of a value and leave every comment, anchor and blank line of the file as it was.
Aliases stay leaves (never expanded), so an alias bomb costs what its text costs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import yaml
from yaml import events

MAX_EVENTS = 200_000


class YamlShapeError(ValueError):
    """The text is not YAML this module can edit (message says why)."""


@dataclass
class Node:
    """One YAML node: kind "scalar" | "alias" | "mapping" | "sequence"."""

    kind: str
    start: int  # index of the node's first character ('[', '{', '-' of a block item, ...)
    end: int  # index just after its last character (not after trailing comments or breaks)
    flow: bool = False
    value: str | None = None  # scalars only
    items: list[Node] = field(default_factory=list)  # sequence items
    pairs: list[tuple[Node, Node]] = field(default_factory=list)  # mapping (key, value)

    def get(self, key: str) -> Node | None:
        return next((v for k, v in self.pairs if k.kind == "scalar" and k.value == key), None)

    def key_node(self, key: str) -> Node | None:
        return next((k for k, _ in self.pairs if k.kind == "scalar" and k.value == key), None)

    def scalars(self) -> list[str] | None:
        """The values of a sequence of plain scalars, else None."""
        if self.kind != "sequence" or any(item.kind != "scalar" for item in self.items):
            return None
        return [str(item.value) for item in self.items]


def parse(text: str) -> Node | None:
    """The document's root node (None for an empty document); YamlShapeError when unusable."""
    try:
        stream = list(_limited(yaml.parse(text, Loader=yaml.SafeLoader)))
    except yaml.YAMLError as error:
        raise YamlShapeError(f"not valid YAML: {error}") from error
    starts = [i for i, event in enumerate(stream) if isinstance(event, events.DocumentStartEvent)]
    if len(starts) > 1:
        raise YamlShapeError("holds more than one YAML document")
    body = [e for e in stream if not isinstance(e, events.StreamStartEvent | events.StreamEndEvent
                                                | events.DocumentStartEvent
                                                | events.DocumentEndEvent)]  # fmt: skip
    if not body:
        return None
    node, _ = _build(body, 0)
    return node


def _limited(stream: object) -> list[events.Event]:
    collected: list[events.Event] = []
    for event in stream:  # type: ignore[attr-defined]
        collected.append(event)
        if len(collected) > MAX_EVENTS:
            raise YamlShapeError(f"is too large to edit (over {MAX_EVENTS} YAML events)")
    return collected


def _build(stream: list[events.Event], at: int) -> tuple[Node, int]:
    event = stream[at]
    start, end = _index(event.start_mark), _index(event.end_mark)
    if isinstance(event, events.ScalarEvent):
        return Node("scalar", start, end, value=event.value), at + 1
    if isinstance(event, events.AliasEvent):
        return Node("alias", start, end), at + 1
    if isinstance(event, events.SequenceStartEvent):
        node = Node("sequence", start, end, flow=bool(event.flow_style))
        at += 1
        while not isinstance(stream[at], events.SequenceEndEvent):
            item, at = _build(stream, at)
            node.items.append(item)
        node.end = _index(stream[at].end_mark) if node.flow else _content_end(node)
        return node, at + 1
    if isinstance(event, events.MappingStartEvent):
        node = Node("mapping", start, end, flow=bool(event.flow_style))
        at += 1
        while not isinstance(stream[at], events.MappingEndEvent):
            key, at = _build(stream, at)
            value, at = _build(stream, at)
            node.pairs.append((key, value))
        node.end = _index(stream[at].end_mark) if node.flow else _content_end(node)
        return node, at + 1
    raise YamlShapeError(f"unexpected YAML event {type(event).__name__}")


def _index(mark: object) -> int:
    index = getattr(mark, "index", None)
    if not isinstance(index, int):
        raise YamlShapeError("has no positions (PyYAML gave an event without a mark)")
    return index


def _content_end(node: Node) -> int:
    """Block collections: PyYAML's end mark lies at the next token; use the last child's end."""
    if node.items:
        return max(node.start, node.items[-1].end)
    if node.pairs:
        key, value = node.pairs[-1]
        return max(node.start, key.end, value.end)
    return node.start


def line_start(text: str, index: int) -> int:
    return text.rfind("\n", 0, index) + 1


def line_end(text: str, index: int) -> int:
    """Index just after the line break ending the line that holds `index` (or len(text))."""
    found = text.find("\n", index)
    return len(text) if found < 0 else found + 1


def column(text: str, index: int) -> int:
    return index - line_start(text, index)


def newline_of(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def after_line(text: str, index: int) -> int:
    """Where the next line starts after the text at `index` (block scalars end with a break)."""
    return index if index > 0 and text[index - 1] == "\n" else line_end(text, index)


def insert_lines(text: str, at: int, lines: list[str]) -> str:
    """`lines` inserted at line start `at`; at the end of a file without a final line break,
    the break goes first and none follows, so removing the lines restores the file exactly."""
    newline = newline_of(text)
    if at == len(text) and text and not text.endswith("\n"):
        return text + newline + newline.join(lines)
    return text[:at] + "".join(line + newline for line in lines) + text[at:]


def delete_lines(text: str, start: int, end: int) -> str:
    """Delete whole lines [start, end); the reverse of `insert_lines`."""
    if end == len(text) and not text.endswith("\n") and start > 0:
        start -= 2 if text[start - 2 : start] == "\r\n" else 1
    return text[:start] + text[end:]
