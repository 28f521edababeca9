"""action.yml and the README's workflow: actionlint checks the workflow and,
through a copy that says `uses: ./`, the action's inputs; the action's own
scripts, which actionlint does not read, are checked by shellcheck and run
here with bash against the binary under test."""

from __future__ import annotations

import json
import os
import pathlib
import shutil

import yaml

from support import (
    BINARY, REPO, TYPO, UNUSED, VENV_BIN, book_repo, fenced_blocks, git, init_repo, readme, run, tool_env,
)

ACTION = REPO / "action.yml"
SAMPLE = REPO / "docs" / "examples" / "github-workflow.yml"
PLACEHOLDER = "uses: OWNER/juice-maker@REF"


def action() -> dict:
    return yaml.safe_load(ACTION.read_text(encoding="utf-8"))


def step(name: str) -> dict:
    [found] = [s for s in action()["runs"]["steps"] if s.get("name") == name]
    return found


def actionlint(repo: pathlib.Path):
    """actionlint on every workflow of `repo`, one line per error, with
    shellcheck (installed by `make tools-test-setup`) on each `run:` script.
    pyflakes is off: the workflow has no Python scripts."""
    shellcheck = shutil.which("shellcheck")
    assert shellcheck, "shellcheck is not installed: run `make tools-test-setup`"
    return run([VENV_BIN / "actionlint", "-oneline", "-no-color", f"-shellcheck={shellcheck}", "-pyflakes="],
               repo)


def workflow_repo(root: pathlib.Path, workflow: str, action_text: str | None = None) -> pathlib.Path:
    """A git repository with `workflow` as its only workflow, and action.yml
    at its root when given (what `uses: ./` reads)."""
    init_repo(root)
    (root / ".github" / "workflows").mkdir(parents=True)
    (root / ".github" / "workflows" / "juice-lint.yml").write_text(workflow, encoding="utf-8")
    if action_text is not None:
        (root / "action.yml").write_text(action_text, encoding="utf-8")
    return root


def local_sample() -> str:
    """The sample workflow using this checkout's action.yml."""
    text = SAMPLE.read_text(encoding="utf-8")
    assert text.count(PLACEHOLDER) == 1
    return text.replace(PLACEHOLDER, "uses: ./")


# MARK: actionlint

def test_readme_shows_the_sample_workflow_as_it_is():
    assert fenced_blocks(readme(), "yaml").count(SAMPLE.read_text(encoding="utf-8")) == 1


def test_actionlint_passes_the_sample_workflow(tmp_path):
    result = actionlint(workflow_repo(tmp_path / "repo", SAMPLE.read_text(encoding="utf-8")))
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_actionlint_passes_the_sample_with_this_action(tmp_path):
    action_text = ACTION.read_text(encoding="utf-8")
    result = actionlint(workflow_repo(tmp_path / "repo", local_sample(), action_text))
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_actionlint_fails_an_input_the_action_does_not_have(tmp_path):
    broken = local_sample().replace("          strict: true\n", "          strictt: true\n")
    result = actionlint(workflow_repo(tmp_path / "repo", broken, ACTION.read_text(encoding="utf-8")))
    assert result.returncode == 1
    assert result.stdout == (
        '.github/workflows/juice-lint.yml:16:11: input "strictt" is not defined in action "juice-lint" '
        'defined at "./". available inputs are "paths", "sarif", "strict" [action]\n'
    )


def test_actionlint_fails_a_broken_action(tmp_path):
    broken = ACTION.read_text(encoding="utf-8").replace("  using: composite\n", "  using: composit\n")
    repo = workflow_repo(tmp_path / "repo", local_sample(), broken)
    result = actionlint(repo)
    assert result.returncode == 1
    assert result.stdout == (
        f'.github/workflows/juice-lint.yml:13:15: invalid runner name "composit" at runs.using in "juice-lint" '
        f'action defined at "{repo}". valid runners are "composite", "docker", "node12", "node16", "node20", '
        '"node24". see https://docs.github.com/en/actions/creating-actions/metadata-syntax-for-github-actions#runs '
        '[action]\n'
    )


# MARK: The action's definition

