"""Shared pieces of the tool tests: where things are, a throwaway git
repository holding a recipe book, and the environment the tools run in."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys

REPO = pathlib.Path(__file__).resolve().parents[2]
# The binary the `language: system` hooks and the action's script run;
# JUICE_LINT lets a run point at another build.
BINARY = pathlib.Path(os.environ.get("JUICE_LINT", REPO / ".build" / "debug" / "juice-lint")).resolve()
CANONICAL = REPO / "recipes"
# pre-commit's and actionlint's state between runs, removed by `make clean`.
WORK = REPO / ".build" / "tools-test"
# The venv's scripts (pre-commit, actionlint), next to the Python running the tests.
VENV_BIN = pathlib.Path(sys.executable).parent

# Variables that would change what the tools do or print: git's repository
# redirections (set when this runs inside a git hook), pre-commit's own
# switches, and those that make juice-lint print GitHub commands or colour.
_DROPPED = {
    "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES", "SKIP", "PRE_COMMIT_HOME", "PRE_COMMIT_COLOR",
    "GITHUB_ACTIONS", "FORCE_COLOR", "CLICOLOR_FORCE",
}


def path_without_juice_lint() -> str:
    """PATH less every folder that holds a `juice-lint`, so a hook that
    finds one must have been given it."""
    folders = os.environ.get("PATH", "").split(os.pathsep)
    return os.pathsep.join(d for d in folders if d and not (pathlib.Path(d) / "juice-lint").exists())


def tool_env(*, extra_path: pathlib.Path | None = None, **variables: str) -> dict[str, str]:
    """The environment for pre-commit, git and the action's scripts: PATH
    without juice-lint (or with only `extra_path`'s), nothing from _DROPPED."""
    env = {k: v for k, v in os.environ.items() if k not in _DROPPED}
    path = path_without_juice_lint()
    env["PATH"] = f"{extra_path}{os.pathsep}{path}" if extra_path else path
    env.update(variables)
    return env


def run(args: list[str], cwd: pathlib.Path, env: dict[str, str] | None = None,
        stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Runs a command to completion, capturing stdout and stderr apart."""
    return subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env if env is not None else tool_env(),
        input=stdin, capture_output=True, text=True, timeout=1800,
    )


def git(cwd: pathlib.Path, *args: str, env: dict[str, str] | None = None) -> str:
    result = run(["git", *args], cwd, env)
    assert result.returncode == 0, f"git {' '.join(args)} failed:\n{result.stderr}"
    return result.stdout


# A commit whose hash depends only on its tree, so the same sources give the
# same revision and pre-commit reuses the environment it built for them.
FIXED_COMMIT = {
    "GIT_AUTHOR_NAME": "juice-maker tests", "GIT_AUTHOR_EMAIL": "tests@juice-maker.invalid",
    "GIT_COMMITTER_NAME": "juice-maker tests", "GIT_COMMITTER_EMAIL": "tests@juice-maker.invalid",
    "GIT_AUTHOR_DATE": "2000-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2000-01-01T00:00:00Z",
}


def commit_all(repo: pathlib.Path, message: str = "snapshot") -> str:
    """Stages everything in `repo` and commits it with FIXED_COMMIT; returns the hash."""
    git(repo, "add", "-A")
    git(repo, "-c", "commit.gpgsign=false", "commit", "-q", "--no-verify", "-m", message,
        env=tool_env(**FIXED_COMMIT))
    return git(repo, "rev-parse", "HEAD").strip()


def init_repo(root: pathlib.Path) -> pathlib.Path:
    root.mkdir(parents=True, exist_ok=True)
    git(root, "-c", "init.defaultBranch=main", "init", "-q")
    return root


def book_repo(root: pathlib.Path, edits: dict[str, tuple[str, str]] | None = None) -> pathlib.Path:
    """A throwaway git repository holding a copy of the canonical book under
    `recipes/`, with `edits` (file name -> (old, new), each replaced exactly
    once) applied, all committed."""
    init_repo(root)
    (root / "recipes").mkdir()
    for source in sorted(CANONICAL.glob("*.yaml")):
        text = source.read_text(encoding="utf-8")
        old, new = (edits or {}).get(source.name, ("", ""))
        if old:
            assert text.count(old) == 1, f"{old!r} is not in {source.name} exactly once"
            text = text.replace(old, new)
        (root / "recipes" / source.name).write_text(text, encoding="utf-8")
    commit_all(root, "book")
    return root


# The mistakes the tests make in the canonical book, and what juice-lint says.
TYPO = {"menu.yaml": ("recipe: { mango: 2, kiwi: 1 }", "recipe: { mangoo: 2, kiwi: 1 }")}
TYPO_DIAGNOSTIC = """\
recipes/menu.yaml:26:15: error: unknown fruit 'mangoo' [unknown-fruit]
   |
26 |     recipe: { mangoo: 2, kiwi: 1 }
   |               ^~~~~~
   = help: did you mean 'mango'?
"""
UNUSED = {"fruits.yaml": ("  mango: { label: 망고, emoji: 🥭 }\n", "  mango: { label: 망고, emoji: 🥭 }\n  durian:\n")}
UNUSED_DIAGNOSTIC = """\
recipes/fruits.yaml:10:3: warning: fruit 'durian' is not used by any menu item [unused-fruit]
   |
10 |   durian:
   |   ^~~~~~
   = help: use it in a recipe, or remove it from 'fruits'
"""


def readme() -> str:
    return (REPO / "README.md").read_text(encoding="utf-8")


def fenced_blocks(text: str, language: str) -> list[str]:
    """The bodies of the README's ```language blocks, in order."""
    blocks, inside, body = [], False, []
    for line in text.splitlines(keepends=True):
        if not inside and line.rstrip("\n") == "```" + language:
            inside, body = True, []
        elif inside and line.rstrip("\n") == "```":
            inside = False
            blocks.append("".join(body))
        elif inside:
            body.append(line)
    return blocks


def copy_tree_files(source: pathlib.Path, names: list[str], destination: pathlib.Path) -> None:
    """Copies the named files (paths relative to source) that exist, keeping modes."""
    for name in names:
        origin = source / name
        if not origin.is_file() and not origin.is_symlink():
            continue
        target = destination / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(origin, target, follow_symlinks=False)
