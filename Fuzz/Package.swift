// swift-tools-version: 6.0
// The libFuzzer targets, a package of their own so that the main build never sees the fuzzer
// flags: `make fuzz` builds it with `--sanitize=fuzzer --sanitize=address` and runs each target.
// Each target's one file defines `LLVMFuzzerTestOneInput` (no main.swift: libFuzzer brings `main`)
// and hands the input to a `FuzzEntry` of the main package, the function the corpus replay test
// calls too. Build with both sanitizer spellings, as the Makefile does (see docs/fuzzing.md).
import PackageDescription

let fuzzers = [
    "VaultHeader", "PayloadCodec", "ServiceIdentifier", "AgentMessage", "IdentityStore", "ImportFile",
    "SSHAgentMessage", "SSHKeyFile", "KnownHosts", "AskpassPrompt", "SecretURI", "DotEnvFile",
]

let package = Package(
    name: "pwtui-fuzz",
    dependencies: [.package(name: "pwtui", path: "..")],
    targets: fuzzers.map { name in
        .executableTarget(
            name: "Fuzz" + name, dependencies: [.product(name: "FuzzTargets", package: "pwtui")],
            path: "Sources/Fuzz" + name)
    } + [
        // Writes the seed corpus (`make fuzz-seeds`); built without sanitizers.
        .executableTarget(
            name: "fuzz-seeds", dependencies: [.product(name: "FuzzTargets", package: "pwtui")],
            path: "Sources/SeedCorpus")
    ],
    swiftLanguageModes: [.v6]
)
