"""The bypass guard against a table of shell commands: bypasses refused with their rule, innocent
look-alikes let through. The protected paths come from a real repository (git's own answer to
where the hooks live), and a sample runs through the installed hook command end to end."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tddhooks.agenthooks.guard import check_command
from tddhooks.agenthooks.handlers import protected_paths
from tddhooks.agenthooks.repo_view import repo_view

BYPASSES = [
    ('git commit --no-verify -m "feat: x"', "no-verify"),
    ("git commit -n -m x", "no-verify"),
    ('git commit -anm "wip"', "no-verify"),
    ("git commit -am wip -n", "no-verify"),
    ("git commit --no-veri -m x", "no-verify"),
    ("git -C . commit --no-verify", "no-verify"),
    ("git --no-pager commit --no-verify -m x", "no-verify"),
    ("git merge --no-verify topic", "no-verify"),
    ("git pull --no-verify origin main", "no-verify"),
    ("git rebase --no-verify main", "no-verify"),
    ("git am --no-verify 0001.patch", "no-verify"),
    ("git am -n 0001.patch", "no-verify"),
    ("git cherry-pick abc123", "commit-without-hooks"),
    ("git revert --no-edit HEAD", "commit-without-hooks"),
    ("git -c core.hooksPath=/dev/null commit -m x", "hooks-path"),
    ("git -c CORE.HOOKSPATH=x commit -m x", "hooks-path"),
    ("git -c core.hooksPath commit -m x", "hooks-path"),
    ("git --config-env=core.hooksPath=EMPTY commit -m x", "hooks-path"),
    ("git config core.hooksPath /tmp/none", "hooks-path"),
    ("git config --unset core.hooksPath", "hooks-path"),
    ("git config --global core.hooksPath /tmp/none", "hooks-path"),
    ("git commit-tree HEAD^{tree} -p HEAD -m x", "history-plumbing"),
    ("git update-ref refs/heads/main abc123", "history-plumbing"),
    ("git replace HEAD abc123", "history-plumbing"),
    ("git fast-import < stream.txt", "history-plumbing"),
    ("cat > .git/hooks/pre-commit <<'EOF'\nexit 0\nEOF", "protected-path"),
    ("echo 'exit 0' > .git/hooks/pre-commit", "protected-path"),
    ("echo 'exit 0'>>.git/hooks/commit-msg", "protected-path"),
    ("printf x | tee .git/hooks/pre-commit", "protected-path"),
    ("sed -i 's/exit 1/exit 0/' .git/hooks/pre-commit", "protected-path"),
    ("sed --in-place -e 's/a/b/' .git/hooks/commit-msg", "protected-path"),
    ("cp /dev/null .git/hooks/pre-commit", "protected-path"),
    ("cp -t .git/hooks evil-pre-commit", "protected-path"),
    ("cp -r evil-hooks .git", "protected-path"),
    ("mv .git/hooks/pre-commit /tmp/", "protected-path"),
    ("rm -rf .git/hooks", "protected-path"),
    ("rm -rf .git", "protected-path"),
    ("rm -f .git/tddhooks/verdicts/*", "protected-path"),
    ("chmod -x .git/hooks/pre-commit", "protected-path"),
    ("ln -sf /dev/null .git/hooks/pre-commit", "protected-path"),
    ("rm .pre-commit-config.yaml", "protected-path"),
    ("sed -i '/tddhooks/d' .pre-commit-config.yaml", "protected-path"),
    ("echo '{}' > .claude/settings.json", "protected-path"),
    ("cd .git && rm -rf hooks", "protected-path"),
    ("cd .git/hooks; echo x > pre-commit", "protected-path"),
    ("rm .git/ho*", "protected-path"),
    ("rm -rf .git/{hooks,tddhooks}", "protected-path"),
    ("find .git/hooks -type f -delete", "protected-path"),
    ("find .git/hooks -name pre-commit | xargs rm", "protected-path"),
    ("python3 -c \"open('.git/hooks/pre-commit','w').write('')\"", "protected-path"),
    ("dd if=/dev/null of=.git/hooks/pre-commit", "protected-path"),
    ('cat evil > "$(git rev-parse --git-dir)/hooks/pre-commit"', "protected-path"),
    ("git rm tdd.yaml", "protected-path"),
    ("SKIP=tddhooks-pre-commit git commit -m x", "hook-env"),
    ("HUSKY=0 git commit -m x", "hook-env"),
    ("env PRE_COMMIT_ALLOW_NO_CONFIG=1 git commit -m x", "hook-env"),
    ("export SKIP=tddhooks-pre-commit", "hook-env"),
    ("GIT_CONFIG_PARAMETERS=\"'core.hooksPath=/x'\" git commit -m x", "hook-env"),
    ("bash -c 'git commit --no-verify -m x'", "no-verify"),
    ('sh -c "cd src && git commit -n"', "no-verify"),
    ("true && git commit -n || echo failed", "no-verify"),
    ("(git commit --no-verify -m x)", "no-verify"),
    ("echo $(git commit -n -m x)", "no-verify"),
    ("echo `git commit -n -m x`", "no-verify"),
    ("command git commit -n -m x", "no-verify"),
    ("/usr/bin/git commit --no-verify -m x", "no-verify"),
    ("env -i git commit -n -m x", "no-verify"),
    ("nice -n 5 timeout 60 git commit -n -m x", "no-verify"),
    ("echo msg | xargs git commit --no-verify -m", "no-verify"),
    ('eval "git commit -n -m x"', "no-verify"),
    ("make test; git commit -n -m x", "no-verify"),
    ("git status\ngit commit --no-verify -m x", "no-verify"),
    ("git commit -nm x", "no-verify"),
    ("bash -lc 'git commit -n -m x'", "no-verify"),
    ("GIT_DIR=.git git commit -n -m x", "no-verify"),
    ('"git" commit -n -m x', "no-verify"),
    ("g\\it commit -n -m x", "no-verify"),
    ("exec git commit --no-verify -m x", "no-verify"),
    ("echo x 1>.git/hooks/pre-commit", "protected-path"),
    ("echo x >| .git/hooks/pre-commit", "protected-path"),
    ("install -m 755 evil .git/hooks/pre-commit", "protected-path"),
    ("git config --local core.hooksPath ''", "hooks-path"),
    ("git -c core.hooksPath= commit -m x", "hooks-path"),
    ("echo '[core] hooksPath = /x' >> .git/config", "protected-path"),
    ("git -c alias.ci='commit -n' ci -m x", "no-verify"),
    ("git config alias.ci 'commit --no-verify'", "no-verify"),
    ("git config --global alias.save '!git commit -n -m wip'", "no-verify"),
    ("git config alias.wipe '!rm -rf .git/hooks'", "protected-path"),
]
INNOCENT = [
    "git log --no-verify-signatures",
    'echo "-n"',
    'git commit -m "--no-verify"',
    'git commit -m "feat: stop passing -n"',
    "git commit --message=--no-verify",
    "git commit -F msg.txt",
    "git commit -v -m x",
    "git commit --verbose -m x",
    "git commit --amend --no-edit",
    "git commit -m x -- -n",
    "git merge -n topic",
    "git merge --no-ff topic",
    "git rebase -n main",
    "git cherry-pick -n abc123",
    "git revert --no-commit HEAD",
    "git push --no-verify",
    "git config --get core.hooksPath",
    "git config core.hooksPath",
    "git config user.name Bob",
    "git -c user.name=x commit -m y",
    "git notes add -m reviewed",
    "git restore --staged tests/adds.rs",
    "cat .git/hooks/pre-commit",
    "ls -la .git/hooks",
    "grep -r tddhooks .git/hooks",
    'echo "git commit --no-verify"',
    "echo git commit --no-verify",
    "SKIPPED=1 make test",
    "cp src/lib.rs /tmp/backup.rs",
    "rm -rf target",
    "sed -i 's/a/b/' src/lib.rs",
    "mkdir -p build/hooks && echo ok > build/hooks/log.txt",
    "rm -rf tests/hooks",
    'git commit -m "$(cat .git/hooks/pre-commit)"',
    "python3 -m pytest -q",
    "cargo test --all",
    "git diff --cached --stat",
    "cp .git/hooks/pre-commit /tmp/pre-commit.backup",
    "cp -r .git/hooks /tmp/hooks-copy",
    "git config alias.ci 'commit -v'",
    "git -c alias.lg='log --oneline' lg",
]


@pytest.fixture
def guard_in(make_repo: Callable[..., Path]) -> Callable[[str], str | None]:
    repo = make_repo({"src/lib.rs": "pub fn f() {}\n"})
    view = repo_view(str(repo))
    assert view is not None
    protected = protected_paths(view)

    def judge(command: str) -> str | None:
        refusal = check_command(command, str(repo), protected)
        return refusal.rule if refusal else None

    return judge


def test_the_table_is_big_enough() -> None:
    assert len(BYPASSES) + len(INNOCENT) >= 40


@pytest.mark.parametrize(("command", "rule"), BYPASSES)
def test_bypass_is_refused_with_its_rule(
    guard_in: Callable[[str], str | None], command: str, rule: str
) -> None:
    assert guard_in(command) == rule


@pytest.mark.parametrize("command", INNOCENT)
def test_innocent_look_alike_passes(guard_in: Callable[[str], str | None], command: str) -> None:
    assert guard_in(command) is None


def test_a_custom_hooks_path_is_protected_too(make_repo: Callable[..., Path]) -> None:
    repo = make_repo({"src/lib.rs": "pub fn f() {}\n"})
    subprocess.run(["git", "config", "core.hooksPath", "githooks"], cwd=repo, check=True)
    view = repo_view(str(repo))
    assert view is not None
    refusal = check_command("rm githooks/pre-commit", str(repo), protected_paths(view))
    assert refusal is not None
    assert refusal.rule == "protected-path"


@pytest.mark.parametrize(
    "command",
    ["git commit --no-verify -m x", "rm -rf .git/hooks", "SKIP=x git commit -m y"],
)
def test_the_installed_hook_command_refuses_and_the_hook_stays(
    make_repo: Callable[..., Path], command: str
) -> None:
    repo = make_repo({"src/lib.rs": "pub fn f() {}\n"})
    hook = repo / ".git/hooks/pre-commit"
    hook.write_text("#!/bin/sh\nexit 1\n", encoding="utf-8")
    payload = {
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "cwd": str(repo),
        "session_id": "s",
    }
    result = subprocess.run(
        "tddhooks hook agent claude-code pre-tool",
        shell=True,
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=repo,
    )
    answer = json.loads(result.stdout)["hookSpecificOutput"]
    assert result.returncode == 0
    assert answer["permissionDecision"] == "deny"
    assert "Instead:" in answer["permissionDecisionReason"]
    assert "tddhooks audit" in answer["permissionDecisionReason"]
    assert hook.read_text(encoding="utf-8") == "#!/bin/sh\nexit 1\n"