def test_action_inputs():
    assert action()["inputs"] == {
        "paths": {"description": "Files or folders to lint, separated by spaces or new lines. A book is a whole folder.",
                  "required": False, "default": "recipes"},
        "strict": {"description": "'true' to fail on warnings too (juice-lint --strict).",
                   "required": False, "default": "false"},
        "sarif": {"description": "When set, also write SARIF 2.1.0 to this file, for github/codeql-action/upload-sarif.",
                  "required": False, "default": ""},
    }
    assert action()["runs"]["using"] == "composite"


def test_action_scripts_take_inputs_only_through_env():
    """An expression inside a script is pasted into it before bash reads it,
    so an input holding `"; rm -rf ~` would run: inputs go through env."""
    scripts = [s for s in action()["runs"]["steps"] if "run" in s]
    assert [s["name"] for s in scripts] == [
        "Install libyaml", "Compute the build cache key", "Build juice-lint", "Run juice-lint",
    ]
    for s in scripts:
        assert s["shell"] == "bash"
        assert "${{" not in s["run"], s["name"]
    assert step("Run juice-lint")["env"] == {
        "JUICE_LINT_PATHS": "${{ inputs.paths }}",
        "JUICE_LINT_STRICT": "${{ inputs.strict }}",
        "JUICE_LINT_SARIF": "${{ inputs.sarif }}",
    }


def test_action_scripts_pass_shellcheck():
    for s in action()["runs"]["steps"]:
        if "run" in s:
            result = run(["shellcheck", "--shell=bash", "-"], REPO, stdin=s["run"])
            assert (result.returncode, result.stdout) == (0, ""), s["name"]


def test_action_caches_the_build_on_the_computed_key():
    cache = [s for s in action()["runs"]["steps"] if s.get("uses", "").startswith("actions/cache@")]
    assert [c["with"] for c in cache] == [{
        "path": "${{ github.action_path }}/.build",
        "key": "juice-lint-${{ runner.os }}-${{ runner.arch }}-${{ steps.cache-key.outputs.toolchain }}"
               "-${{ steps.cache-key.outputs.sources }}",
        "restore-keys": "juice-lint-${{ runner.os }}-${{ runner.arch }}-${{ steps.cache-key.outputs.toolchain }}-",
    }]


# MARK: The action's scripts, run

def run_step(name: str, cwd: pathlib.Path, action_path: pathlib.Path, **env: str):
    """Runs one step's script as the runner does (`bash -e -o pipefail`)."""
    variables = {"GITHUB_ACTION_PATH": str(action_path), "RUNNER_OS": "Linux", **env}
    return run(["bash", "--noprofile", "--norc", "-e", "-o", "pipefail", "-c", step(name)["run"]], cwd,
               tool_env(**variables))


def fake_action_path(tmp_path: pathlib.Path) -> pathlib.Path:
    """An action folder whose release build is the binary under test."""
    folder = tmp_path / "action"
    (folder / ".build" / "release").mkdir(parents=True)
    (folder / ".build" / "release" / "juice-lint").symlink_to(BINARY)
    return folder


def lint(book: pathlib.Path, *args: str):
    return run([BINARY, *args], book, tool_env())


def inputs(paths: str = "recipes", strict: str = "false", sarif: str = "") -> dict[str, str]:
    """What the runner puts in env for the `with:` values (the defaults when absent)."""
    return {"JUICE_LINT_PATHS": paths, "JUICE_LINT_STRICT": strict, "JUICE_LINT_SARIF": sarif}


def test_run_step_with_defaults_prints_github_commands(tmp_path):
    book = book_repo(tmp_path / "book", UNUSED)
    result = run_step("Run juice-lint", book, fake_action_path(tmp_path), **inputs())
    direct = lint(book, "--format", "github", "recipes")
    assert result.returncode == 0
    assert (result.stdout, result.stderr) == (direct.stdout, direct.stderr)
    assert "::warning file=recipes/fruits.yaml,line=10,col=3," in result.stdout


