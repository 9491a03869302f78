"""The bypass guard: refuse shell commands that would get round the hooks (pure).

It parses the command (see shell.py) and judges each simple command that would run. It is a
first line only: `tddhooks audit` in CI re-checks every commit, whatever way a hook was skipped.
"""

from __future__ import annotations

from tddhooks.agenthooks import paths as P
from tddhooks.agenthooks.refusal import COMMIT_THROUGH_HOOKS, Refusal
from tddhooks.agenthooks.shell import SimpleCommand, simple_commands, tokenize
from tddhooks.agenthooks.writes import check_writes, write_refusal

# environment variables that switch hook managers (or git's hook lookup) off
HOOK_ENV = {
    "SKIP": "pre-commit skips the hooks it names",
    "PRE_COMMIT_ALLOW_NO_CONFIG": "pre-commit runs nothing without its config",
    "HUSKY": "HUSKY=0 switches husky off",
    "HUSKY_SKIP_HOOKS": "husky skips its hooks",
    "LEFTHOOK": "LEFTHOOK=0 switches lefthook off",
    "LEFTHOOK_EXCLUDE": "lefthook skips the hooks it names",
    "OVERCOMMIT_DISABLE": "overcommit is switched off",
    "GIT_CONFIG_PARAMETERS": "it can set core.hooksPath for every git call",
    "GIT_CONFIG_COUNT": "it can set core.hooksPath for every git call",
    "GIT_CONFIG_GLOBAL": "another global config can set core.hooksPath",
    "GIT_CONFIG_SYSTEM": "another system config can set core.hooksPath",
}
# class (a): what decides which configuration, and so which hooks, git reads; any of these set
# for a command line that runs git is refused, whatever the value
CONFIG_SOURCE_ENV = {
    "HOME": "git reads ~/.gitconfig from it",
    "XDG_CONFIG_HOME": "git reads $XDG_CONFIG_HOME/git/config",
    "GIT_CONFIG": "it names another config file",
    # GIT_DIR, GIT_WORK_TREE: the repository they reach is judged by its own rules (class d)
    "GIT_EXEC_PATH": "git runs its commands from there",
    "GIT_TEMPLATE_DIR": "new repositories get their hooks from there",
}
# config keys that change which config or hooks git reads, or what a git word runs
_CONFIG_SOURCE_KEYS = ("core.hookspath", "include.", "includeif.")
_NO_VERIFY = "--no-verify"
# short options that take the next characters (or word) as their value, per subcommand
_COMMIT_VALUE_SHORT = set("mFcCt")
_COMMIT_VALUE_LONG = {
    "--message", "--file", "--reuse-message", "--reedit-message", "--fixup", "--squash",
    "--author", "--date", "--template", "--cleanup", "--trailer", "--pathspec-from-file",
}  # fmt: skip
_MERGE_VALUE_SHORT = set("mFsX")
_MERGE_VALUE_LONG = {"--message", "--file", "--strategy", "--strategy-option", "--into-name"}
_GIT_GLOBAL_VALUE = {"--git-dir", "--work-tree", "--namespace", "--super-prefix", "--attr-source"}
_PLUMBING = {
    "commit-tree": "writes a commit object without any hook",
    "update-ref": "moves a branch without any hook",
    "replace": "swaps commits behind the hooks' back",
    "fast-import": "writes history without any hook",
    "filter-branch": "rewrites history without any hook",
    "filter-repo": "rewrites history without any hook",
}
_SEQUENCER = {"cherry-pick", "revert"}  # they commit without pre-commit or commit-msg


def check_command(command: str, cwd: str, protected: P.Protected) -> Refusal | None:
    """The first refusal for the shell command line `command` run in `cwd`, or None."""
    commands = simple_commands(command, cwd)
    runs_git = any(_is_git(simple) for simple in commands)
    for simple in commands:
        refusal = (
            _check_env(simple)
            or _git_executable(simple)
            or _check_simple(simple, protected, commands)
            or (_config_source_env(simple) if runs_git else None)
        )
        if refusal is not None:
            return refusal
    return None


def _is_git(simple: SimpleCommand) -> bool:
    return (
        simple.name == "git"
        or simple.name.startswith("git-")
        or "git-core" in (simple.words[0] if simple.words else "")
    )


