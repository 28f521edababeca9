"""The hooks in .pre-commit-hooks.yaml, run by the real pre-commit on
throwaway repositories: `language: swift` builds juice-lint from this
repository, `language: system` runs the one on PATH, and either fails a
broken book with juice-lint's own report and passes a sound one."""

from __future__ import annotations

import pathlib
import sys

import yaml
from pre_commit.store import Store

from conftest import HOOK_IDS, HookRepo
from support import (
    BINARY, REPO, TYPO, TYPO_DIAGNOSTIC, UNUSED, UNUSED_DIAGNOSTIC, book_repo, commit_all, fenced_blocks,
    init_repo, readme, run, tool_env,
)

COLUMNS = 79  # pre-commit's line width when it cannot ask a terminal


def status_line(name: str, status: str, skipped: bool = False) -> str:
    """pre-commit's line for one hook: the name, dots, and the status."""
    tail = ("(no files to check)" if skipped else "") + status
    return name + "." * (COLUMNS - len(name) - len(tail)) + tail + "\n"


def failure(name: str, hook_id: str, output: str, code: int = 1) -> str:
    """pre-commit's report of a failed hook: its line, id, exit code, the
    hook's output (stdout and stderr as written) and a blank line."""
    return status_line(name, "Failed") + f"- hook id: {hook_id}\n- exit code: {code}\n\n" + output + "\n"


def report(book, *args: str) -> str:
    """What the binary under test prints for the book, stdout then its
    summary on stderr, as a hook's output shows it."""
    result = run([BINARY, *args], book, tool_env())
    return result.stdout + result.stderr


# What pre-commit logs while it clones and builds a hook repository: only
# the first run of a revision prints it, so the tests leave these lines out.
SETUP_LOG = (
    "[INFO] Initializing environment for ", "[INFO] Installing environment for ",
    "[INFO] Once installed this environment will be reused.", "[INFO] This may take a few minutes...",
)


def hook_output(result) -> str:
    """pre-commit's stdout (or the given text) less its setup log lines,
    which come first."""
    lines = (result if isinstance(result, str) else result.stdout).splitlines(keepends=True)
    while lines and lines[0].startswith(SETUP_LOG):
        lines.pop(0)
    return "".join(lines)




def test_manifest_is_valid_for_pre_commit():
    result = run([sys.executable, "-m", "pre_commit", "validate-manifest", ".pre-commit-hooks.yaml"], REPO)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert [(h["id"], h["language"], h["args"]) for h in hooks] == [
        ("juice-lint", "swift", ["recipes"]),
        ("juice-lint-strict", "swift", ["--strict", "recipes"]),
        ("juice-lint-system", "system", ["recipes"]),
        ("juice-lint-strict-system", "system", ["--strict", "recipes"]),
    ]
    # A book is a folder: the hooks lint it whole, not the changed files.
    assert all(h["pass_filenames"] is False and h["entry"] == "juice-lint" for h in hooks)


def broken_book(root):
    """A throwaway repository whose book has a typo, and juice-lint's report of it."""
    book = book_repo(root, TYPO)
    output = report(book, "recipes")
    assert output.count(TYPO_DIAGNOSTIC) == 1 and output.endswith("files: 2, errors: 1, warnings: 0, infos: 1\n")
    return book, output


def test_try_repo_builds_the_hook_and_fails_a_broken_book(tmp_path):
    """The issue's command, as a user would type it, with this repository
    (its working tree: try-repo commits uncommitted changes to a temporary
    clone) and no juice-lint on PATH, so the hook can only pass or fail
    with the binary pre-commit built."""
    book, output = broken_book(tmp_path / "book")
    result = run([sys.executable, "-m", "pre_commit", "try-repo", REPO, "juice-lint", "--all-files"], book,
                 tool_env(PRE_COMMIT_COLOR="never"))
    assert result.returncode == 1, result.stdout + result.stderr
    # try-repo first prints the config it made, between rules of '='.
    config, rule, hooks = result.stdout.rpartition("=" * COLUMNS + "\n")
    assert rule and "Using config:" in config and "    -   id: juice-lint\n" in config
    assert hook_output(hooks) == failure("juice-lint", "juice-lint", output)


def run_hooks(repo: HookRepo, tmp_path, book, hook_ids, extra_path=None):
    config = repo.write_config(tmp_path.name, hook_ids)
    return repo.pre_commit(["run", "--config", str(config), "--all-files"], book, extra_path)


def test_swift_hooks_pass_a_sound_book(hook_repo: HookRepo, tmp_path):
    result = run_hooks(hook_repo, tmp_path, book_repo(tmp_path / "book"), ["juice-lint", "juice-lint-strict"])
    assert (result.returncode, result.stderr) == (0, "")
    assert hook_output(result) == status_line("juice-lint", "Passed") + status_line("juice-lint (strict)", "Passed")


