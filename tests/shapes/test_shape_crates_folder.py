"""A folder of crates without a root manifest (a kata collection): named as such, with the
workspace Cargo.toml to add; then gated as one project (real git, the real `tddhooks`
executable, real cargo)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.shapekit import make, message, run, write

pytestmark = pytest.mark.cargo


def _crate(name: str) -> dict[str, str]:
    return {
        f"{name}/Cargo.toml": f'[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2021"\n',
        f"{name}/src/lib.rs": "pub fn score() -> u32 {\n    0\n}\n\n#[cfg(test)]\nmod tests {\n"
        "    use super::*;\n\n    #[test]\n    fn starts_at_zero() {\n"
        "        assert_eq!(score(), 0);\n    }\n}\n",
    }


def test_a_folder_of_crates_names_the_workspace_then_gates_it(tmp_path: Path) -> None:
    repo = make(tmp_path / "katas", {".gitignore": "target/\n", **_crate("bowling"),
                                     **_crate("roman")})  # fmt: skip
    start = run(repo, "git", "rev-parse", "HEAD").stdout.strip()
    installed = run(repo, "tddhooks", "install", "--direct")
    said = installed.stdout + installed.stderr
    assert "a folder of 2 crate(s) without a root manifest (bowling, roman)" in said, said
    assert '[workspace] members = ["bowling", "roman"] resolver = "2"' in said
    assert "could not find" not in said  # cargo never ran on a tree it cannot build
    doctor = run(repo, "tddhooks", "doctor", "--offline")
    runner_row = next(line for line in doctor.stdout.splitlines() if "runner" in line)
    assert "rust:" in runner_row, doctor.stdout
    assert "fail" in runner_row.split("rust:")[0], doctor.stdout  # never ok

    write(repo, {"Cargo.toml": '[workspace]\nmembers = ["bowling", "roman"]\nresolver = "2"\n'})
    run(repo, "git", "add", "Cargo.toml")
    done = run(repo, "git", "commit", "-m", "build: one workspace for the katas")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "cargo test: 2 passed" in done.stderr

    lib = repo / "roman/src/lib.rs"
    text = lib.read_text(encoding="utf-8")
    red = "\n    #[test]\n    fn counts_one() {\n        assert_eq!(one(), 1);\n    }\n}\n"
    lib.write_text(text.removesuffix("}\n") + red, encoding="utf-8")
    run(repo, "git", "add", "-A")
    status = " ".join(run(repo, "tddhooks", "status").stdout.split())
    assert "staged tree: red" in status, status
    code = "pub fn one() -> u32 {\n    1\n}\n\n"
    lib.write_text(code + lib.read_text(encoding="utf-8"), encoding="utf-8")
    run(repo, "git", "add", "-A")
    feat = run(repo, "git", "commit", "-m", "feat(roman): one")
    assert feat.returncode == 0, feat.stdout + feat.stderr
    assert "- Role: Implementor\n" in message(repo)

    audit = run(repo, "tddhooks", "audit", f"{start}..HEAD")
    assert audit.returncode == 0, audit.stdout + audit.stderr