def _config_source_env(simple: SimpleCommand) -> Refusal | None:
    """Class (a), the environment: on a line that runs git, no assignment (or export) of what
    decides which config, repository or commands git uses."""
    for assignment in (*simple.assignments, *simple.exported):
        name = assignment.partition("=")[0]
        why = CONFIG_SOURCE_ENV.get(name)
        if why is None and name.startswith("GIT_CONFIG"):
            why = "it gives git configuration (core.hooksPath included)"
        if why is not None:
            return Refusal(
                "git-config-source",
                f"setting {name} for git changes which configuration or hooks it reads ({why})",
                f"run git without {name}; {COMMIT_THROUGH_HOOKS}",
            )
    return None


def _git_executable(simple: SimpleCommand) -> Refusal | None:
    """Class (c): git runs only as `git`, never by one of its executables' paths
    (`/usr/lib/git-core/git-commit`, `"$(git --exec-path)/git-commit"`) or another exec path."""
    program = simple.words[0] if simple.words else ""
    dashed = simple.name.startswith("git-") and simple.name not in _OTHER_TOOLS
    exec_path = simple.name == "git" and any(
        word.startswith("--exec-path=") for word in simple.words[1:]
    )
    if not (dashed or "git-core" in program or "--exec-path" in program or exec_path):
        return None
    return Refusal(
        "git-executable",
        f"`{program}` runs a git command past git's front end (where the guard reads it)",
        f"run `git {simple.name.removeprefix('git-') if dashed else '…'}` itself; "
        f"{COMMIT_THROUGH_HOOKS}",
    )


_OTHER_TOOLS = {"git-lfs", "git-filter-repo", "git-crypt", "git-annex"}  # not git's own


def check_edit(path: str, cwd: str, protected: P.Protected) -> Refusal | None:
    """Refuse an edit tool's write to `path` when it is protected or the handed-over test."""
    return write_refusal([path], cwd, protected, "edits")


def _check_env(simple: SimpleCommand) -> Refusal | None:
    for assignment in simple.assignments:
        name, _, value = assignment.partition("=")
        if name in HOOK_ENV and not (name in {"HUSKY", "LEFTHOOK"} and value not in {"0", ""}):
            return Refusal(
                "hook-env",
                f"setting {name} would skip hooks ({HOOK_ENV[name]})",
                f"run the command without {name}; {COMMIT_THROUGH_HOOKS}",
            )
    return None


def _check_simple(
    simple: SimpleCommand, protected: P.Protected, line: list[SimpleCommand]
) -> Refusal | None:
    refusal = write_refusal(list(simple.write_targets), simple.cwd, protected, "writes to")
    if refusal is not None or not simple.words:
        return refusal
    if simple.name == "git":
        return _check_git(simple, protected)
    return check_writes(simple, protected, line)


def _config_pair_refusal(pair: str, cwd: str, protected: P.Protected) -> Refusal | None:
    key, _, value = pair.partition("=")
    if key.strip().lower() == "core.hookspath":
        return Refusal(
            "hooks-path",
            "`-c core.hooksPath=…` points git at other hooks for this call",
            COMMIT_THROUGH_HOOKS,
        )
    if key.strip().lower().startswith(_CONFIG_SOURCE_KEYS):
        return _config_source_key(key.strip())
    return _alias_refusal(key, value, cwd, protected)


def _config_source_key(key: str) -> Refusal:
    """Class (a), configuration: a key that makes git read other configuration or hooks."""
    return Refusal(
        "git-config-source",
        f"`{key}` makes git read other configuration (which can set core.hooksPath)",
        f"leave {key} to the person; {COMMIT_THROUGH_HOOKS}",
    )


def _alias_refusal(key: str, value: str, cwd: str, protected: P.Protected) -> Refusal | None:
    """An alias that would run a refused git command (`alias.ci=commit -n`)."""
    if not key.strip().lower().startswith("alias.") or not value.strip():
        return None
    if value.lstrip().startswith("!"):  # a shell alias: judge the shell command it runs
        return check_command(value.lstrip()[1:], cwd, protected)
    words = tokenize(value)
    return _check_git_subcommand(words[0], words[1:], cwd, protected) if words else None


