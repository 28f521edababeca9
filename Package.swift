// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "juice-maker",
    products: [
        .library(name: "JuiceKit", targets: ["JuiceKit"]),
        .executable(name: "juice-lint", targets: ["juice-lint"]),
        .executable(name: "juice-run", targets: ["juice-run"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // The system libyaml, found through pkg-config. Never vendored: the C library is the parser.
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        .target(name: "JuiceKit", dependencies: ["CYAML"]),
        // What the two executables share about the command line, kept out of JuiceKit.
        .target(
            name: "JuiceCommandLine",
            dependencies: ["JuiceKit", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "juice-lint",
            dependencies: ["JuiceKit", "JuiceCommandLine", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "juice-run",
            dependencies: ["JuiceKit", "JuiceCommandLine", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .testTarget(name: "JuiceKitTests", dependencies: ["JuiceKit", "DifferentialSupport"], exclude: ["Fixtures", "Schemas"]),
        .testTarget(name: "EndToEndTests", dependencies: ["JuiceKit", "DifferentialSupport"], exclude: ["Fixtures"]),
        // The differential tests' random books and scripts and their reference model.
        // It does not depend on JuiceKit, so the model cannot borrow the engine's code.
        .target(name: "DifferentialSupport", path: "Tests/DifferentialSupport"),
    ]
)
