// swift-tools-version:6.0
// A peer for the lint benchmarks: the common way to read this YAML in Swift,
// Yams + Codable, with the same short validation. Not part of juice-maker.
import PackageDescription

let package = Package(
    name: "YamsPeer",
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        .executableTarget(name: "yams-peer", dependencies: [.product(name: "Yams", package: "Yams")]),
    ]
)