def _check_git(simple: SimpleCommand, protected: P.Protected) -> Refusal | None:
    words = list(simple.words[1:])
    cwd = simple.cwd
    index = 0
    while index < len(words) and words[index].startswith("-"):
        word = words[index]
        value = words[index + 1] if index + 1 < len(words) else ""
        if word.startswith("--config-env"):
            pair = word.split("=", 1)[1] if "=" in word else value
            key = pair.partition("=")[0]
            if key.lower().startswith(_CONFIG_SOURCE_KEYS):
                return _config_pair_refusal(f"{key}=", cwd, protected)
            index += 1 if "=" in word else 2
            continue  # the value is an environment variable's name: the variable is unknown
        if word == "-c":
            pair = value
            refusal = _config_pair_refusal(pair, cwd, protected)
            if refusal is not None:
                return refusal
            index += 1 if "=" in word else 2
            continue
        if word.startswith("-c"):
            refusal = _config_pair_refusal(word[2:], cwd, protected)
            if refusal is not None:
                return refusal
        elif word == "-C":
            cwd = P.resolve(value, cwd)
            index += 2
            continue
        elif word in _GIT_GLOBAL_VALUE:
            index += 2
            continue
        index += 1
    if index >= len(words):
        return None
    return _check_git_subcommand(words[index], words[index + 1 :], cwd, protected)


def _check_git_subcommand(
    sub: str, args: list[str], cwd: str, protected: P.Protected
) -> Refusal | None:
    if sub in _PLUMBING:
        return Refusal("history-plumbing", f"`git {sub}` {_PLUMBING[sub]}", COMMIT_THROUGH_HOOKS)
    if sub == "config":
        return _check_git_config(args, cwd, protected)
    if sub == "commit":
        if _skips_verify(args, _COMMIT_VALUE_SHORT, _COMMIT_VALUE_LONG, short_n=True):
            return _no_verify(sub, "commit")
    elif sub in {"merge", "pull", "rebase"}:
        if _skips_verify(args, _MERGE_VALUE_SHORT, _MERGE_VALUE_LONG, short_n=False):
            return _no_verify(sub, "the same command without it")
        if sub == "rebase":
            return _check_rebase_exec(args, cwd, protected)
    elif sub == "am":
        if _skips_verify(args, set(), set(), short_n=True):
            return _no_verify(sub, "the same command without it")
    elif sub in _SEQUENCER:
        return _check_sequencer(sub, args)
    elif sub in {"rm", "mv", "checkout", "restore"}:
        staged_only = {"-S", "--staged"} & set(args) and not {"-W", "--worktree"} & set(args)
        if sub == "restore" and staged_only:
            return None  # only the index changes; the file stays as handed over
        paths = [arg for arg in args if not arg.startswith("-")]
        return write_refusal(paths, cwd, protected, "changes")
    return None


def _check_rebase_exec(args: list[str], cwd: str, protected: P.Protected) -> Refusal | None:
    """`git rebase --exec CMD` / `-x CMD` runs CMD through the shell: judged as a command line."""
    for index, arg in enumerate(args):
        script = None
        if arg in {"-x", "--exec"} and index + 1 < len(args):
            script = args[index + 1]
        elif arg.startswith("--exec="):
            script = arg.partition("=")[2]
        elif arg.startswith("-x") and len(arg) > 2:
            script = arg[2:]
        refusal = check_command(script, cwd, protected) if script else None
        if refusal is not None:
            return refusal
    return None


def _no_verify(sub: str, instead: str) -> Refusal:
    return Refusal(
        "no-verify",
        f"`git {sub}` with --no-verify (or -n) skips the commit hooks",
        f"run `git {instead}` without --no-verify/-n; the hooks judge the staged tree "
        "(when they reject it, fix what they name)",
    )


def _skips_verify(
    args: list[str], value_short: set[str], value_long: set[str], *, short_n: bool
) -> bool:
    """Whether the options before `--` include --no-verify (or an abbreviation git accepts),
    or, where -n means --no-verify, an -n alone or inside a cluster such as -anm."""
    index = 0
    while index < len(args):
        arg = args[index]
        if arg == "--":
            return False
        if arg.startswith("--"):
            name = arg.split("=", 1)[0]
            if len(name) >= len("--no-ver") and _NO_VERIFY.startswith(name):
                return True
            index += 2 if name in value_long and "=" not in arg else 1
            continue
        if arg.startswith("-") and len(arg) > 1:
            for position, char in enumerate(arg[1:], start=1):
                if char == "n" and short_n:
                    return True
                if char in value_short:
                    index += 1 if position == len(arg) - 1 else 0  # the value is the next word
                    break
        index += 1
    return False


