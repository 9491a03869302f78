"""Add or remove the tddhooks block in `.pre-commit-config.yaml`, editing the text (pure).

Comments and every other hook survive because only our lines change; each result is parsed with
PyYAML and compared with the original before the caller writes it.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

from tddhooks.errors import ConfigError

CONFIG_FILE = ".pre-commit-config.yaml"
HOOK_TYPES = ("pre-commit", "commit-msg", "prepare-commit-msg")
HOOK_IDS = {hook_type: f"tddhooks-{hook_type}" for hook_type in HOOK_TYPES}
BLOCK_START = (
    "# >>> tddhooks hooks (managed by `tddhooks install`; `tddhooks uninstall` removes them)"
)
BLOCK_END = "# <<< tddhooks hooks"
CREATED_HEADER = "# Created by `tddhooks install`; add your own hooks below."
INSTALL_TYPES_LINE = (
    "default_install_hook_types: [pre-commit, commit-msg, prepare-commit-msg]  # tddhooks"
)
_NAMES = {
    "pre-commit": "tddhooks green gate",
    "commit-msg": "tddhooks commit message rules",
    "prepare-commit-msg": "tddhooks message template",
}
_REPOS_BLOCK = re.compile(r"^repos:\s*(#.*)?$")
_REPOS_EMPTY_FLOW = re.compile(r"^repos:\s*\[\s*\]\s*(#.*)?$")
_REPOS_ANY = re.compile(r"^repos\s*:")
_OUR_KEYS = ("default_install_hook_types",)


def load(text: str, path: Path) -> dict[str, Any]:
    """Parse config text; a mapping (possibly empty) or a ConfigError naming the file."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise ConfigError(f"{path}: not valid YAML: {error}", fix=f"correct {path}") from error
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping with a `repos:` list at the top level")
    return data


def hook_entries(data: dict[str, Any]) -> list[tuple[str, str]]:
    """(repo, hook id) for every hook listed in a parsed config."""
    entries = []
    for repo in data.get("repos") or []:
        if isinstance(repo, dict):
            for hook in repo.get("hooks") or []:
                if isinstance(hook, dict):
                    entries.append((str(repo.get("repo")), str(hook.get("id"))))
    return entries


def block_lines(hook_types: list[str], indent: int) -> list[str]:
    """Our `repo: local` entry for these hook types, as list-item lines at `indent`."""
    pad = " " * indent
    lines = [pad + BLOCK_START, f"{pad}- repo: local", f"{pad}  hooks:"]
    for hook_type in hook_types:
        lines += [
            f"{pad}    - id: {HOOK_IDS[hook_type]}",
            f"{pad}      name: {_NAMES[hook_type]}",
            f"{pad}      entry: tddhooks hook {hook_type}",
            f"{pad}      language: system",
        ]
        if hook_type == "pre-commit":
            lines.append(f"{pad}      pass_filenames: false")
        lines += [f"{pad}      always_run: true", f"{pad}      stages: [{hook_type}]"]
    return [*lines, pad + BLOCK_END]


def _newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def _strip_block(lines: list[str]) -> list[str]:
    """Lines without our marked block (markers included) and without our install-types line."""
    kept: list[str] = []
    inside = False
    for line in lines:
        if line.strip() == BLOCK_START:
            inside = True
        elif inside and line.strip() == BLOCK_END:
            inside = False
        elif not inside and line.strip() != INSTALL_TYPES_LINE:
            kept.append(line)
    return kept


def _section_end(lines: list[str], start: int) -> int:
    """Index after the last line of the top-level `repos:` section starting at `start`."""
    end = start + 1
    while end < len(lines):
        line = lines[end]
        if line and not line[0].isspace() and line[0] not in "#-":
            break
        end += 1
    # top-level comments just before the next key belong to that key
    while end > start + 1 and (not lines[end - 1].strip() or lines[end - 1].startswith("#")):
        end -= 1
    return end


def _item_indent(lines: list[str], start: int, end: int) -> int:
    for line in lines[start + 1 : end]:
        stripped = line.lstrip(" ")
        if stripped.startswith("- ") or stripped == "-":
            return len(line) - len(stripped)
    return 2


