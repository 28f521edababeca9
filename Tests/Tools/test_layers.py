"""The layering rules of ARCHITECTURE.md, checked on the sources.

Package.swift lists the library layers in the order data flows, each with the
modules it imports; these tests fail when a source file imports a later layer
or a module its target does not declare (SwiftPM can let a target import a
module it does not declare when that module happens to be built first), when
a target declares a Juice module none of its files imports, when lint,
simulation and the language server stop being siblings, when thread code,
`Synchronization` or `@unchecked Sendable` appears outside the driver layer
(or the files ARCHITECTURE.md justifies), or when a file or a type grows past
the size the house holds it to.
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
    "JuiceShop",
    "JuiceSimulation",
    "JuiceLint",
    "JuiceLanguageServer",
    "JuiceCommandLine",
]
# The server's package (Server/Package.swift): its layers after the tools',
# in flow order, and its executable. Only it depends on the server's libraries.
SERVER = ROOT / "Server"
SERVER_LAYERS = ["JuiceStore", "JuiceServer"]
SERVER_EXECUTABLES = ["juice-serve"]
SERVER_TEST_TARGETS = {"ServerTests": "Server/Tests/ServerTests"}
# The driver layer: the command line module and the two executables on it.
DRIVER = {"JuiceCommandLine", "juice-lint", "juice-run"}
EXECUTABLES = ["juice-lint", "juice-run"]
# Test targets and where their sources are.
TEST_TARGETS = {"JuiceKitTests": "Tests/JuiceKitTests", "EndToEndTests": "Tests/EndToEndTests"}
# Products of other packages, as Package.swift names them, and the module each gives.
PRODUCTS = {
    "argumentParser": "ArgumentParser", "hummingbird": "Hummingbird", "hummingbirdAuth": "HummingbirdAuth",
    "hummingbirdBcrypt": "HummingbirdBcrypt", "hummingbirdTesting": "HummingbirdTesting", "httpTypes": "HTTPTypes",
    "logging": "Logging", "serviceLifecycle": "ServiceLifecycle", "grdb": "GRDB", "postgres": "PostgresNIO",
}
# What juice-lint and juice-run must never link: the tools' package does not even name them.
SERVER_PACKAGES = ["hummingbird", "hummingbird-auth", "GRDB.swift", "postgres-nio", "swift-service-lifecycle", "swift-http-types", "swift-log"]
# Siblings: none of these may depend on another.
SIBLINGS = ["JuiceLint", "JuiceSimulation", "JuiceLanguageServer"]
# `Synchronization` outside the driver: each file is justified under
# "Shared caches behind a lock" in ARCHITECTURE.md's invariants.
SYNCHRONIZED = {
    "Sources/JuiceSupport/SuggestionIndex.swift",
    "Sources/JuiceDiagnostics/Printers/HumanDiagnosticPrinter.swift",
}

IMPORT = re.compile(r"^\s*(?:@_spi\(\w+\)\s+)?(?:@testable\s+|@_exported\s+)?(?:(?:public|package|internal|private|fileprivate)\s+)?import\s+(?:(?:struct|class|enum|func|var|let|protocol|typealias)\s+)?(\w+)", re.M)
THREADS = re.compile(r"\b(Dispatch\w*|concurrentPerform|Thread|pthread\w*)\b")
SYNCHRONIZATION = re.compile(r"\b(Synchronization|Mutex|Atomic)\b")
# Modules that are not targets of this package, which a target may import
# without declaring them.
SYSTEM = {"Foundation", "FoundationEssentials", "Glibc", "Darwin", "Dispatch", "Testing", "XCTest", "Synchronization"}


def swift_files(module):
    return sorted((SOURCES / module).rglob("*.swift"))


def code_only(text):
    """The text with comments and string literals blanked, so a doc comment
    that names `DispatchQueue` is not thread code."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'"""(?:.|\n)*?"""', '""', text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    return re.sub(r"//[^\n]*", "", text)


def declared_dependencies(package):
    """Each target's declared dependencies, by name, from Package.swift's text:
    the layers' list entries, and the `dependencies:` of the executable and
    test targets (`layers.map` there means every layer)."""
    declared = {}
    for name, body in re.findall(r'^\s*\("(Juice\w+)",\s*\[(.*?)\]\),?\s*$', package, re.M):
        names = re.findall(r'"(\w+)"', body)
        names += [module for variable, module in PRODUCTS.items() if re.search(rf"\b{variable}\b", body)]
        declared[name] = set(names)
    for name, body in re.findall(r'name:\s*"([\w-]+)",\s*dependencies:\s*(.*?\]),\s*(?:exclude|swiftSettings|path)', package, re.S):
        names = set(re.findall(r'"(\w+)"', body)) - {"swift-argument-parser"}
        names |= {module for variable, module in PRODUCTS.items() if re.search(rf"\b{variable}\b", body)}
        if "layers.map" in body:
            names |= set(LAYERS)
        declared[name] = names
    return declared


def imports_of(files):
    """The modules the files import, by name."""
    return {name for path in files for name in IMPORT.findall(code_only(path.read_text()))}


def target_files(target):
    if target in TEST_TARGETS:
        return sorted((ROOT / TEST_TARGETS[target]).rglob("*.swift"))
    return swift_files(target)


def dependency_problems(declared, imported):
    """What is wrong between one target's declared dependencies and its imports."""
    problems = []
    for name in sorted(imported - declared - SYSTEM):
        problems.append(f"imports {name}, which it does not declare")
    for name in sorted((declared - imported) - {"CYAML"}):
        problems.append(f"declares {name}, which none of its files imports")
    return problems


