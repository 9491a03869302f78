"""Which pytest plugins only tddhooks' own requirements brought (runners/python_plugins.py): pure
logic on made-up metadata, and the answer for the interpreter this suite runs under."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tddhooks.policy.dependencies import declared_distributions
from tddhooks.runners.python_pins import pinned
from tddhooks.runners.python_plugins import (
    brought,
    brought_plugins,
    canonical,
    requirement_closure,
)

METADATA = {
    "tool": ["Web-Client>=1", "rich>=13", "pytest>=8; extra == 'dev'", "Plug_In ; extra=='x'"],
    "web-client": ["anyio>=3; python_version >= '3.8'", "tool"],  # a cycle back to the root
    "anyio": ["idna>=2.8", "sniffio>=1.1"],
    "rich": [],
    "idna": None,  # required, not installed
}


def test_the_closure_follows_requirements_and_markers_but_never_an_extra() -> None:
    closure = requirement_closure(["Tool"], METADATA.get)

    assert closure == {"tool", "web-client", "anyio", "rich", "idna", "sniffio"}
    assert "pytest" not in closure  # only under the dev extra
    assert "plug-in" not in closure


def test_a_plugin_of_the_closure_is_brought_unless_the_tree_declares_its_distribution() -> None:
    plugins = [("anyio", "anyio"), ("mock", "pytest-mock"), ("rich_plug", "Rich")]
    closure = requirement_closure(["tool"], METADATA.get)

    assert brought(plugins, closure, set()) == ("anyio", "rich_plug")
    assert brought(plugins, closure, {canonical("AnyIO")}) == ("rich_plug",)


def test_names_compare_as_pep_503_says() -> None:
    assert canonical("Typing_Extensions") == canonical("typing.extensions") == "typing-extensions"


def test_metadata_is_read_from_wheels_and_eggs_on_the_path(tmp_path: Path) -> None:
    site = tmp_path / "site"
    _dist(
        site / "tool-1.0.dist-info",
        METADATA="Name: tool\nRequires-Dist: web_client>=1\n"
        "Requires-Dist: pytest-cov; extra == 'dev'\n\nRequires-Dist: in the description\n",
    )
    _dist(
        site / "Web_Client-2.0.dist-info",
        METADATA="Name: Web-Client\n",
        entry_points_txt="[console_scripts]\nweb = web:main\n\n[pytest11]\nweb_plug = web.plug\n",
    )
    _dist(
        site / "pytest_cov-5.dist-info",
        METADATA="Name: pytest-cov\n",
        entry_points_txt="[pytest11]\npytest_cov = pytest_cov.plugin\n",
    )
    _dist(
        site / "old_lib-0.1-py3.11.egg-info",
        requires_txt="async_thing\n[dev]\nother\n",
        entry_points_txt="[pytest11]\nold = old_lib.plug\n",
    )
    _dist(
        site / "async_thing-1.dist-info",
        METADATA="Name: async-thing\n",
        entry_points_txt="[pytest11]\nasyncy = async_thing.plug\n",
    )
    path = [str(site), str(tmp_path / "gone"), str(tmp_path / "python311.zip")]

    assert brought_plugins(set(), "tool", path) == ("web_plug",)
    assert brought_plugins({"web-client"}, "tool", path) == ()
    assert brought_plugins(set(), "old-lib", path) == ("asyncy", "old")


def _dist(folder: Path, **files: str) -> None:
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name.replace("_txt", ".txt")).write_text(text, encoding="utf-8")


def test_in_this_environment_anyio_is_brought_and_the_dev_plugins_are_not() -> None:
    # anyio comes with openai, a requirement of tddhooks; pytest-mock and pytest-xdist only with
    # the dev extra, which does not count: a person installs those for their own tests
    found = brought_plugins(set())

    assert "anyio" in found
    assert "pytest_mock" not in found
    assert "xdist" not in found
    assert "anyio" not in brought_plugins({"anyio"})


def test_metadata_in_the_judged_tree_never_chooses_what_is_turned_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a tree on sys.path (PYTHONPATH, the current folder) that ships a fake requirement of
    # tddhooks would bring pytest-mock into the closure and turn its plugin off
    tree = tmp_path / "kata"
    _dist(tree / "rich-99.dist-info", METADATA="Name: rich\nRequires-Dist: pytest-mock\n")
    assert "pytest_mock" in brought_plugins(set(), path=[str(tree), *sys.path])
    monkeypatch.setattr(sys, "path", [str(tree), "", *sys.path])

    run = pinned((sys.executable, "-m", "pytest"), tree, tree)

    assert "no:pytest_mock" not in run
    assert "no:anyio" in run


def test_a_plugin_the_declared_distributions_require_stays_on(tmp_path: Path) -> None:
    # a kata declaring an HTTP client that requires anyio relies on anyio's plugin for its async
    # tests as much as one declaring anyio itself; tddhooks requiring the client too changes nothing
    site = tmp_path / "site"
    _dist(site / "tool-1.dist-info", METADATA="Name: tool\nRequires-Dist: web-client\n")
    _dist(site / "web_client-2.dist-info", METADATA="Name: web-client\nRequires-Dist: anyio\n")
    _dist(
        site / "anyio-4.dist-info",
        METADATA="Name: anyio\nRequires-Dist: sniffio\n",
        entry_points_txt="[pytest11]\nanyio = anyio.pytest_plugin\n",
    )
    path = [str(site)]

    assert brought_plugins(set(), "tool", path) == ("anyio",)
    assert brought_plugins({"web-client"}, "tool", path) == ()
    assert brought_plugins({"sniffio", "not-installed"}, "tool", path) == ("anyio",)


def test_in_this_environment_declaring_a_requirer_of_anyio_keeps_its_plugin() -> None:
    # openai (a requirement of tddhooks) requires anyio: a kata declaring openai keeps it
    run = pinned((sys.executable, "-m", "pytest"), Path("/nonexistent"), None, {"openai"})

    assert "no:anyio" not in run
    assert "no:anyio" in pinned((sys.executable, "-m", "pytest"), Path("/nonexistent"))


def test_a_kata_named_like_a_brought_plugin_still_has_it_turned_off(tmp_path: Path) -> None:
    # a kata called anyio: its own name is no dependency, and with the plugin on pytest would
    # import anyio.pytest_plugin from the kata's own anyio package
    (tmp_path / "anyio").mkdir()
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "anyio"\ndependencies = []\n', encoding="utf-8"
    )
    declared = declared_distributions(tmp_path)

    assert declared == set()
    assert "no:anyio" in pinned((sys.executable, "-m", "pytest"), tmp_path, tmp_path, declared)


def test_another_interpreter_runs_its_own_plugins(tmp_path: Path) -> None:
    # `uv run pytest`, a kata's own venv: that environment is the person's, nothing turned off
    for cmd in (("uv", "run", "pytest"), ("/opt/venv/bin/python", "-m", "pytest"), ("pytest",)):
        assert not any(word.startswith("no:") for word in pinned(cmd, tmp_path, tmp_path))


def test_a_venv_inside_the_work_tree_is_the_persons_and_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `python -m venv .venv` in the kata and tddhooks installed there: that environment's
    # metadata decides, while the rest of the work tree (on sys.path by an editable install)
    # never does, nor does a prefix holding the whole tree
    work_tree, snapshot = tmp_path / "kata", tmp_path / "snapshot"
    site = work_tree / ".venv" / "lib" / "site-packages"
    _dist(site / "tddhooks-1.dist-info", METADATA="Name: tddhooks\nRequires-Dist: anyio\n")
    _dist(
        site / "anyio-4.dist-info",
        METADATA="Name: anyio\n",
        entry_points_txt="[pytest11]\nanyio = anyio.pytest_plugin\n",
    )
    _dist(
        work_tree / "src" / "rich-99.dist-info",
        METADATA="Name: rich\n",
        entry_points_txt="[pytest11]\nrich_plug = rich.plug\n",
    )
    _dist(
        work_tree / "src" / "tddhooks-2.dist-info", METADATA="Name: tddhooks\nRequires-Dist: rich\n"
    )
    snapshot.mkdir()
    monkeypatch.setattr(sys, "path", [str(work_tree / "src"), str(site)])
    cmd = (sys.executable, "-m", "pytest")

    monkeypatch.setattr(sys, "prefix", str(work_tree / ".venv"))
    run = pinned(cmd, snapshot, work_tree)
    assert "no:anyio" in run
    assert "no:rich_plug" not in run

    monkeypatch.setattr(sys, "prefix", str(tmp_path))  # holds the whole work tree
    assert "no:anyio" not in pinned(cmd, snapshot, work_tree)