def _insert_block(lines: list[str], missing: list[str], path: Path) -> list[str]:
    for index, line in enumerate(lines):
        flow = _REPOS_EMPTY_FLOW.match(line)
        if flow:
            repos = "repos:" + (f"  {flow.group(1)}" if flow.group(1) else "")
            return [*lines[:index], repos, *block_lines(missing, 2), *lines[index + 1 :]]
        if _REPOS_BLOCK.match(line):
            end = _section_end(lines, index)
            indent = _item_indent(lines, index, end)
            return [*lines[:end], *block_lines(missing, indent), *lines[end:]]
        if _REPOS_ANY.match(line):
            raise ConfigError(
                f"{path}: `repos:` is written as a flow list; tddhooks only edits block lists",
                fix="write `repos:` as a block list (one `- repo:` per line), then run "
                "`tddhooks install` again",
            )
    return [*lines, "repos:", *block_lines(missing, 2)]


def _check_kept(before: dict[str, Any], after: dict[str, Any], path: Path) -> None:
    """Every hook and top-level setting of `before` must still be in `after`."""
    ours = set(HOOK_IDS.values())
    old = Counter(e for e in hook_entries(before) if not (e[0] == "local" and e[1] in ours))
    new = Counter(hook_entries(after))
    others_before = {k: v for k, v in before.items() if k not in ("repos", *_OUR_KEYS)}
    others_after = {k: v for k, v in after.items() if k not in ("repos", *_OUR_KEYS)}
    if old - new or others_before != others_after:
        raise ConfigError(
            f"{path}: editing it as text would lose other settings or hooks; left unchanged",
            fix="add or remove the tddhooks `repo: local` hooks by hand (see `tddhooks install "
            "--help` and docs/commands.md)",
        )


def add_hooks(text: str | None, path: Path) -> str:
    """The config with our hooks added (unchanged when all three ids are already listed)."""
    if text is None:
        lines = [CREATED_HEADER, INSTALL_TYPES_LINE, "repos:", *block_lines(list(HOOK_TYPES), 2)]
        return "\n".join(lines) + "\n"
    before = load(text, path)
    newline = _newline(text)
    lines = text.splitlines()
    base = _strip_block(lines)
    base_data = load(newline.join(base) + newline, path)
    listed = {hook_id for _, hook_id in hook_entries(base_data)}
    missing = [t for t in HOOK_TYPES if HOOK_IDS[t] not in listed]
    new_lines = _insert_block(base, missing, path) if missing else base
    if missing and "default_install_hook_types" not in base_data:
        at = next((i for i, ln in enumerate(new_lines) if _REPOS_ANY.match(ln)), len(new_lines))
        new_lines.insert(at, INSTALL_TYPES_LINE)
    result = newline.join(new_lines) + newline
    after = load(result, path)
    if after == before:
        return text  # already installed (maybe after other hooks were added): leave it be
    _check_kept(before, after, path)
    if not set(HOOK_IDS.values()) <= {hook_id for _, hook_id in hook_entries(after)}:
        raise ConfigError(f"{path}: could not add the tddhooks hooks", fix="add them by hand")
    return result


def remove_hooks(text: str, path: Path) -> str | None:
    """The config without our block; None when tddhooks created the file and nothing else is
    left in it (the caller deletes it)."""
    lines = text.splitlines()
    base = _strip_block(lines)
    if base == lines:
        return text
    newline = _newline(text)
    result = newline.join(base) + newline
    after = load(result, path)
    _check_kept(load(text, path), after, path)
    leftover = {k: v for k, v in after.items() if k != "repos"}
    if not hook_entries(after) and not leftover and CREATED_HEADER in base:
        return None
    if after.get("repos") is None and "repos" in after:
        # pre-commit rejects `repos: null`; keep the file valid
        base = [_empty_repos(line) for line in base]
        result = newline.join(base) + newline
    return result


def _empty_repos(line: str) -> str:
    match = _REPOS_BLOCK.match(line)
    if not match:
        return line
    return "repos: []" + (f"  {match.group(1)}" if match.group(1) else "")


def read_text(path: Path) -> str | None:
    """The config text exactly as stored (CRLF kept), or None when there is no file."""
    try:
        return path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot read: {error}") from error


def write_atomically(path: Path, text: str) -> None:
    """Replace `path` with `text` in one step, so an interruption never leaves half a file."""
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        if path.exists():
            os.chmod(temp, path.stat().st_mode & 0o777)
        else:
            os.chmod(temp, 0o644)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