def layer_order_problems(declared):
    """Dependencies that point to a later layer or between siblings."""
    problems = []
    for module, dependencies in declared.items():
        if module not in LAYERS:
            continue
        for name in dependencies & set(LAYERS):
            if LAYERS.index(name) >= LAYERS.index(module):
                problems.append(f"{module} depends on {name}, a later layer")
    for module in SIBLINGS:
        for name in sorted(declared.get(module, set()) & set(SIBLINGS)):
            problems.append(f"{module} depends on its sibling {name}")
    return problems


def test_package_lists_the_layers_in_flow_order():
    package = (ROOT / "Package.swift").read_text()
    listed = re.findall(r'^\s*\("(Juice\w+)",', package, re.M)
    assert listed == LAYERS
    # Every layer folder exists and nothing else sits beside them unlisted.
    folders = sorted(p.name for p in SOURCES.iterdir() if p.is_dir())
    assert sorted(LAYERS + EXECUTABLES + ["CYAML"]) == folders
    server_folders = sorted(p.name for p in (SERVER / "Sources").iterdir() if p.is_dir())
    assert sorted(SERVER_LAYERS + SERVER_EXECUTABLES) == server_folders


def module_files(module):
    if module in SERVER_LAYERS + SERVER_EXECUTABLES:
        return sorted((SERVER / "Sources" / module).rglob("*.swift"))
    return swift_files(module)


@pytest.mark.parametrize("module", LAYERS + SERVER_LAYERS + EXECUTABLES + SERVER_EXECUTABLES)
def test_no_module_imports_a_later_layer(module):
    order = LAYERS + SERVER_LAYERS
    own = order.index(module) if module in order else len(order)
    wrong = []
    for path in module_files(module):
        for name in IMPORT.findall(path.read_text()):
            if name == "CYAML" and module != "JuiceYAML":
                wrong.append(f"{path.relative_to(ROOT)}: imports CYAML (libyaml stays behind JuiceYAML)")
            if name in order and order.index(name) >= own:
                wrong.append(f"{path.relative_to(ROOT)}: {module} imports {name}")
    assert wrong == []


def test_the_tools_package_names_no_server_library():
    """juice-lint and juice-run link no server or database library: their
    package does not depend on one, so it neither fetches nor builds it (nor
    does the pre-commit hook, which builds that package)."""
    package = (ROOT / "Package.swift").read_text()
    assert [name for name in SERVER_PACKAGES if f"/{name}\"" in package] == []
    # and the check sees them where they are
    server = (SERVER / "Package.swift").read_text()
    assert [name for name in SERVER_PACKAGES if f"/{name}\"" in server] == SERVER_PACKAGES


def server_declared(target):
    """A server target's declared modules: its own targets, the products by
    variable, and, for `kit`, every layer of the tools' package."""
    server = (SERVER / "Package.swift").read_text()
    match = re.search(rf'name:\s*"{re.escape(target)}",\s*dependencies:\s*\[(.*?)\]', server, re.S)
    assert match, f"{target} is not in Server/Package.swift"
    body = match.group(1)
    names = set(re.findall(r'"(\w+)"', body))
    names |= {module for variable, module in PRODUCTS.items() if re.search(rf"\b{variable}\b", body)}
    return names, re.search(r"\bkit\b", body) is not None


