"""The build's real inputs beyond file names (pure): what a symlink points at, and what a Rust
file pulls in with `include!`, `include_str!`, `include_bytes!` or `#[path = "…"]`.

A file reached that way is built as the file that reaches it, so the type rules judge it as that
file too: `docs/lib.md` behind a `src/lib.rs` symlink, or named by `include!("../docs/lib.md")`
in `src/lib.rs`, is source code; a symlink whose target is code or a test is code or a test
(docs/policy.md, "What a file is: its name, and what the build makes of it").
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache

SYMLINK_MODE = "120000"
# the literal file argument of the include macros (raw strings too), anywhere in the text: a
# mention inside a comment only makes the judgement stricter
# (pattern texts: re compiles them on first use, and only a text that names files uses them)
_RUST_INCLUDE = (
    r"\binclude(?:_str|_bytes)?\s*!\s*[(\[{]\s*r?(?P<hashes>#*)\"(?P<path>[^\"]+)\"(?P=hashes)"
)
_RUST_PATH = r"#\s*\[\s*path\s*=\s*r?(?P<hashes>#*)\"(?P<path>[^\"]+)\"(?P=hashes)"
_MAX_DEPTH = 4  # a symlink to an included file to a symlink …: deeper chains are not a real case

# a text that contains none of these cannot name a file the build reads (the pre-check of
# tree_stand_ins): the include macros and #[path] in Rust; a manifest's `path` and `build` keys,
# or a key spelt with an escape (TOML allows "p\u0061th" = "…" as a quoted key, and cargo reads it)
_SOURCE_WORDS = ("include", "path")
_MANIFEST_WORDS = ("include", "path", "build", "\\")

StandIns = dict[str, set[str]]
Tree = dict[str, tuple[str, str]]  # path -> (mode, blob id)


def resolve(directory: str, target: str) -> str | None:
    """`target` relative to `directory` (both repository-relative, '/'-separated), normalised;
    None when it is absolute or leaves the repository."""
    if not target or target.startswith("/"):
        return None
    path = posixpath.normpath(posixpath.join(directory, target))
    if path in (".", "..") or path.startswith("../"):
        return None
    return path


def rust_references(text: str) -> list[str]:
    """The literal paths a Rust file includes or names as a module file, as written."""
    includes, modules = _named_paths(text)
    return [*includes, *modules]


@lru_cache(maxsize=4096)
def _named_paths(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(include macro paths, `#[path]` paths) of a Rust text: a pure function of the text, so
    read once per process (an audit meets the same files in every commit's tree)."""
    includes = tuple(match["path"] for match in re.finditer(_RUST_INCLUDE, text))
    return includes, tuple(match["path"] for match in re.finditer(_RUST_PATH, text))


# what a manifest's target is built as: a name the type rules classify as that kind of file
_CARGO_TARGETS = (
    ("lib", "src/lib.rs"), ("bin", "src/main.rs"), ("example", "src/main.rs"),
    ("bench", "src/main.rs"), ("test", "tests/{name}"),
)  # fmt: skip


def cargo_targets(manifest: str, text: str) -> list[tuple[str, str]]:
    """(file, what it is built as) for the paths a Cargo.toml names: `package.build` (a build
    script, source code like build.rs), `[lib] path`, `[[bin]]`/`[[example]]`/`[[bench]]`/
    `[[test]]` paths; resolved from the manifest's folder."""
    import tomllib  # not at the top: ~8 ms (with typing) the hooks pay only for such a manifest

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return []
    folder = posixpath.dirname(manifest)
    named: list[tuple[object, str]] = []
    package = data.get("package")
    if isinstance(package, dict):
        named.append((package.get("build"), "build.rs"))
    for key, built in _CARGO_TARGETS:
        entries = data.get(key)
        for entry in entries if isinstance(entries, list) else [entries]:
            if isinstance(entry, dict):
                named.append((entry.get("path"), built))
    found = []
    for written, built in named:
        resolved = resolve(folder, written) if isinstance(written, str) else None
        if resolved is not None:
            found.append((resolved, built.format(name=posixpath.basename(resolved))))
    return found


def _nested_dirs(paths: list[str], folder: str) -> list[str]:
    """folder and every folder of the tree below it (where an inline `mod a { … }` looks)."""
    prefix = f"{folder}/" if folder else ""
    below = {posixpath.dirname(path) for path in paths if path.startswith(prefix)}
    return sorted({folder} | {d for d in below if d.startswith(prefix)})