def test_swift_hooks_fail_a_broken_book(hook_repo: HookRepo, tmp_path):
    book, output = broken_book(tmp_path / "book")
    result = run_hooks(hook_repo, tmp_path, book, ["juice-lint", "juice-lint-strict"])
    assert (result.returncode, result.stderr) == (1, "")
    assert hook_output(result) == (
        failure("juice-lint", "juice-lint", output) + failure("juice-lint (strict)", "juice-lint-strict", output)
    )


def test_strict_hook_alone_fails_a_warning(hook_repo: HookRepo, tmp_path):
    book = book_repo(tmp_path / "book", UNUSED)
    output = report(book, "--strict", "recipes")
    assert output.count(UNUSED_DIAGNOSTIC) == 1 and output.endswith("files: 2, errors: 0, warnings: 1, infos: 2\n")
    result = run_hooks(hook_repo, tmp_path, book, ["juice-lint", "juice-lint-strict"])
    assert (result.returncode, result.stderr) == (1, "")
    assert hook_output(result) == (
        status_line("juice-lint", "Passed") + failure("juice-lint (strict)", "juice-lint-strict", output)
    )


def test_hooks_skip_a_commit_without_yaml(hook_repo: HookRepo, tmp_path, juice_lint_on_path):
    repo = init_repo(tmp_path / "repo")
    (repo / "README.md").write_text("no recipes here\n", encoding="utf-8")
    commit_all(repo)
    result = run_hooks(hook_repo, tmp_path, repo, HOOK_IDS, juice_lint_on_path)
    assert (result.returncode, result.stderr) == (0, "")
    assert hook_output(result) == "".join(
        status_line(name, "Skipped", skipped=True)
        for name in ("juice-lint", "juice-lint (strict)", "juice-lint", "juice-lint (strict)")
    )


def test_swift_hook_runs_the_binary_pre_commit_built(hook_repo: HookRepo):
    """The swift environment is a release build inside pre-commit's home,
    which pre-commit puts first on the hook's PATH."""
    # The store answers with the clone it already holds for (repository, revision).
    clone = pathlib.Path(Store(str(hook_repo.home)).clone(str(hook_repo.path), hook_repo.rev))
    built = clone / "swift_env-default" / ".build" / "release" / "juice-lint"
    assert built.is_file() and built.stat().st_mode & 0o111, built
    assert run([built, "--strict", "recipes"], REPO).returncode == 0


def test_system_hooks_run_the_juice_lint_on_path(hook_snapshot: HookRepo, tmp_path, juice_lint_on_path):
    hooks = ["juice-lint-system", "juice-lint-strict-system"]
    sound = run_hooks(hook_snapshot, tmp_path, book_repo(tmp_path / "sound"), hooks, juice_lint_on_path)
    assert (sound.returncode, sound.stderr) == (0, "")
    assert hook_output(sound) == status_line("juice-lint", "Passed") + status_line("juice-lint (strict)", "Passed")

    book, output = broken_book(tmp_path / "broken")
    broken = run_hooks(hook_snapshot, tmp_path, book, hooks, juice_lint_on_path)
    assert (broken.returncode, broken.stderr) == (1, "")
    assert hook_output(broken) == (
        failure("juice-lint", "juice-lint-system", output)
        + failure("juice-lint (strict)", "juice-lint-strict-system", output)
    )


def test_system_hook_without_juice_lint_on_path_says_so(hook_snapshot: HookRepo, tmp_path):
    result = run_hooks(hook_snapshot, tmp_path, book_repo(tmp_path / "book"), ["juice-lint-system"])
    assert (result.returncode, result.stderr) == (1, "")
    assert hook_output(result) == failure("juice-lint", "juice-lint-system", "Executable `juice-lint` not found\n")


# MARK: The README

def readme_pre_commit_configs() -> list[str]:
    return [b for b in fenced_blocks(readme(), "yaml") if b.startswith("repos:\n")]


def test_readme_config_names_no_tag_and_only_hooks_that_exist():
    configs = readme_pre_commit_configs()
    assert len(configs) == 1
    [entry] = yaml.safe_load(configs[0])["repos"]
    # No release is tagged (`git tag` lists nothing): the reader fills both in.
    assert (entry["repo"], entry["rev"]) == ("https://github.com/OWNER/juice-maker", "REV")
    assert [h["id"] for h in entry["hooks"]] == ["juice-lint"]
    for hook_id in HOOK_IDS:
        assert f"`{hook_id}`" in readme(), hook_id


def test_readme_config_runs_once_filled_in(hook_repo: HookRepo, tmp_path):
    [config_text] = readme_pre_commit_configs()
    filled = (config_text.replace("https://github.com/OWNER/juice-maker", str(hook_repo.path))
              .replace("rev: REV", f"rev: {hook_repo.rev}"))
    assert filled.count(hook_repo.rev) == 1 and "OWNER" not in filled
    config = hook_repo.write_config(tmp_path.name, text=filled)
    book, output = broken_book(tmp_path / "book")
    result = hook_repo.pre_commit(["run", "--config", str(config), "--all-files"], book)
    assert (result.returncode, result.stderr) == (1, "")
    assert hook_output(result) == failure("juice-lint", "juice-lint", output)
