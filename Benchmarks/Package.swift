// swift-tools-version: 6.0
// Benchmarks for pwtui, run by hand (`make bench`), never as part of the tests: timings on a
// shared 2-core machine are too noisy to be pass/fail criteria.
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its directory, whatever the checkout is called.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

let package = Package(
    name: "pwtui-benchmarks",
    // Linux only (Debian: glibc, /proc, ncursesw, libpsl): no Apple platform is promised.
    dependencies: [.package(path: root.path)],
    targets: [
        .executableTarget(
            name: "pwtui-bench",
            dependencies: [
                .product(name: "VaultModel", package: root.lastPathComponent),
                .product(name: "VaultCrypto", package: root.lastPathComponent),
                .product(name: "ServiceMatching", package: root.lastPathComponent),
                .product(name: "TUI", package: root.lastPathComponent),
            ])
    ],
    swiftLanguageModes: [.v6]
)
