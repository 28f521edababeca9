"""Which files make a book, and `.juice-lint.yaml`: over the raw protocol,
since each case needs its own folder before `initialize`."""

import shutil

import pytest

from support import CANONICAL, RawServer, canonical_text, span


@pytest.fixture
def server():
    raw = RawServer()
    yield raw
    raw.kill()


def never_makeable_range() -> dict:
    return span(canonical_text("menu.yaml"), "  strawberry-juice:", part="strawberry-juice")


def open_with_typo(server: RawServer, path):
    """Opens menu.yaml with `mangoo` for `mango`: a publication for it is
    then certain, whatever else the book reports."""
    text = canonical_text("menu.yaml").replace("{ mango: 3 }", "{ mangoo: 3 }")
    server.notify("textDocument/didOpen", {"textDocument": {
        "uri": path.as_uri(), "languageId": "yaml", "version": 1, "text": text}})


def has_code(code):
    return lambda diagnostics: any(d.get("code") == code for d in diagnostics)


def test_a_folder_without_recipes_is_the_book(server, tmp_path):
    for name in ("fruits.yaml", "menu.yaml"):
        shutil.copyfile(CANONICAL / name, tmp_path / name)
    server.initialize(tmp_path)
    [info] = server.diagnostics((tmp_path / "menu.yaml").as_uri(), has_code("never-makeable"))
    assert info["range"] == never_makeable_range()


def test_root_uri_without_workspace_folders(server, tmp_path):
    (tmp_path / "recipes").mkdir()
    for name in ("fruits.yaml", "menu.yaml"):
        shutil.copyfile(CANONICAL / name, tmp_path / "recipes" / name)
    server.initialize(tmp_path, folders=False)
    [info] = server.diagnostics((tmp_path / "recipes" / "menu.yaml").as_uri(), has_code("never-makeable"))
    assert info["range"] == never_makeable_range()


def test_files_in_subfolders_count_and_hidden_ones_do_not(server, tmp_path):
    recipes = tmp_path / "recipes"
    (recipes / "drinks").mkdir(parents=True)
    (recipes / ".drafts").mkdir()
    shutil.copyfile(CANONICAL / "fruits.yaml", recipes / "fruits.yaml")
    shutil.copyfile(CANONICAL / "menu.yaml", recipes / "drinks" / "menu.yml")
    (recipes / ".drafts" / "draft.yaml").write_text("menu:\n  draft-juice:\n    recipe: { durian: 1 }\n")
    (recipes / ".hidden.yaml").write_text("menu:\n  hidden-juice:\n    recipe: { durian: 1 }\n")
    server.initialize(tmp_path)
    # menu.yml, two folders down, is linked against fruits.yaml: its only
    # diagnostic is the info, not unknown fruits.
    [info] = server.diagnostics((recipes / "drinks" / "menu.yml").as_uri(), lambda ds: len(ds) > 0)
    assert info["code"] == "never-makeable"
    open_with_typo(server, recipes / "drinks" / "menu.yml")
    server.diagnostics((recipes / "drinks" / "menu.yml").as_uri(), has_code("unknown-fruit"))
    published = {m["params"]["uri"] for m in server.notifications if m["method"] == "textDocument/publishDiagnostics"}
    assert (recipes / ".drafts" / "draft.yaml").as_uri() not in published
    assert (recipes / ".hidden.yaml").as_uri() not in published


@pytest.mark.parametrize("level, severity", [("warning", 2), ("error", 1), ("off", None)])
def test_rule_levels_from_juice_lint_yaml(server, tmp_path, level, severity):
    (tmp_path / "recipes").mkdir()
    for name in ("fruits.yaml", "menu.yaml"):
        shutil.copyfile(CANONICAL / name, tmp_path / "recipes" / name)
    (tmp_path / ".juice-lint.yaml").write_text(f"rules:\n  never-makeable: {level}\n")
    server.initialize(tmp_path)
    menu = tmp_path / "recipes" / "menu.yaml"
    open_with_typo(server, menu)
    diagnostics = server.diagnostics(menu.as_uri(), has_code("unknown-fruit"))
    found = [d for d in diagnostics if d["code"] == "never-makeable"]
    if severity is None:
        assert found == [], diagnostics
    else:
        [info] = found
        assert info["severity"] == severity and info["range"] == never_makeable_range()


def copy_to(folder):
    (folder / "recipes").mkdir(parents=True)
    for name in ("fruits.yaml", "menu.yaml"):
        shutil.copyfile(CANONICAL / name, folder / "recipes" / name)
    return folder


def test_two_folders_are_two_books(server, tmp_path):
    a, b = copy_to(tmp_path / "a"), copy_to(tmp_path / "b")
    # b has no kiwi: its menu has unknown fruits, a's does not.
    fruits_b = b / "recipes" / "fruits.yaml"
    fruits_b.write_text(canonical_text("fruits.yaml").replace("  kiwi: { label: 키위, emoji: 🥝 }\n", "").replace("  kiwi: 10\n", ""))
    answer = server.request(0, "initialize", {"processId": None, "capabilities": {}, "rootUri": a.as_uri(),
                                              "workspaceFolders": [{"uri": a.as_uri(), "name": "a"}, {"uri": b.as_uri(), "name": "b"}]})
    assert "result" in answer
    server.notify("initialized", {})
    server.diagnostics((b / "recipes" / "menu.yaml").as_uri(), lambda ds: sum(d["code"] == "unknown-fruit" for d in ds) == 2)
    [info] = server.diagnostics((a / "recipes" / "menu.yaml").as_uri(), lambda ds: len(ds) > 0)
    assert info["code"] == "never-makeable"
    symbols = server.request(1, "workspace/symbol", {"query": "mango-kiwi-juice"})["result"]
    assert sorted(s["location"]["uri"] for s in symbols) == sorted(
        [(a / "recipes" / "menu.yaml").as_uri(), (b / "recipes" / "menu.yaml").as_uri()])


def test_workspace_folders_added_and_removed(server, tmp_path):
    a, b = copy_to(tmp_path / "a"), copy_to(tmp_path / "b")
    server.initialize(a)
    menu_b = (b / "recipes" / "menu.yaml").as_uri()
    server.notify("workspace/didChangeWorkspaceFolders", {"event": {"added": [{"uri": b.as_uri(), "name": "b"}], "removed": []}})
    server.diagnostics(menu_b, has_code("never-makeable"))
    server.notify("workspace/didChangeWorkspaceFolders", {"event": {"added": [], "removed": [{"uri": b.as_uri(), "name": "b"}]}})
    server.diagnostics(menu_b, lambda ds: ds == [])
    assert server.request(1, "workspace/symbol", {"query": "mango-kiwi-juice"})["result"][0]["location"]["uri"] == \
        (a / "recipes" / "menu.yaml").as_uri()
    assert len(server.request(2, "workspace/symbol", {"query": "mango-kiwi-juice"})["result"]) == 1
