// pwtui-save-loop: saves a vault over and over, so that a test can SIGKILL it at a random
// instruction of the save protocol and then check that the vault still opens with either the old
// or the new contents (docs/design.md#saving: "a save never leaves a torn file").
//
//     pwtui-save-loop VAULT [--password-fd N] [--kek-cache FILE]
//
// The master password is the first line of descriptor N (default 0, stdin). The vault is opened
// once; then, forever: add a credential `n<i>.example` / `u<i>` / secret `secret-<i>` (i is the
// credential count, so names stay unique across restarts of a vault that only grows), save, and
// report. Every line is written with one write(2) to stdout, so a line the reader sees complete
// describes a save that has finished (rename and directory fsync included):
//
//     open <generation> <records> <count>     after opening, before the first save
//     saved <generation> <records> <count>    after each save
// (the version: the snapshot's generation and the journal records after it)
//
// `--kek-cache FILE` keeps the key-encryption key that Argon2id derives for this vault's salt in
// FILE, so that restarting the loop (once per kill) does not pay ~65 ms of key derivation every
// time. It is a test aid only: the file holds a key, so it belongs in the test's own temporary
// directory. The commitment check of `Vault.open` still verifies the cached key.
//
// Exit codes: 64 usage, 2 the vault did not open, 3 a save failed.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import VaultCrypto
import VaultModel
import ServiceMatching

func fail(_ code: Int32, _ message: String) -> Never {
    var line = "pwtui-save-loop: " + message + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(code)
}

func report(_ text: String) {
    var line = text + "\n"
    line.withUTF8 { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = write(1, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                fail(3, "writing to stdout failed (errno \(errno))")
            }
            offset += written
        }
    }
}

/// The first line of `fd`, without the newline, in protected memory.
func readPassword(from fd: Int32) -> SecureBytes {
    do {
        var password = try SecureBytes(capacity: 256)
        var byte: UInt8 = 0
        while true {
            let got = read(fd, &byte, 1)
            if got < 0 {
                if errno == EINTR { continue }
                fail(64, "reading the password from descriptor \(fd) failed (errno \(errno))")
            }
            if got == 0 || byte == 0x0A { break }
            try password.append(byte)
        }
        return password
    } catch {
        fail(2, "no protected memory for the password: \(error)")
    }
}

/// `bytes` copied into protected memory (the source is not secret here: test data).
func protectedCopy(_ bytes: [UInt8]) throws(VaultCryptoError) -> SecureBytes {
    let staging = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
    defer { staging.deallocate() }
    staging.copyBytes(from: bytes)
    return try SecureBytes(copying: UnsafeRawBufferPointer(staging))
}

/// Argon2id, remembered in a file between runs (see the note at the top).
struct CachedDerivation: KeyDerivation {
    let cachePath: String

    func deriveKey(
        password: borrowing SecureBytes, salt: [UInt8], parameters: KDFParameters
    ) throws(VaultCryptoError) -> SecureBytes {
        // The cache answers only for the same password, salt and parameters: a wrong password
        // must still be a wrong password.
        let passwordDigest = try password.withUnsafeBytes { bytes throws(VaultCryptoError) in try BLAKE2b.hash(bytes) }
        let tag =
            Array((passwordDigest + salt).map { String($0, radix: 16) }.joined(separator: ".").utf8)
            + Array(" \(parameters.opsLimit) \(parameters.memLimitKiB)\n".utf8)
        if let cached = Self.load(cachePath), cached.count == tag.count + Argon2id.keyByteCount,
            Array(cached.prefix(tag.count)) == tag
        {
            return try protectedCopy(Array(cached.suffix(Argon2id.keyByteCount)))
        }
        let key = try Argon2id().deriveKey(password: password, salt: salt, parameters: parameters)
        var contents = tag
        key.withUnsafeBytes { contents += $0 }
        Self.store(contents, at: cachePath)
        return key
    }

    private static func load(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 1024)
        let got = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        return got > 0 ? Array(bytes.prefix(got)) : nil
    }

    private static func store(_ bytes: [UInt8], at path: String) {
        // AtomicFile, as every small file: a reader never sees half a key. Not durable: a cache
        // lost in a power cut costs one key derivation.
        try? AtomicFile.write(Data(bytes), to: path, durable: false)
    }
}

// MARK: Arguments

var arguments = Array(CommandLine.arguments.dropFirst())
var vaultPath: String?
var passwordFD: Int32 = 0
var kekCache: String?
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--password-fd":
        guard let value = arguments.first.flatMap({ Int32($0) }), value >= 0 else {
            fail(64, "--password-fd needs a descriptor number")
        }
        arguments.removeFirst()
        passwordFD = value
    case "--kek-cache":
        guard let value = arguments.first else { fail(64, "--kek-cache needs a file") }
        arguments.removeFirst()
        kekCache = value
    case _ where argument.hasPrefix("-"):
        fail(64, "unknown option \(argument); usage: pwtui-save-loop VAULT [--password-fd N] [--kek-cache FILE]")
    default:
        guard vaultPath == nil else { fail(64, "one vault only") }
        vaultPath = argument
    }
}
guard let vaultPath else { fail(64, "usage: pwtui-save-loop VAULT [--password-fd N] [--kek-cache FILE]") }

// MARK: The loop

let environment = kekCache.map { VaultEnvironment(derivation: CachedDerivation(cachePath: $0)) } ?? .standard
let vault: Vault
do {
    let password = readPassword(from: passwordFD)
    vault = try Vault.open(at: vaultPath, password: password, environment: environment)
} catch {
    fail(2, "\(error)")
}
report("open \(vault.version.generation) \(vault.version.changes) \(vault.contents.credentials.count)")

while true {
    let index = vault.contents.credentials.count
    do {
        let secret = try protectedCopy(Array("secret-\(index)".utf8))
        try vault.add(services: [ServiceIdentifier("n\(index).example")], username: "u\(index)", secret: secret)
        try vault.save()
    } catch {
        fail(3, "\(error)")
    }
    report("saved \(vault.version.generation) \(vault.version.changes) \(vault.contents.credentials.count)")
}
