"""Session fixtures: this repository as pre-commit sees it, built once.

pre-commit keys the environments it builds on (repository, revision). The
session copies the working tree (tracked and untracked files that git does
not ignore) into a repository under .build/tools-test and commits it with a
fixed author and date, so unchanged sources give the same revision and a
later run reuses the `swift build -c release` that pre-commit ran for it;
`pre-commit gc` then drops the environments of older revisions.

`pre-commit try-repo` always builds in a temporary store of its own, so the
test that runs it pays for one more build each session."""

from __future__ import annotations

import dataclasses
import pathlib
import shutil
import sys
import time

import pytest

from support import BINARY, REPO, WORK, commit_all, copy_tree_files, git, init_repo, run, tool_env

# The configs the tests run; see HookRepo.write_config.
CONFIGS = WORK / "configs"

HOOK_IDS = ("juice-lint", "juice-lint-strict", "juice-lint-system", "juice-lint-strict-system")


def pytest_configure(config):
    if not BINARY.is_file():
        raise pytest.UsageError(f"{BINARY} is not built: run `swift build` (or `make build`) first")


@dataclasses.dataclass(frozen=True)
class HookRepo:
    """This repository's snapshot, and the pre-commit home that has its hooks built."""
    path: pathlib.Path
    rev: str
    home: pathlib.Path

    def config(self, hook_ids=HOOK_IDS) -> str:
        hooks = "".join(f"      - id: {h}\n" for h in hook_ids)
        return f"repos:\n  - repo: {self.path}\n    rev: {self.rev}\n    hooks:\n{hooks}"

    def write_config(self, name: str, hook_ids=HOOK_IDS, text: str | None = None) -> pathlib.Path:
        """A config for this repository (or `text`) in CONFIGS, which each
        session empties: pre-commit records every config it runs, and
        `pre-commit gc` keeps the environments of those that still exist."""
        path = CONFIGS / f"{name}.yaml"
        path.write_text(self.config(hook_ids) if text is None else text, encoding="utf-8")
        return path

    def pre_commit(self, args: list[str], cwd: pathlib.Path, extra_path: pathlib.Path | None = None):
        """Runs the venv's pre-commit with this session's home."""
        env = tool_env(extra_path=extra_path, PRE_COMMIT_HOME=str(self.home), PRE_COMMIT_COLOR="never")
        return run([sys.executable, "-m", "pre_commit", *args], cwd, env)


def snapshot(destination: pathlib.Path) -> str:
    """Copies the working tree's files that git would take into a fresh
    repository at `destination` and commits them; returns the revision."""
    shutil.rmtree(destination, ignore_errors=True)
    init_repo(destination)
    names = git(REPO, "ls-files", "-z", "--cached", "--others", "--exclude-standard").split("\0")
    copy_tree_files(REPO, [n for n in names if n], destination)
    return commit_all(destination)


@pytest.fixture(scope="session")
def hook_snapshot() -> HookRepo:
    """This repository as a pre-commit hook repository; nothing built yet
    (enough for the `language: system` hooks)."""
    shutil.rmtree(CONFIGS, ignore_errors=True)
    CONFIGS.mkdir(parents=True)
    path = WORK / "hook-repo"
    return HookRepo(path=path, rev=snapshot(path), home=WORK / "pre-commit-home")


@pytest.fixture(scope="session")
def hook_repo(hook_snapshot: HookRepo, request) -> HookRepo:
    """The snapshot with its `language: swift` environment built (or
    reused) by `pre-commit install-hooks`, once per session."""
    repo = hook_snapshot
    config = repo.write_config("install-hooks")
    started = time.monotonic()
    installed = repo.pre_commit(["install-hooks", "--config", str(config)], cwd=repo.path)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    elapsed = time.monotonic() - started
    collected = repo.pre_commit(["gc"], cwd=repo.path)
    assert collected.returncode == 0, collected.stdout + collected.stderr
    built = "built" if "Installing environment" in installed.stdout + installed.stderr else "reused"
    with request.config.pluginmanager.getplugin("capturemanager").global_and_fixture_disabled():
        print(f"\npre-commit: swift hook environment for {repo.rev[:12]} {built} in {elapsed:.0f} s")
    return repo


@pytest.fixture
def juice_lint_on_path(tmp_path) -> pathlib.Path:
    """A folder holding only `juice-lint`, the binary under test."""
    folder = tmp_path / "bin"
    folder.mkdir()
    (folder / "juice-lint").symlink_to(BINARY)
    return folder
