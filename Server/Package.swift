// swift-tools-version:6.0
import PackageDescription

/// juice-serve, the web counter, as its own package beside juice-maker's:
/// only it depends on Hummingbird, hummingbird-auth, GRDB and postgres-nio. The tools'
/// package (`..`) neither fetches nor builds them, so juice-lint and
/// juice-run, and the pre-commit hook that builds them, stay as they were.
/// The shop's rules come from `..` (JuiceShop, through the JuiceKit product).
///
/// The layers here come after juice-maker's, in the order data flows: the
/// journal's store, then the web counter (`Tests/Tools/test_layers.py`).
let kit: Target.Dependency = .product(name: "JuiceKit", package: "juice-maker")
let argumentParser: Target.Dependency = .product(name: "ArgumentParser", package: "swift-argument-parser")
let hummingbird: Target.Dependency = .product(name: "Hummingbird", package: "hummingbird")
let hummingbirdAuth: Target.Dependency = .product(name: "HummingbirdAuth", package: "hummingbird-auth")
let hummingbirdBcrypt: Target.Dependency = .product(name: "HummingbirdBcrypt", package: "hummingbird-auth")
let hummingbirdTesting: Target.Dependency = .product(name: "HummingbirdTesting", package: "hummingbird")
let httpTypes: Target.Dependency = .product(name: "HTTPTypes", package: "swift-http-types")
let logging: Target.Dependency = .product(name: "Logging", package: "swift-log")
let serviceLifecycle: Target.Dependency = .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
let grdb: Target.Dependency = .product(name: "GRDB", package: "GRDB.swift")
let postgres: Target.Dependency = .product(name: "PostgresNIO", package: "postgres-nio")

/// As in juice-maker's manifest: release builds optimise across modules.
let optimiseAcrossModules: [SwiftSetting] = [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]

let package = Package(
    name: "juice-serve",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "juice-serve", targets: ["juice-serve"]),
    ],
    dependencies: [
        // By name: a path dependency is otherwise known by its folder's name, which differs between clones.
        .package(name: "juice-maker", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.0.0"),
    ],
    targets: [
        .target(name: "JuiceStore", dependencies: [kit, grdb, postgres, logging], swiftSettings: optimiseAcrossModules),
        .target(
            name: "JuiceServer",
            dependencies: [kit, "JuiceStore", hummingbird, hummingbirdAuth, hummingbirdBcrypt, httpTypes, logging, serviceLifecycle],
            swiftSettings: optimiseAcrossModules
        ),
        .executableTarget(
            name: "juice-serve",
            dependencies: [kit, "JuiceServer", "JuiceStore", argumentParser],
            swiftSettings: optimiseAcrossModules
        ),
        .testTarget(
            name: "ServerTests",
            dependencies: [kit, "JuiceStore", "JuiceServer", hummingbird, hummingbirdBcrypt, hummingbirdTesting, httpTypes],
            path: "Tests/ServerTests"
        ),
    ]
)
