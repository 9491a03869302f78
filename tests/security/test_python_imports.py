"""Red team: the environment that runs the gate imports the kata from the work tree.

`pip install -e .` of a kata into the environment that runs tddhooks (the usual setup: one venv
with pytest, ruff, tddhooks and the kata) puts the work tree on sys.path: a `.pth` line naming
`src/`, a link tree under `build/` (setuptools' strict mode), or an import hook that maps the
package to its work-tree folder (setuptools' finder, hatchling's `dev-mode-exact`). A
`PYTHONPATH=$PWD/src` in the shell does the same. With a src layout and no pytest `pythonpath`,
the snapshot's `python -m pytest` then imported the package from the work tree: an unstaged fix
made a red staged tree green (docs/runners.md). Each test runs real git, hooks, pytest and ruff
in a virtual environment of its own with the kata "installed" the way pip's backends install it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from support.redteam import commit, git, head, refused

FILES = {
    "pyproject.toml": (
        '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n\n'
        '[project]\nname = "calc"\nversion = "0.1.0"\n'
    ),
    "src/calc/__init__.py": "def add(a: int, b: int) -> int:\n    return a + b\n",
    "tests/test_calc.py": (
        "from calc import add\n\n\ndef test_adds_two_numbers() -> None:\n"
        "    assert add(2, 3) == 5\n"
    ),
    # the PYTHONPATH setup reaches the gate only because the policy names it (policy/gate_env.py)
    "tdd.yaml": "language: python\ngate:\n  env: [PYTHONPATH]\n",
    "kata.md": "# Calculator kata\n\nAdd two numbers.\n",
    ".gitignore": ".tdd/\n__pycache__/\n*.egg-info/\nbuild/\n",
}
SUB_TEST = "from calc import sub\n\n\ndef test_subtracts() -> None:\n    assert sub(5, 3) == 2\n"
RED_CODE = FILES["src/calc/__init__.py"] + "\n\ndef sub(a: int, b: int) -> int:\n    return a + b\n"
FIXED_CODE = RED_CODE.replace("return a + b\n", "return a - b\n").replace(
    "return a - b\n", "return a + b\n", 1
)
FEAT = (
    "feat: subtract two numbers\n\nContext:\n- Role: Implementor\n- Step: 1\n- Kata goal: Add "
    "two numbers.\n\nRationale:\n- subtract\n\nDiff summary:\n- tests/test_sub.py: new\n- src/"
    "calc/__init__.py: sub\n\nVerification:\n- pytest: all green\n"
)
SETUPS = ("setuptools-pth", "setuptools-strict", "import-hook", "PYTHONPATH")


def _site_packages(venv: Path) -> Path:
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    found = subprocess.run(
        [str(venv / "bin" / "python"), "-c", code], capture_output=True, text=True, check=True
    )
    return Path(found.stdout.strip())


def _gate_venv(folder: Path) -> tuple[Path, Path]:
    """A fresh virtual environment that runs tddhooks, pytest and ruff (those of this test run,
    through a site dir): (its bin folder, its site-packages)."""
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = _site_packages(venv)
    ours = sysconfig.get_paths()["purelib"]
    (site / "zz_tddhooks.pth").write_text(f"import site; site.addsitedir({ours!r})\n", "utf-8")
    script = venv / "bin" / "tddhooks"
    script.write_text(
        f"#!{venv / 'bin' / 'python'}\nimport sys\nfrom tddhooks.entry import main\n"
        "sys.exit(main())\n",
        encoding="utf-8",
    )
    script.chmod(0o755)
    return venv / "bin", site


def _install_editable(setup: str, repo: Path, site: Path) -> dict[str, str]:
    """What `pip install -e .` of the kata leaves in site (as setuptools 65-80 and hatchling
    write it); the environment variables of the setup."""
    src = repo / "src"
    if setup == "setuptools-pth":
        (site / "__editable__.calc-0.1.0.pth").write_text(f"{src}\n", encoding="utf-8")
    elif setup == "setuptools-strict":
        tree = repo / "build" / "__editable__.calc-0.1.0-py3-none-any"
        (tree / "calc").mkdir(parents=True)
        (tree / "calc" / "__init__.py").symlink_to(src / "calc" / "__init__.py")
        (site / "__editable__.calc-0.1.0.pth").write_text(f"{tree}\n", encoding="utf-8")
    elif setup == "import-hook":
        editable_wheel = pytest.importorskip("setuptools.command.editable_wheel")
        name = "__editable___calc_0_1_0_finder"
        text = editable_wheel._finder_template(name, {"calc": str(src / "calc")}, {})
        (site / f"{name}.py").write_text(text, encoding="utf-8")
        (site / "__editable__.calc-0.1.0.pth").write_text(
            f"import {name}; {name}.install()\n", encoding="utf-8"
        )
    else:
        return {"PYTHONPATH": str(src)}
    return {}


@pytest.fixture
def kata(make_repo: object) -> Path:
    from support.hookkit import install_shims

    repo: Path = make_repo(FILES)  # type: ignore[operator]
    install_shims(repo)
    return repo


def _person(kata: Path, tmp_path: Path, setup: str) -> dict[str, str]:
    """The environment of a person whose gate's Python has the kata installed per setup."""
    bin_dir, site = _gate_venv(tmp_path)
    env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    env.update(_install_editable(setup, kata, site))
    python = bin_dir / "python"
    imported = subprocess.run(
        [str(python), "-c", "import calc; print(calc.__file__)"],
        cwd=kata.parent, env={**os.environ, **env}, capture_output=True, text=True,
    )  # fmt: skip
    assert imported.stdout.strip().endswith("calc/__init__.py"), imported.stderr
    return env


