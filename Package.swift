// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "pwtui",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "pwtui", targets: ["pwtui"]),
        .library(name: "VaultModel", targets: ["VaultModel"]),
        .library(name: "VaultCrypto", targets: ["VaultCrypto"]),
        .library(name: "TUI", targets: ["TUI"]),
        // What the fuzzers under Fuzz/ link: the entry points into each decoder.
        .library(name: "FuzzTargets", targets: ["FuzzTargets"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // C system libraries: a module map and a shim header, nothing else.
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium",
                       providers: [.apt(["libsodium-dev"])]),

        .systemLibrary(name: "CPSL", pkgConfig: "libpsl",
                       providers: [.apt(["libpsl-dev"])]),
        // No pkgConfig: ncursesw's cflags are only -D flags, which SwiftPM refuses with a warning
        // on every build; the shim defines what is needed and the module map links ncursesw.
        .systemLibrary(name: "CNcurses", providers: [.apt(["libncurses-dev"])]),
        // The system calls Swift cannot make (variadic, _GNU_SOURCE structs, a signal handler).
        .systemLibrary(name: "CSystem"),

        // The operating system, in Swift: environment, paths, descriptors, sockets, signals.
        .target(name: "Platform", dependencies: ["CSystem"]),
        .target(name: "VaultCrypto", dependencies: ["CSodium"]),
        .target(name: "VaultModel", dependencies: ["Platform", "VaultCrypto", "CPSL"]),
        .target(name: "TUI", dependencies: ["Platform", "VaultModel", "VaultCrypto", "CNcurses"]),
        .target(name: "FuzzTargets", dependencies: ["VaultModel", "VaultCrypto"]),
        .executableTarget(
            name: "pwtui",
            dependencies: [
                "Platform", "VaultModel", "VaultCrypto", "TUI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // A process that saves in a loop, for the kill -9 tests: it exercises the real save
        // protocol from a separate process so the test can SIGKILL it mid-save.
        .executableTarget(name: "pwtui-save-loop", dependencies: ["VaultModel"],
                          path: "Tests/SaveLoop"),

        .testTarget(name: "PlatformTests", dependencies: ["Platform"]),
        .testTarget(name: "VaultCryptoTests", dependencies: ["VaultCrypto"]),
        .testTarget(name: "TUITests", dependencies: ["TUI", "VaultModel", "Platform"], exclude: ["Snapshots"]),
        .testTarget(name: "VaultModelTests", dependencies: ["VaultModel"],
                    exclude: ["Golden"]),
        .testTarget(name: "FuzzCorpusTests", dependencies: ["FuzzTargets"]),
        .testTarget(name: "CommandLineTests", dependencies: ["pwtui", "pwtui-save-loop"],
                    exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
