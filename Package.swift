// swift-tools-version:6.0
import PackageDescription

let argumentParser: Target.Dependency = .product(name: "ArgumentParser", package: "swift-argument-parser")

/// The library layers, in the order data flows through them, each with the
/// modules it imports and no others. A layer may depend only on layers
/// before it in this list, so the compiler keeps the imports one way; lint,
/// simulation and the language server are siblings that use none of each
/// other. `Tests/Tools/test_layers.py` checks this list, these dependencies
/// and every `import` in Sources against each other (ARCHITECTURE.md).
let layers: [(name: String, dependencies: [Target.Dependency])] = [
    ("JuiceSupport", []),
    ("JuiceSource", []),
    ("JuiceDiagnostics", ["JuiceSupport", "JuiceSource"]),
    ("JuiceYAML", ["JuiceSupport", "JuiceSource", "JuiceDiagnostics", "CYAML"]),
    ("JuiceBook", ["JuiceSupport", "JuiceSource", "JuiceDiagnostics", "JuiceYAML"]),
    ("JuiceEngine", ["JuiceSupport", "JuiceSource", "JuiceDiagnostics", "JuiceBook"]),
    ("JuiceShop", ["JuiceSupport", "JuiceBook", "JuiceEngine"]),
    ("JuiceSimulation", ["JuiceSupport", "JuiceSource", "JuiceDiagnostics", "JuiceBook", "JuiceEngine", "JuiceShop"]),
    ("JuiceLint", ["JuiceSupport", "JuiceSource", "JuiceDiagnostics", "JuiceBook", "JuiceEngine"]),
    ("JuiceLanguageServer", ["JuiceSupport", "JuiceSource", "JuiceDiagnostics", "JuiceYAML", "JuiceBook", "JuiceEngine"]),
    ("JuiceCommandLine", ["JuiceSupport", "JuiceSource", "JuiceDiagnostics", "JuiceYAML", "JuiceBook", "JuiceSimulation", "JuiceLint", argumentParser]),
]

/// Release builds optimise across the layers, as one module did before the
/// split: without it, the hot paths that cross a module boundary (the
/// collector reading YAML nodes, the linker's tables) ran unspecialised
/// and uninlined, and a lint of the 100-file benchmark book took 1,353 ms
/// of CPU against 850 ms with it (perf stat -r 5, docs/benchmarks.md).
let optimiseAcrossModules: [SwiftSetting] = [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]

let layerTargets: [Target] = layers.map { layer in
    .target(name: layer.name, dependencies: layer.dependencies, swiftSettings: optimiseAcrossModules)
}

let package = Package(
    name: "juice-maker",
    products: [
        .library(name: "JuiceKit", targets: layers.map(\.name)),
        .executable(name: "juice-lint", targets: ["juice-lint"]),
        .executable(name: "juice-run", targets: ["juice-run"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: layerTargets + [
        // The system libyaml, found through pkg-config. Never vendored: the C
        // library is the parser. Only JuiceYAML sees it.
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        .executableTarget(
            name: "juice-lint",
            dependencies: ["JuiceSupport", "JuiceSource", "JuiceDiagnostics", "JuiceLint", "JuiceLanguageServer", "JuiceCommandLine", argumentParser],
            swiftSettings: optimiseAcrossModules
        ),
        .executableTarget(
            name: "juice-run",
            dependencies: ["JuiceSupport", "JuiceDiagnostics", "JuiceSimulation", "JuiceCommandLine", argumentParser],
            swiftSettings: optimiseAcrossModules
        ),
        .testTarget(name: "JuiceKitTests", dependencies: layers.map { .target(name: $0.name) } + ["DifferentialSupport"], exclude: ["Fixtures", "Schemas"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["JuiceSource", "JuiceDiagnostics", "JuiceBook", "JuiceSimulation", "JuiceLint", "DifferentialSupport"],
            exclude: ["Fixtures"]
        ),
        // The differential tests' random books and scripts and their reference model.
        // It depends on no layer, so the model cannot borrow the engine's code.
        .target(name: "DifferentialSupport", path: "Tests/DifferentialSupport"),
    ]
)
