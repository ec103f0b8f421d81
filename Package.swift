// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "pwtui",
    // Linux only (Debian: glibc, /proc, ncursesw, libpsl): no Apple platform is promised.
    products: [
        .executable(name: "pwtui", targets: ["pwtui"]),
        // The Secret Service (`pwtui secret-service` runs it): its own program, linked with
        // libsystemd, which has no static library, while pwtui itself is a static binary.
        .executable(name: "pwtui-secret-service", targets: ["pwtui-secret-service"]),
        .library(name: "VaultModel", targets: ["VaultModel"]),
        .library(name: "VaultCrypto", targets: ["VaultCrypto"]),
        .library(name: "ServiceMatching", targets: ["ServiceMatching"]),
        .library(name: "TUI", targets: ["TUI"]),
        // What the fuzzers under Fuzz/ link: the entry points into each decoder.
        .library(name: "FuzzTargets", targets: ["FuzzTargets"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2")
    ],
    targets: [
        // C system libraries: a module map and a shim header, nothing else.
        .systemLibrary(
            name: "CSodium", pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"])]),

        .systemLibrary(
            name: "CPSL", pkgConfig: "libpsl",
            providers: [.apt(["libpsl-dev"])]),
        // zlib's inflate and crc32, for 1Password's .1pux (a zip archive).
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        // libcrypto (OpenSSL 3): RSA and ECDSA P-256 SSH keys, which libsodium does not have.
        .systemLibrary(name: "COpenSSL", providers: [.apt(["libssl-dev"])]),
        // No pkgConfig: ncursesw's cflags are only -D flags, which SwiftPM refuses with a warning
        // on every build; the shim defines what is needed and the module map links ncursesw.
        .systemLibrary(name: "CNcurses", providers: [.apt(["libncurses-dev"])]),
        // The system calls Swift cannot make (variadic, _GNU_SOURCE structs, a signal handler).
        .systemLibrary(name: "CSystem"),
        // sd-bus from libsystemd: the session bus, for the Secret Service (issue 40).
        .systemLibrary(name: "CSDBus", providers: [.apt(["libsystemd-dev"])]),

        // The operating system, in Swift: environment, paths, descriptors, sockets, signals.
        .target(name: "Platform", dependencies: ["CSystem"]),
        .target(name: "VaultCrypto", dependencies: ["CSodium", "COpenSSL", "Platform"]),
        // org.freedesktop.secrets on the session bus over sd-bus: sessions (plain and the DH
        // one), dispatch, and the item store it serves (docs/secret-service.md).
        .target(name: "SecretService", dependencies: ["CSDBus", "VaultModel", "VaultCrypto", "Platform"]),
        // Text without Foundation's full module: trimming, normalization, folding, escapes.
        .target(name: "UnicodeText"),
        // Which stored service answers a request: identifiers, the suffix list, tiers, fuzzy filtering.
        .target(name: "ServiceMatching", dependencies: ["Platform", "UnicodeText", "CPSL"]),
        // Passwords made and judged: the strength estimate, the generators, `passwordrules`, the
        // sites' published rules and the passphrase word list (those two generated into Generated/).
        .target(name: "Passwords", dependencies: ["VaultCrypto", "Platform"]),
        .target(name: "VaultModel", dependencies: ["VaultCrypto", "ServiceMatching", "Platform", "UnicodeText"]),
        // The agent's protocol (typed requests and replies), its client and its server machinery.
        .target(
            name: "VaultAgent", dependencies: ["VaultModel", "SSHKeys", "ServiceMatching", "VaultCrypto", "Platform"]),
        // SSH keys as OpenSSH knows them, below the agent: the wire encoding and key blobs, the
        // types pwtui keeps and what each signs, key files read (`ssh import`: OpenSSH's own
        // format, PEM and PKCS#8) and written (`--private`).
        .target(name: "SSHKeys", dependencies: ["VaultModel", "VaultCrypto", "Platform"]),
        // Moving in and out: the byte-level readers of export files (CSV, JSON, XML) into protected
        // memory, each format's mapping to credentials, and the writers of exports.
        .target(
            name: "Interchange",
            dependencies: ["VaultModel", "ServiceMatching", "VaultCrypto", "Platform", "UnicodeText", "CZlib"]),
        .target(
            name: "TUI",
            dependencies: [
                "Platform", "VaultModel", "Passwords", "ServiceMatching", "VaultCrypto", "UnicodeText", "CNcurses",
            ]),
        // What the commands do: a Session, the agent's service, the picker, git's helper, output.
        .target(
            name: "Commands",
            dependencies: [
                "Interchange", "VaultAgent", "VaultModel", "Passwords", "ServiceMatching", "VaultCrypto", "TUI",
                "Platform", "UnicodeText", "SSHKeys",
            ]),
        .target(
            name: "FuzzTargets",
            dependencies: [
                "Interchange", "VaultAgent", "VaultModel", "ServiceMatching", "VaultCrypto", "Platform", "SSHKeys",
            ]),
        // The Secret Service answered from the agent: its item store and unlock prompter.
        .target(
            name: "SecretServiceAgent",
            dependencies: ["SecretService", "Commands", "VaultAgent", "VaultModel", "VaultCrypto", "Platform"]),
        .executableTarget(
            name: "pwtui-secret-service",
            dependencies: [
                "SecretServiceAgent", "Commands", "VaultModel", "Platform",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // Argument parsing and wiring only.
        .executableTarget(
            name: "pwtui",
            dependencies: [
                "Commands", "Interchange", "VaultAgent", "VaultModel", "ServiceMatching", "VaultCrypto", "SSHKeys",
                "Platform", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // A process that saves in a loop, for the kill -9 tests: it exercises the real save
        // protocol from a separate process so the test can SIGKILL it mid-save.
        .executableTarget(
            name: "pwtui-save-loop", dependencies: ["VaultModel", "ServiceMatching", "VaultCrypto"],
            path: "Tests/SaveLoop"),

        .testTarget(name: "PlatformTests", dependencies: ["Platform"]),
        .testTarget(name: "UnicodeTextTests", dependencies: ["UnicodeText", "PwtuiTestSupport"]),
        // The helpers every test target shares (secrets, hex, temporary directories, sample
        // vaults, the seeded random generator); for tests only.
        .target(
            name: "PwtuiTestSupport", dependencies: ["VaultModel", "ServiceMatching", "VaultCrypto", "Platform"],
            path: "Tests/PwtuiTestSupport"),

        // The terminal and the prompt tests script (`GridTerminal`, `ScriptedPrompt`): test doubles,
        // for tests only, never in the product.
        .target(
            name: "TUITestDoubles", dependencies: ["TUI", "VaultModel", "VaultCrypto"], path: "Tests/TUITestDoubles"),

        .testTarget(name: "VaultCryptoTests", dependencies: ["VaultCrypto", "Platform", "PwtuiTestSupport"]),
        .testTarget(
            name: "SecretServiceTests", dependencies: ["SecretService", "VaultCrypto", "Platform", "PwtuiTestSupport"]),
        .testTarget(name: "ServiceMatchingTests", dependencies: ["ServiceMatching", "Platform", "PwtuiTestSupport"]),
        .testTarget(
            name: "PasswordsTests", dependencies: ["Passwords", "VaultModel", "VaultCrypto", "PwtuiTestSupport"]),
        .testTarget(
            name: "TUITests",
            dependencies: [
                "TUI", "Passwords", "VaultModel", "ServiceMatching", "VaultCrypto", "Platform", "PwtuiTestSupport",
                "TUITestDoubles",
            ],
            exclude: ["Snapshots"]),
        .testTarget(
            name: "VaultModelTests",
            dependencies: ["VaultModel", "ServiceMatching", "VaultCrypto", "Platform", "PwtuiTestSupport"],
            exclude: ["Golden"]),
        .testTarget(
            name: "InterchangeTests",
            dependencies: [
                "Interchange", "VaultModel", "VaultCrypto", "ServiceMatching", "Platform", "PwtuiTestSupport",
            ],
            exclude: ["Samples"]),
        .testTarget(name: "FuzzCorpusTests", dependencies: ["FuzzTargets"]),
        // DocumentationTests reads the executable's command tree (`pwtui`, ArgumentParser) in process.
        .testTarget(
            name: "CommandsTests",
            dependencies: [
                "Commands", "VaultAgent", "VaultModel", "ServiceMatching", "VaultCrypto", "Platform", "SSHKeys", "TUI",
                "Passwords", "Interchange", "PwtuiTestSupport", "TUITestDoubles", "pwtui", "SecretService",
                "SecretServiceAgent", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .testTarget(
            name: "CommandLineTests",
            dependencies: [
                "pwtui", "pwtui-save-loop", "pwtui-secret-service", "Commands", "Passwords", "VaultModel",
                "VaultCrypto", "SSHKeys", "Platform",
                "PwtuiTestSupport", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