def test_run_step_strict_fails_a_warning(tmp_path):
    book = book_repo(tmp_path / "book", UNUSED)
    result = run_step("Run juice-lint", book, fake_action_path(tmp_path), **inputs(strict="true"))
    direct = lint(book, "--format", "github", "--strict", "recipes")
    assert result.returncode == 1
    assert (result.stdout, result.stderr) == (direct.stdout, direct.stderr)


def test_run_step_refuses_a_strict_that_is_not_a_boolean(tmp_path):
    book = book_repo(tmp_path / "book")
    result = run_step("Run juice-lint", book, fake_action_path(tmp_path), **inputs(strict="yes"))
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == "juice-lint action: input 'strict' must be 'true' or 'false', not 'yes'\n"


def test_run_step_refuses_empty_paths(tmp_path):
    book = book_repo(tmp_path / "book")
    result = run_step("Run juice-lint", book, fake_action_path(tmp_path), **inputs(paths=" \n "))
    assert (result.returncode, result.stdout, result.stderr) == (2, "", "juice-lint action: input 'paths' is empty\n")


def test_run_step_takes_paths_on_lines_and_words(tmp_path):
    book = book_repo(tmp_path / "book", TYPO)
    result = run_step("Run juice-lint", book, fake_action_path(tmp_path),
                      **inputs(paths="recipes/fruits.yaml\nrecipes/menu.yaml  -odd"))
    direct = lint(book, "--format", "github", "--", "recipes/fruits.yaml", "recipes/menu.yaml", "-odd")
    assert result.returncode == 2
    assert (result.stdout, result.stderr) == (direct.stdout, direct.stderr)
    assert "juice-lint: error: no such file or directory: '-odd'\n" in result.stderr


def test_run_step_writes_sarif_and_still_annotates(tmp_path):
    book = book_repo(tmp_path / "book", TYPO)
    result = run_step("Run juice-lint", book, fake_action_path(tmp_path), **inputs(sarif="out/juice-lint.sarif"))
    # The SARIF run's exit code 1 is left to the annotating run that follows.
    direct = lint(book, "--format", "github", "recipes")
    assert result.returncode == 1
    assert (result.stdout, result.stderr) == (direct.stdout, direct.stderr * 2)
    written = json.loads((book / "out" / "juice-lint.sarif").read_text(encoding="utf-8"))
    expected = lint(book, "--format", "sarif", "recipes")
    assert written == json.loads(expected.stdout)
    assert [r["ruleId"] for r in written["runs"][0]["results"]] == ["never-makeable", "unknown-fruit"]


def test_run_step_stops_when_the_sarif_run_cannot_start(tmp_path):
    book = book_repo(tmp_path / "book")
    result = run_step("Run juice-lint", book, fake_action_path(tmp_path),
                      **inputs(paths="nowhere", sarif="juice-lint.sarif"))
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == "juice-lint: error: no such file or directory: 'nowhere'\n"


def test_cache_key_follows_the_sources_not_the_folder(tmp_path):
    def key(folder: pathlib.Path) -> dict[str, str]:
        output = tmp_path / f"output-{folder.name}"
        output.write_text("", encoding="utf-8")
        result = run_step("Compute the build cache key", folder, folder, GITHUB_OUTPUT=str(output))
        assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
        return dict(line.split("=", 1) for line in output.read_text(encoding="utf-8").splitlines())

    copies = []
    for name in ("one", "two"):
        folder = tmp_path / name
        shutil.copytree(REPO / "Sources", folder / "Sources")
        shutil.copy2(REPO / "Package.swift", folder / "Package.swift")
        copies.append(folder)
    first, second = key(copies[0]), key(copies[1])
    assert sorted(first) == ["sources", "toolchain"]
    assert len(first["toolchain"]) == 16 and len(first["sources"]) == 64
    assert first == second
    with (copies[1] / "Sources" / "juice-lint" / "JuiceLint.swift").open("a", encoding="utf-8") as f:
        f.write("\n")
    changed = key(copies[1])
    assert changed["toolchain"] == first["toolchain"] and changed["sources"] != first["sources"]


def test_install_step_refuses_other_runners(tmp_path):
    result = run_step("Install libyaml", tmp_path, tmp_path, RUNNER_OS="Windows")
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == "juice-lint action: runs on Linux and macOS runners, not Windows\n"
