"""Add or remove tddhooks' entries in `.pre-commit-config.yaml` by node positions (pure).

Used by `tddhooks install --pre-commit`. Every edit is an insertion at a position taken from the
YAML nodes (yaml_positions), marked so that `remove_hooks` deletes exactly what `add_hooks`
inserted: an install followed by an uninstall gives the file back byte for byte, comments, flow
style, anchors and line ends included. What tddhooks adds (docs/hooks.md):

- a `repo: local` entry with the three hooks, each with its `stages`, between marker comments;
- `default_install_hook_types` naming the three hook types (added, or extended), so
  `pre-commit install` on another clone installs them too;
- `default_stages` without commit-msg and prepare-commit-msg when those stages are new, so the
  repository's hooks that declare no `stages` keep running once per commit, not on the message.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import yaml

from tddhooks.commands import yaml_positions as yp
from tddhooks.errors import ConfigError

CONFIG_FILE = ".pre-commit-config.yaml"
HOOK_TYPES = ("pre-commit", "commit-msg", "prepare-commit-msg")
HOOK_IDS = {hook_type: f"tddhooks-{hook_type}" for hook_type in HOOK_TYPES}
MESSAGE_TYPES = ("commit-msg", "prepare-commit-msg")
# pre-commit's clientlib.STAGES (3.2+); prek accepts the same names
ALL_STAGES = ("commit-msg", "post-checkout", "post-commit", "post-merge", "post-rewrite",
              "pre-commit", "pre-merge-commit", "pre-push", "pre-rebase", "prepare-commit-msg",
              "manual")  # fmt: skip
BLOCK_START = (
    "# >>> tddhooks hooks (managed by `tddhooks install`; `tddhooks uninstall` removes them)"
)
BLOCK_END = "# <<< tddhooks hooks"
CREATED_HEADER = "# Created by `tddhooks install`; add your own hooks below."
MARK = "  # tddhooks"  # ends every line tddhooks adds outside its block
ADDED_MARK = "  # tddhooks added:"  # after an extended flow list: which items tddhooks added
INSTALL_TYPES_LINE = f"default_install_hook_types: [{', '.join(HOOK_TYPES)}]{MARK}"
REPOS_LINE = f"repos:{MARK}"
MAX_BYTES = 1_000_000
_NAMES = {
    "pre-commit": "tddhooks green gate",
    "commit-msg": "tddhooks commit message rules",
    "prepare-commit-msg": "tddhooks message template",
}


def load(text: str, path: Path) -> dict[str, Any]:
    """Parse config text; a mapping (possibly empty) or a ConfigError naming the file."""
    if len(text) > MAX_BYTES:
        raise ConfigError(f"{path}: larger than {MAX_BYTES} bytes; not a pre-commit config")
    try:
        yp.parse(text)  # bounded: refuses alias bombs and huge files before they expand
        data = yaml.safe_load(text)
    except (yaml.YAMLError, yp.YamlShapeError) as error:
        raise ConfigError(f"{path}: not valid YAML: {error}", fix=f"correct {path}") from error
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping with a `repos:` list at the top level")
    return data


def hook_entries(data: dict[str, Any]) -> list[tuple[str, str]]:
    """(repo, hook id) for every hook listed in a parsed config."""
    entries = []
    repos = data.get("repos")
    for repo in repos if isinstance(repos, list) else []:
        if isinstance(repo, dict) and isinstance(repo.get("hooks"), list):
            for hook in repo["hooks"]:
                if isinstance(hook, dict):
                    entries.append((str(repo.get("repo")), str(hook.get("id"))))
    return entries


def _hook_fields(hook_type: str) -> list[tuple[str, str]]:
    fields = [("id", HOOK_IDS[hook_type]), ("name", _NAMES[hook_type]),
              ("entry", f"tddhooks hook {hook_type}"), ("language", "system")]  # fmt: skip
    if hook_type == "pre-commit":
        fields.append(("pass_filenames", "false"))
    return [*fields, ("always_run", "true"), ("stages", f"[{hook_type}]")]


def block_lines(hook_types: list[str], indent: int) -> list[str]:
    """Our `repo: local` entry for these hook types, as block list-item lines at `indent`."""
    pad = " " * indent
    lines = [pad + BLOCK_START, f"{pad}- repo: local", f"{pad}  hooks:"]
    for hook_type in hook_types:
        for number, (key, value) in enumerate(_hook_fields(hook_type)):
            lines.append(f"{pad}    {'- ' if number == 0 else '  '}{key}: {value}")
    return [*lines, pad + BLOCK_END]


def flow_item(hook_types: list[str]) -> str:
    hooks = ", ".join(
        "{" + ", ".join(f"{k}: {v}" for k, v in _hook_fields(t)) + "}" for t in hook_types
    )
    return "{repo: local, hooks: [" + hooks + "]}"


def parse_root(text: str, path: Path) -> yp.Node | None:
    try:
        root = yp.parse(text)
    except yp.YamlShapeError as error:
        raise ConfigError(f"{path}: {error}", fix=f"correct {path}") from error
    if root is not None and root.kind != "mapping":
        raise ConfigError(f"{path}: expected a mapping with a `repos:` list at the top level")
    if root is not None and root.flow:
        raise ConfigError(
            f"{path}: the whole file is one flow mapping; tddhooks edits block mappings",
            fix="add the tddhooks hooks by hand (docs/hooks.md shows them)",
        )
    return root


def declared_install_types(text: str | None, path: Path) -> list[str] | None:
    """`default_install_hook_types` as listed (pre-commit's default when absent), None if odd."""
    root = parse_root(text, path) if text else None
    node = root.get("default_install_hook_types") if root else None
    return ["pre-commit"] if node is None else node.scalars()


def add_hooks(text: str | None, path: Path) -> str:
    """The config with our hooks added (unchanged when all three ids are already listed)."""
    if text is None:
        lines = [CREATED_HEADER, INSTALL_TYPES_LINE, "repos:", *block_lines(list(HOOK_TYPES), 2)]
        return "\n".join(lines) + "\n"
    before = load(text, path)
    if BLOCK_START in text:  # an outdated block goes
        from tddhooks.commands.precommit_removal import remove_block

        base = remove_block(text, path)
    else:
        base = text
    listed = {hook_id for _, hook_id in hook_entries(load(base, path))}
    missing = [t for t in HOOK_TYPES if HOOK_IDS[t] not in listed]
    if not missing:
        return base
    result = _add_settings(base, parse_root(base, path), path)
    root = parse_root(result, path)
    repos = root.get("repos") if root else None
    if repos is None:
        result = yp.insert_lines(result, len(result), [REPOS_LINE, *block_lines(missing, 2)])
    elif repos.kind == "sequence" and repos.flow:
        at = repos.items[-1].end if repos.items else repos.start + 1
        item = (", " if repos.items else "") + flow_item(missing)
        result = result[:at] + item + result[at:]
    elif repos.kind == "sequence":
        at, indent = yp.after_line(result, repos.end), yp.column(result, repos.start)
        result = yp.insert_lines(result, at, block_lines(missing, indent))
    elif repos.kind == "scalar" and repos.value in ("", "~", "null"):  # `repos:` with no list
        key = root.key_node("repos") if root else None
        assert key is not None
        result = yp.insert_lines(result, yp.line_end(result, key.start), block_lines(missing, 2))
    else:
        raise ConfigError(f"{path}: `repos:` is not a list", fix=f"correct {path}")
    check_kept(before, result, path)
    return result


def _add_settings(text: str, root: yp.Node | None, path: Path) -> str:
    """default_install_hook_types (added or extended) and default_stages, when needed."""
    declared = declared_install_types(text, path) or list(HOOK_TYPES)
    new_stages = [t for t in MESSAGE_TYPES if t not in declared]
    lines: list[str] = []
    types_node = root.get("default_install_hook_types") if root else None
    if types_node is None:
        lines.append(INSTALL_TYPES_LINE)
    elif types_node.scalars() is not None:
        text = _extend_list(text, types_node, [t for t in HOOK_TYPES if t not in declared])
    if new_stages and (root is None or root.get("default_stages") is None):
        stages = ", ".join(s for s in ALL_STAGES if s not in new_stages)
        lines.append(f"default_stages: [{stages}]{MARK}")
    if not lines:
        return text
    root = parse_root(text, path)  # positions after the list was extended
    repos_key = root.key_node("repos") if root else None
    at = yp.line_start(text, repos_key.start) if repos_key else len(text)
    return yp.insert_lines(text, at, lines)


def _extend_list(text: str, node: yp.Node, missing: list[str]) -> str:
    """Append `missing` items to a list of scalars, marked; unchanged when it cannot be marked."""
    if not missing:
        return text
    if not node.flow:
        indent = " " * yp.column(text, node.start)
        return yp.insert_lines(text, yp.after_line(text, node.end),
                         [f"{indent}- {item}{MARK}" for item in missing])  # fmt: skip
    rest = text[node.end : yp.line_end(text, node.end)].strip()
    if rest and not rest.startswith("#"):
        return text  # something follows the list on its line: a comment cannot be added
    at = node.items[-1].end if node.items else node.start + 1
    added = (", " if node.items else "") + ", ".join(missing)
    text = text[:at] + added + text[at:]
    end = node.end + len(added)  # just after the closing bracket
    return text[:end] + f"{ADDED_MARK} {' '.join(missing)}" + text[end:]


def notes(text: str, path: Path) -> list[str]:
    """What the person should know about their config after `add_hooks` (nothing was forced)."""
    root = parse_root(text, path)
    found: list[str] = []
    declared = declared_install_types(text, path)
    if declared is None or not set(HOOK_TYPES) <= set(declared):
        found.append(
            f"{path.name}: default_install_hook_types does not list {', '.join(HOOK_TYPES)} and "
            "tddhooks could not extend it; add them, or other clones' `pre-commit install` "
            "leaves out tddhooks' message hooks"
        )
    stages = root.get("default_stages") if root else None
    values = stages.scalars() if stages else []
    ours = stages is not None and text[: yp.line_end(text, stages.end)].rstrip().endswith(MARK)
    if not ours and (values is None or any(t in values for t in MESSAGE_TYPES)):
        found.append(
            f"{path.name}: default_stages names commit-msg or prepare-commit-msg (or is not a "
            "plain list), so your hooks without `stages` also run on the commit message"
        )
    return found


def check_kept(before: dict[str, Any], text: str | None, path: Path) -> None:
    """Every hook of someone else listed before is still listed (in the same order)."""
    ours = set(HOOK_IDS.values())
    after = load(text, path) if text is not None else {}
    theirs_before = [e for e in hook_entries(before) if not (e[0] == "local" and e[1] in ours)]
    theirs_after = [e for e in hook_entries(after) if not (e[0] == "local" and e[1] in ours)]
    if theirs_before != theirs_after:
        raise ConfigError(
            f"{path}: editing it would lose or reorder other hooks; left unchanged",
            fix="add or remove the tddhooks `repo: local` hooks by hand (docs/hooks.md)",
        )


def has_our_hooks(text: str | None) -> bool:
    """True when the text carries anything `add_hooks` writes."""
    return text is not None and (BLOCK_START in text or MARK in text)


def file_has_our_hooks(path: Path) -> bool:
    """`has_our_hooks` for a file that may be anything (missing, a link, binary, huge)."""
    if path.is_symlink() or not path.is_file():
        return False
    try:
        with open(path, "rb") as stream:
            data = stream.read(MAX_BYTES + 1)
    except OSError:
        return False
    return len(data) <= MAX_BYTES and has_our_hooks(data.decode("utf-8", errors="replace"))


def remove_hooks(text: str, path: Path) -> str | None:
    """The config without what `add_hooks` added; None when tddhooks created the file and
    nothing else is left in it (the caller deletes it). See precommit_removal.py."""
    from tddhooks.commands.precommit_removal import remove_hooks as remove

    return remove(text, path)


def read_text(path: Path) -> str | None:
    """The config text exactly as stored (CRLF kept), or None when there is no file."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise ConfigError(f"{path}: cannot read: {error}") from error
    if len(data) > MAX_BYTES:
        raise ConfigError(f"{path}: larger than {MAX_BYTES} bytes; not a pre-commit config")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ConfigError(f"{path}: not UTF-8: {error}") from error


def write_atomically(path: Path, text: str) -> None:
    """Replace `path` with `text` in one step, so an interruption never leaves half a file."""
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        os.chmod(temp, (path.stat().st_mode & 0o777) if path.exists() else 0o644)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