def _write(repo: Path, relative: str, text: str) -> None:
    path = repo / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.mark.pygate
@pytest.mark.parametrize("setup", SETUPS)
def test_an_installed_work_tree_cannot_make_the_staged_tree_green(
    kata: Path, tmp_path: Path, setup: str
) -> None:
    env = _person(kata, tmp_path, setup)
    _write(kata, "tests/test_sub.py", SUB_TEST)
    _write(kata, "src/calc/__init__.py", RED_CODE)
    git(kata, "add", "-A")
    before = head(kata)
    refused(commit(kata, FEAT, env=env), "[green]", before, kata)
    _write(kata, "src/calc/__init__.py", FIXED_CODE)  # the fix, left unstaged
    _write(kata, "kata.md", FILES["kata.md"] + "Subtract too.\n")
    git(kata, "add", "kata.md")  # a new staged tree: no stored verdict answers for it

    text = refused(commit(kata, FEAT, env=env), "[green]", before, kata)

    assert "test_subtracts" in text
    assert "2 passed" not in text
    # the gate still imports the staged package: staged, the fix lands
    git(kata, "add", "-A")
    landed = commit(kata, FEAT, env=env)
    assert landed.returncode == 0, landed.stdout + landed.stderr
    assert git(kata, "show", "HEAD:src/calc/__init__.py").stdout == FIXED_CODE


@pytest.mark.pygate
@pytest.mark.parametrize("setup", ["setuptools-pth", "PYTHONPATH"])
def test_an_untracked_module_in_the_work_tree_is_not_importable(
    kata: Path, tmp_path: Path, setup: str
) -> None:
    env = _person(kata, tmp_path, setup)
    _write(kata, "src/helpers.py", "def sub(a: int, b: int) -> int:\n    return a - b\n")
    _write(kata, "tests/test_sub.py", SUB_TEST.replace("from calc", "from helpers"))
    git(kata, "add", "tests/test_sub.py")  # src/helpers.py is left untracked
    before = head(kata)

    text = refused(commit(kata, FEAT, env=env), "[green]", before, kata)

    assert "helpers" in text


def test_pytest_of_the_gates_own_python_loads_the_confining_plugin(tmp_path: Path) -> None:
    from tddhooks.runners.python_pins import CONFINE_PLUGIN, DEFINED_PLUGIN, pinned

    cmd = (sys.executable, "-m", "pytest", "-v")
    assert pinned(cmd, tmp_path, tmp_path / "work")[-3:] == ("-p", CONFINE_PLUGIN, "-v")
    alone = pinned(cmd, tmp_path)  # no work tree given
    assert CONFINE_PLUGIN not in alone
    assert alone[alone.index("-c") + 1] == os.devnull
    own = (sys.executable, "-m", "pytest", "-c", "mine.ini")
    plugins = ("-p", DEFINED_PLUGIN, "-p", CONFINE_PLUGIN)
    brought = ("-p", "no:anyio", "-p", "no:platformdirs")  # runners/python_plugins.py
    assert pinned(own, tmp_path, tmp_path / "work") == (*own[:3], *brought, *plugins, *own[3:])
    # another Python may not have tddhooks; `pytest` may be another Python's script
    other = ("python3.9", "-m", "pytest")
    assert CONFINE_PLUGIN not in pinned(other, tmp_path, tmp_path / "work")
    assert CONFINE_PLUGIN not in pinned(("pytest",), tmp_path, tmp_path / "work")


def test_a_top_level_tddhooks_of_the_tree_never_answers_for_the_plugin(tmp_path: Path) -> None:
    # the tree's top folder is first on sys.path: its tddhooks/ would be loaded as the plugin,
    # a pytest plugin that no conftest.py check sees
    from tddhooks.runners.python_pins import CONFINE_PLUGIN, pinned

    (tmp_path / "tddhooks" / "runners").mkdir(parents=True)
    cmd = (sys.executable, "-m", "pytest")
    assert CONFINE_PLUGIN not in pinned(cmd, tmp_path, tmp_path / "work")