@pytest.mark.parametrize("target", SERVER_LAYERS + SERVER_EXECUTABLES + list(SERVER_TEST_TARGETS))
def test_each_server_target_declares_exactly_what_it_imports(target):
    declared, has_kit = server_declared(target)
    files = sorted((ROOT / SERVER_TEST_TARGETS[target]).rglob("*.swift")) if target in SERVER_TEST_TARGETS else module_files(target)
    imported = imports_of(files)
    juice = {name for name in imported if name in LAYERS}
    assert bool(juice) == has_kit, "a target that imports the tools' layers declares kit, and only then"
    assert dependency_problems(declared, imported - juice) == []


@pytest.mark.parametrize("target", LAYERS + EXECUTABLES + list(TEST_TARGETS))
def test_each_target_declares_exactly_what_it_imports(target):
    declared = declared_dependencies((ROOT / "Package.swift").read_text())
    assert target in declared
    assert dependency_problems(declared[target], imports_of(target_files(target))) == []


def test_dependencies_point_to_earlier_layers_and_siblings_stay_apart():
    declared = declared_dependencies((ROOT / "Package.swift").read_text())
    assert set(LAYERS) <= set(declared)
    assert layer_order_problems(declared) == []


def test_synchronization_lives_only_in_the_driver_and_the_justified_files():
    found = []
    architecture = (ROOT / "ARCHITECTURE.md").read_text()
    for module in LAYERS:
        if module in DRIVER:
            continue
        for path in swift_files(module):
            relative = str(path.relative_to(ROOT))
            if relative in SYNCHRONIZED:
                # A justified file is named where the justification is.
                assert f"`{path.name}`" in architecture, relative
                continue
            for number, line in enumerate(code_only(path.read_text()).splitlines(), 1):
                if SYNCHRONIZATION.search(line):
                    found.append(f"{relative}:{number}: {line.strip()}")
    assert found == []


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


def test_cutting_a_large_file_lives_in_the_driver():
    # The workspace knows nothing of pieces (ARCHITECTURE.md, "One source at
    # a time"): the cut, the join and their set are JuiceCommandLine's.
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for module in LAYERS
        if module not in DRIVER
        for path in swift_files(module)
        for number, line in enumerate(code_only(path.read_text()).splitlines(), 1)
        if re.search(r"\b(LargeFileCut|PieceJoin|PossiblySeenHashes)\b", line)
    ]
    assert found == []
    driver = {path.name for path in swift_files("JuiceCommandLine")}
    assert {"LargeFileCut.swift", "DeclarationCollector+Pieces.swift", "PossiblySeenHashes.swift"} <= driver


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
    # An undeclared import, a dead dependency, a later layer and two siblings.
    package = """
        ("JuiceBook", ["JuiceSupport", "JuiceLint"]),
        ("JuiceLanguageServer", ["JuiceBook", "JuiceLint"]),
        .executableTarget(
            name: "juice-run",
            dependencies: ["JuiceSimulation", argumentParser],
            swiftSettings: optimiseAcrossModules
        ),
    """
    declared = declared_dependencies(package)
    assert declared["juice-run"] == {"JuiceSimulation", "ArgumentParser"}
    assert dependency_problems(declared["JuiceBook"], {"JuiceSupport", "JuiceYAML", "Foundation"}) == [
        "imports JuiceYAML, which it does not declare",
        "declares JuiceLint, which none of its files imports",
    ]
    assert layer_order_problems(declared) == [
        "JuiceBook depends on JuiceLint, a later layer",
        "JuiceLanguageServer depends on its sibling JuiceLint",
    ]
    assert SYNCHRONIZATION.search(code_only("private let cache = Mutex<Int>(0)"))
    assert not SYNCHRONIZATION.search(code_only("/// no `Mutex` here"))
    assert THREADS.search(code_only("DispatchQueue.concurrentPerform(iterations: 2) { _ in }"))
    assert not THREADS.search(code_only("/// runs on another `Thread` in the driver\nlet x = \"pthread\""))