def stand_ins(
    paths: Iterable[str],
    symlinks: Mapping[str, str],
    sources: Mapping[str, str],
    *,
    rust: bool,
    manifests: Mapping[str, str] | None = None,
) -> StandIns:
    """path -> the paths it is built as, for one tree: `paths` are every file of the tree,
    `symlinks` symlink path -> target as stored, `sources` the Rust files' texts (read when
    `rust`), `manifests` the Cargo.toml texts. Both directions of a symlink count: its target is
    built as the link's path, and the link is whatever its target is."""
    found: StandIns = {}
    listed = sorted(paths)
    for link, target in symlinks.items():
        resolved = resolve(posixpath.dirname(link), target.strip("\n"))
        if resolved is None or resolved == link:
            continue
        found.setdefault(resolved, set()).add(link)
        found.setdefault(link, set()).add(resolved)
        prefix = resolved + "/"
        for path in listed:  # a symlinked folder: everything under it
            if path.startswith(prefix):
                found.setdefault(path, set()).add(link + path[len(resolved) :])
    if rust:
        for source, text in sources.items():
            folder = posixpath.dirname(source)
            for written in rust_references(text):
                resolved = resolve(folder, written)
                if resolved is not None and resolved != source:
                    found.setdefault(resolved, set()).add(source)
            for module_path in _named_paths(text)[1]:
                # inside an inline `mod a { #[path = …] mod b; }` the path is taken from the
                # folder a/: every folder below counts, since which one is not read here
                for below in _nested_dirs(listed, folder):
                    resolved = resolve(below, module_path)
                    if resolved is not None and resolved != source and resolved in listed:
                        found.setdefault(resolved, set()).add(source)
        for manifest, text in (manifests or {}).items():
            for path, built in cargo_targets(manifest, text):
                found.setdefault(path, set()).add(built)
    return _closed(found)


def _closed(found: StandIns) -> StandIns:
    """Follow chains a few levels (an included file that is itself a symlink target …)."""
    for _ in range(_MAX_DEPTH):
        grown = False
        for path, names in found.items():
            more = set().union(*(found.get(name, set()) for name in names)) - names - {path}
            if more:
                names |= more
                grown = True
        if not grown:
            break
    return found


def merged(*maps: StandIns) -> dict[str, frozenset[str]]:
    """One map from several trees' (the parent's and the commit's)."""
    result: StandIns = {}
    for found in maps:
        for path, names in found.items():
            result.setdefault(path, set()).update(names)
    return {path: frozenset(names) for path, names in result.items()}


def tree_stand_ins(
    tree: Tree,
    code: dict[str, str],
    texts: dict[str, str],
    read: Callable[[list[str]], dict[str, str]],
    *,
    rust: bool,
) -> StandIns:
    """What each file of the tree is built as; `read` gives blob texts (added to `texts`), for
    the manifests and for the files code names, which may name further files in turn."""
    links = {
        path: texts.get(blob, "") for path, (mode, blob) in tree.items() if mode == SYMLINK_MODE
    }
    sources = {
        path: texts.get(blob, "")
        for path, blob in code.items()
        if path.endswith(".rs") and path not in links
    }
    manifests: dict[str, str] = {}
    if rust:
        blobs = {p: b for p, (m, b) in tree.items() if p.rsplit("/", 1)[-1] == "Cargo.toml"}
        texts.update(read(sorted(set(blobs.values()) - set(texts))))
        manifests = {path: texts.get(blob, "") for path, blob in blobs.items()}
    if not links and not may_name_files(sources.values(), manifests.values()):
        return {}
    built: StandIns = {}
    for _ in range(_MAX_DEPTH):
        built = stand_ins(tree, links, sources, rust=rust, manifests=manifests)
        texts.update(read(texts_wanted(texts, (tree, built))))
        more = {
            path: texts.get(tree[path][1], "")
            for path in built
            if path in tree and tree[path][0] != SYMLINK_MODE and path not in sources
        }
        if not rust or not more:
            break
        sources.update(more)  # an included file may include or name another one
    return built


def may_name_files(sources: Iterable[str], manifests: Iterable[str]) -> bool:
    """Whether any Rust source or manifest text may name a file the build reads (a cheap
    textual pre-check: False means stand_ins would find nothing)."""
    return any(word in text for text in sources for word in _SOURCE_WORDS) or any(
        word in text for text in manifests for word in _MANIFEST_WORDS
    )


def texts_wanted(texts: Mapping[str, str], *trees: tuple[Tree, StandIns]) -> list[str]:
    """Blob ids of the files code is built from though their names say otherwise, not read yet."""
    return sorted(
        {
            tree[path][1]
            for tree, built in trees
            for path in built
            if path in tree and tree[path][0] != SYMLINK_MODE and tree[path][1] not in texts
        }
    )


def as_built(
    tree: Tree, code: dict[str, str], built: StandIns, texts: Mapping[str, str]
) -> dict[str, str]:
    """path -> text of the code files as the compiler reads them: a symlink as its target's
    text; a Rust file with the files it includes (or names by #[path]) appended, so the tests
    in them count by name."""
    if not built:
        return {path: texts.get(blob, "") for path, blob in code.items()}
    into: dict[str, list[str]] = {}
    for path, names in built.items():
        entry = tree.get(path)
        if entry is None or entry[0] == SYMLINK_MODE:
            continue
        for name in names:
            into.setdefault(name, []).append(texts.get(entry[1], ""))
    files: dict[str, str] = {}
    for path, blob in code.items():
        mode = tree.get(path, ("", ""))[0]
        own = "" if mode == SYMLINK_MODE else texts.get(blob, "")
        files[path] = "\n".join([own, *into.get(path, [])]) if path in into else own
    return files