@pytest.mark.pygate
def test_a_copy_installed_from_the_work_tree_cannot_make_the_staged_tree_green(
    kata: Path, tmp_path: Path
) -> None:
    # a plain `pip install .` copies the package as the work tree had it: here, fixed
    bin_dir, site = _gate_venv(tmp_path)
    env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    _write(site, "calc/__init__.py", FIXED_CODE)
    _write(kata, "tests/test_sub.py", SUB_TEST)
    _write(kata, "src/calc/__init__.py", RED_CODE)
    git(kata, "add", "-A")
    before = head(kata)

    text = refused(commit(kata, FEAT, env=env), "[green]", before, kata)

    assert "test_subtracts" in text
    assert "2 passed" not in text


# an untracked src/sitecustomize.py runs at every Python start once src/ is on sys.path: it
# registers itself as a pytest plugin that turns failures into passes
SITECUSTOMIZE = """\
import os
import sys

if "pytest" in getattr(sys, "orig_argv", []):
    os.environ["PYTEST_PLUGINS"] = "sitecustomize"

    import pytest

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(item, call):
        outcome = yield
        outcome.get_result().outcome = "passed"
"""


@pytest.mark.parametrize("setup", ["setuptools-pth", "PYTHONPATH"])
def test_a_sitecustomize_in_the_work_tree_cannot_judge_the_staged_tree(
    kata: Path, tmp_path: Path, setup: str
) -> None:
    env = _person(kata, tmp_path, setup)
    _write(kata, "src/sitecustomize.py", SITECUSTOMIZE)  # left untracked
    _write(kata, "tests/test_sub.py", SUB_TEST)
    _write(kata, "src/calc/__init__.py", RED_CODE)
    git(kata, "add", "tests", "src/calc")
    before = head(kata)

    result = commit(kata, FEAT, env=env)

    text = result.stdout + result.stderr
    assert result.returncode != 0, text
    assert head(kata) == before
    assert "sitecustomize.py from your work tree" in text or "test_subtracts" in text


@pytest.mark.pygate
def test_a_venv_inside_the_kata_keeps_its_installed_packages(
    make_repo: object, tmp_path: Path
) -> None:
    """The gate's Python is often the kata's own `.venv` inside the repository: its
    site-packages lies in the work tree, and the plugin once dropped it from sys.path (no such
    folder in the snapshot), so a dependency imported by a test made a green tree red. The
    interpreter's own folders are never the work tree's code."""
    from support.hookkit import install_shims

    files = {
        **FILES,
        ".gitignore": FILES[".gitignore"] + "venv/\n",
        "pyproject.toml": FILES["pyproject.toml"]
        + '\n[tool.pytest.ini_options]\npythonpath = ["src"]\n',
    }
    repo: Path = make_repo(files)  # type: ignore[operator]
    install_shims(repo)
    bin_dir, site = _gate_venv(repo)  # repo/venv, ignored
    (site / "kata_dependency.py").write_text("VALUE = 2\n", encoding="utf-8")
    _write(repo, "tests/test_dependency.py", (
        "def test_an_installed_dependency_is_importable() -> None:\n"
        "    import kata_dependency\n\n    assert kata_dependency.VALUE == 2\n"
    ))  # fmt: skip
    git(repo, "add", "-A")
    message = FEAT.replace("feat: subtract two numbers", "test: an installed dependency")
    env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}

    result = commit(repo, message.replace("Role: Implementor", "Role: Tester"), env=env)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 passed" in result.stdout + result.stderr


def test_the_gate_side_never_imports_the_plugin(tmp_path: Path) -> None:
    """The plugin confines sys.path at import when TDDHOOKS_WORK_TREE is set, and a tddhooks
    started by a kata's tests inherits it: the gate reads the variable's name and the start-up
    check from runners/python_pins.py instead, and both modules name the same variable."""
    code = (
        "import sys\nfrom pathlib import Path\nimport tddhooks.policy.gate\n"
        "from tddhooks.runners import python_pins\n"
        "assert python_pins.startup_modules_in(Path.cwd()) == []\n"
        "assert 'tddhooks.runners.python_confine' not in sys.modules\n"
        "print(python_pins.WORK_TREE_VARIABLE)\n"
    )
    env = {**os.environ, "TDDHOOKS_WORK_TREE": str(tmp_path)}
    found = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                           capture_output=True, text=True)  # fmt: skip
    assert found.returncode == 0, found.stderr
    from tddhooks.runners import python_places

    assert found.stdout.strip() == python_places.WORK_TREE_VARIABLE