_SEQUENCER_VALUE_SHORT = set("mXS")  # -m 1, -Xpatience, -S<key>: the rest is the value


def _no_commit_cluster(arg: str) -> bool:
    """A short-option cluster with -n before any option that takes a value (`-xn`, not
    `-Xpatience`)."""
    for letter in arg[1:]:
        if letter == "n":
            return True
        if letter in _SEQUENCER_VALUE_SHORT:
            return False
    return False


def _check_sequencer(sub: str, args: list[str]) -> Refusal | None:
    if {"-n", "--no-commit", "--abort", "--quit", "--skip"} & set(args) or any(
        arg.startswith("-") and not arg.startswith("--") and _no_commit_cluster(arg) for arg in args
    ):
        return None
    return Refusal(
        "commit-without-hooks",
        f"`git {sub}` commits without running pre-commit or commit-msg",
        f"`git {sub} --no-commit …` to apply the change, then `git commit` through the hooks",
    )


_CONFIG_VALUE_OPTIONS = {"-f", "--file", "--blob", "--type", "--default", "--comment"}


def _config_positional(args: list[str]) -> list[str]:
    """`git config`'s positional words, the values of its options (`-f FILE`) left out."""
    found: list[str] = []
    index = 0
    while index < len(args):
        arg = args[index]
        if arg in _CONFIG_VALUE_OPTIONS:
            index += 2
            continue
        if not arg.startswith("-"):
            found.append(arg)
        index += 1
    return found


def _check_git_config(args: list[str], cwd: str, protected: P.Protected) -> Refusal | None:
    positional = _config_positional(args)
    if positional and positional[0] == "set":
        positional = positional[1:]
    if len(positional) >= 2 and positional[0].lower().startswith("alias."):
        refusal = _alias_refusal(positional[0], positional[1], cwd, protected)
        if refusal is not None:
            return refusal
    if {"-e", "--edit"} & set(args):
        return _config_source_key("git config --edit")
    sources = [arg for arg in positional[:1] if arg.lower().startswith(_CONFIG_SOURCE_KEYS)]
    sources = [key for key in sources if key.lower() != "core.hookspath"]
    reads = {"--get", "--get-all", "--get-regexp", "-l", "--list", "get", "--show-origin"}
    if sources and (len(positional) >= 2 or not reads & set(args)):
        return _config_source_key(sources[0])
    keys = [arg for arg in args if arg.lower() == "core.hookspath"]
    if not keys:
        return None
    writing = {"--unset", "--unset-all", "--add", "--replace-all", "set", "unset", "--edit", "-e"}
    reading = {"--get", "--get-all", "--get-regexp", "-l", "--list", "get", "--show-origin"}
    if not writing & set(args) and (reading & set(args) or positional == keys):
        return None
    return Refusal(
        "hooks-path",
        "changing core.hooksPath points git away from the installed hooks",
        "leave core.hooksPath to the person (`tddhooks install` manages the hooks); "
        f"{COMMIT_THROUGH_HOOKS}",
    )


def reached_dirs(command: str, cwd: str) -> list[str]:
    """Class (d): every directory the command line's git calls and writes reach (its `cd`s,
    `git -C DIR`, `--git-dir`, `--work-tree`, `GIT_DIR=`, absolute paths it writes), so a
    tool call whose cwd lies outside a repository is judged by the repository it reaches."""
    found: list[str] = []
    for simple in simple_commands(command, cwd):
        found.append(simple.cwd)
        for assignment in simple.assignments:
            name, _, value = assignment.partition("=")
            if name in {"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR"} and value:
                found.append(P.resolve(value, simple.cwd))
        words = list(simple.words)
        for index, word in enumerate(words):
            option, has_value, value = word.partition("=")
            if option in {"-C", "--git-dir", "--work-tree"} and not has_value:
                value = words[index + 1] if index + 1 < len(words) else ""
            elif not (has_value and option in {"--git-dir", "--work-tree"}):
                value = word if word.startswith(("/", "~")) else ""
            if value:
                found.append(P.resolve(value, simple.cwd))
        found += [P.resolve(target, simple.cwd) for target in simple.write_targets]
    return list(dict.fromkeys(found))
