// swift-tools-version:6.0
import PackageDescription

/// The library layers, in the order data flows through them. A layer may
/// depend only on layers before it in this list, so the compiler keeps the
/// imports one way; `Tests/Tools/test_layers.py` checks both this list and
/// every `import` in Sources against it (ARCHITECTURE.md).
let layers: [(name: String, extra: [Target.Dependency])] = [
    ("JuiceSupport", []),
    ("JuiceSource", []),
    ("JuiceDiagnostics", []),
    ("JuiceYAML", ["CYAML"]),
    ("JuiceBook", []),
    ("JuiceEngine", []),
    ("JuiceSimulation", []),
    ("JuiceLint", []),
    ("JuiceLanguageServer", []),
    ("JuiceCommandLine", [.product(name: "ArgumentParser", package: "swift-argument-parser")]),
]

/// Release builds optimise across the layers, as one module did before the
/// split: without it, the hot paths that cross a module boundary (the
/// collector reading YAML nodes, the linker's tables) ran unspecialised
/// and uninlined, and a lint of the 100-file benchmark book took 1,353 ms
/// of CPU against 850 ms with it (perf stat -r 5, docs/benchmarks.md).
let optimiseAcrossModules: [SwiftSetting] = [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]

/// Each layer depends on every layer before it.
let layerTargets: [Target] = layers.enumerated().map { index, layer in
    .target(
        name: layer.name,
        dependencies: layers[..<index].map { .target(name: $0.name) } + layer.extra,
        swiftSettings: optimiseAcrossModules
    )
}

let allLayers: [Target.Dependency] = layers.map { .target(name: $0.name) }

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
            dependencies: allLayers + [.product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: optimiseAcrossModules
        ),
        .executableTarget(
            name: "juice-run",
            dependencies: allLayers + [.product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: optimiseAcrossModules
        ),
        .testTarget(name: "JuiceKitTests", dependencies: allLayers + ["DifferentialSupport"], exclude: ["Fixtures", "Schemas"]),
        .testTarget(name: "EndToEndTests", dependencies: allLayers + ["DifferentialSupport"], exclude: ["Fixtures"]),
        // The differential tests' random books and scripts and their reference model.
        // It depends on no layer, so the model cannot borrow the engine's code.
        .target(name: "DifferentialSupport", path: "Tests/DifferentialSupport"),
    ]
)
