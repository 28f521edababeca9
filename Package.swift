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

let hummingbird: Target.Dependency = .product(name: "Hummingbird", package: "hummingbird")
let hummingbirdAuth: Target.Dependency = .product(name: "HummingbirdAuth", package: "hummingbird-auth")
let hummingbirdBcrypt: Target.Dependency = .product(name: "HummingbirdBcrypt", package: "hummingbird-auth")
let hummingbirdTesting: Target.Dependency = .product(name: "HummingbirdTesting", package: "hummingbird")
let httpTypes: Target.Dependency = .product(name: "HTTPTypes", package: "swift-http-types")
let logging: Target.Dependency = .product(name: "Logging", package: "swift-log")
let serviceLifecycle: Target.Dependency = .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
let grdb: Target.Dependency = .product(name: "GRDB", package: "GRDB.swift")

/// The server's layers, after the command line's: the journal's store
/// (SQLite through GRDB) and the web counter (Hummingbird). Only
/// `juice-serve` links them; juice-lint and juice-run never do, so their
/// start-up and size stay as they were (`Tests/Tools/test_layers.py`).
let serverLayers: [(name: String, dependencies: [Target.Dependency])] = [
    ("JuiceStore", ["JuiceShop", grdb]),
    ("JuiceServer", ["JuiceSupport", "JuiceSource", "JuiceDiagnostics", "JuiceBook", "JuiceShop", "JuiceStore", hummingbird, hummingbirdAuth, hummingbirdBcrypt, httpTypes, logging, serviceLifecycle]),
]

let package = Package(
    name: "juice-maker",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "JuiceKit", targets: layers.map(\.name)),
        .executable(name: "juice-lint", targets: ["juice-lint"]),
        .executable(name: "juice-run", targets: ["juice-run"]),
        .executable(name: "juice-serve", targets: ["juice-serve"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.0.0"),
    ],
    targets: layerTargets + serverLayers.map { .target(name: $0.name, dependencies: $0.dependencies, swiftSettings: optimiseAcrossModules) } + [
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
        .executableTarget(
            name: "juice-serve",
            dependencies: ["JuiceServer", "JuiceStore", argumentParser],
            swiftSettings: optimiseAcrossModules
        ),
        .testTarget(
            name: "ServerTests",
            dependencies: ["JuiceSource", "JuiceBook", "JuiceEngine", "JuiceShop", "JuiceStore", "JuiceServer", hummingbird, hummingbirdBcrypt, hummingbirdTesting, httpTypes],
            path: "Tests/ServerTests"
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
