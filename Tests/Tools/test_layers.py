"""The layering rules of ARCHITECTURE.md, checked on the sources.

Package.swift lists the library layers in the order data flows and makes each
depend on the ones before it; these tests fail when a source file imports a
later layer (SwiftPM can let a target import a module it does not declare
when that module happens to be built first), when thread code or
`@unchecked Sendable` appears outside the driver layer, or when a file or a
type grows past the size the house holds it to.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "Sources"

# The flow order; the same list as `layers` in Package.swift.
LAYERS = [
    "JuiceSupport",
    "JuiceSource",
    "JuiceDiagnostics",
    "JuiceYAML",
    "JuiceBook",
    "JuiceEngine",
    "JuiceSimulation",
    "JuiceLint",
    "JuiceLanguageServer",
    "JuiceCommandLine",
]
# The driver layer: the command line module and the two executables on it.
DRIVER = {"JuiceCommandLine", "juice-lint", "juice-run"}
EXECUTABLES = ["juice-lint", "juice-run"]

IMPORT = re.compile(r"^\s*(?:@_spi\(\w+\)\s+)?(?:@testable\s+|@_exported\s+)?(?:(?:public|package|internal|private|fileprivate)\s+)?import\s+(?:(?:struct|class|enum|func|var|let|protocol|typealias)\s+)?(\w+)", re.M)
THREADS = re.compile(r"\b(Dispatch\w*|concurrentPerform|Thread|pthread\w*)\b")


def swift_files(module):
    return sorted((SOURCES / module).rglob("*.swift"))


def code_only(text):
    """The text with comments and string literals blanked, so a doc comment
    that names `DispatchQueue` is not thread code."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'"""(?:.|\n)*?"""', '""', text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    return re.sub(r"//[^\n]*", "", text)


def test_package_lists_the_layers_in_flow_order():
    package = (ROOT / "Package.swift").read_text()
    listed = re.findall(r'^\s*\("(Juice\w+)",', package, re.M)
    assert listed == LAYERS
    # Every layer folder exists and nothing else sits beside them unlisted.
    folders = sorted(p.name for p in SOURCES.iterdir() if p.is_dir())
    assert sorted(LAYERS + EXECUTABLES + ["CYAML"]) == folders


@pytest.mark.parametrize("module", LAYERS + EXECUTABLES)
def test_no_module_imports_a_later_layer(module):
    own = LAYERS.index(module) if module in LAYERS else len(LAYERS)
    wrong = []
    for path in swift_files(module):
        for name in IMPORT.findall(path.read_text()):
            if name == "CYAML" and module != "JuiceYAML":
                wrong.append(f"{path.relative_to(ROOT)}: imports CYAML (libyaml stays behind JuiceYAML)")
            if name in LAYERS and LAYERS.index(name) >= own:
                wrong.append(f"{path.relative_to(ROOT)}: {module} imports {name}")
    assert wrong == []


def test_libyaml_is_imported_privately():
    for path in swift_files("JuiceYAML"):
        for line in path.read_text().splitlines():
            if re.match(r"^\s*(?:@\w+\s+)?(?:public\s+|package\s+)?import\s+CYAML", line):
                assert line.strip().startswith("internal import CYAML"), f"{path.relative_to(ROOT)}: {line}"


def test_thread_code_lives_only_in_the_driver():
    found = []
    for module in LAYERS:
        if module in DRIVER:
            continue
        for path in swift_files(module):
            for number, line in enumerate(code_only(path.read_text()).splitlines(), 1):
                if THREADS.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


def test_no_unchecked_sendable_anywhere():
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted(SOURCES.rglob("*.swift"))
        for number, line in enumerate(code_only(path.read_text()).splitlines(), 1)
        if "@unchecked" in line
    ]
    assert found == []


def test_no_file_is_over_400_lines():
    long = {
        str(path.relative_to(ROOT)): count
        for path in sorted(SOURCES.rglob("*.swift"))
        if (count := len(path.read_text().splitlines())) > 400
    }
    assert long == {}


def test_no_type_with_its_extensions_is_over_1000_lines():
    # `Type.swift` and `Type+Feature.swift` hold one type (STYLE.md).
    sizes = {}
    for path in sorted(SOURCES.rglob("*.swift")):
        owner = path.parent.relative_to(SOURCES).parts[0] + ":" + path.stem.split("+")[0]
        sizes[owner] = sizes.get(owner, 0) + len(path.read_text().splitlines())
    assert {owner: size for owner, size in sizes.items() if size > 1000} == {}


def test_the_checks_can_fail():
    # A later import, thread code and an unchecked promise are each caught.
    assert IMPORT.findall("@testable import JuiceLint\ninternal import CYAML\n") == ["JuiceLint", "CYAML"]
    assert THREADS.search(code_only("DispatchQueue.concurrentPerform(iterations: 2) { _ in }"))
    assert not THREADS.search(code_only("/// runs on another `Thread` in the driver\nlet x = \"pthread\""))
