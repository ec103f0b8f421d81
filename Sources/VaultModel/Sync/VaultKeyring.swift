import VaultCrypto

/// The keys that open copies of one vault: what a reconciliation reads its copies with and
/// seals its result with.
///
/// Copies of a vault share its data key as long as nobody changed the master password (the
/// salt and wrapped key in their headers are then the same), so one key derivation opens all
/// three files a git merge hands over. A keyring made from a password derives a key for each
/// different salt it meets; one made from an open vault (an agent's) holds that vault's data key
/// and refuses, as `keyNotHeld`, any copy under another key — unless a password was added for
/// it (`adding(password:)`): after `passwd` on another machine, the other copy is under the new
/// master password, and this one under the old key.
public final class VaultKeyring {
    private final class HeldKey {
        let header: VaultHeader
        let dataKey: SecureBytes

        init(header: VaultHeader, dataKey: consuming SecureBytes) {
            self.header = header
            self.dataKey = dataKey
        }

        func opens(_ other: VaultHeader) -> Bool { VaultKeyring.sameKey(header, other) }
    }

    private var held: [HeldKey] = []
    private final class Password {
        let bytes: SecureBytes
        init(_ bytes: consuming SecureBytes) { self.bytes = bytes }
    }

    private var passwords: [Password] = []
    private let environment: VaultEnvironment

    /// Derives keys from `password` as copies need them.
    public init(password: consuming SecureBytes, environment: VaultEnvironment = .standard) {
        passwords = [Password(password)]
        self.environment = environment
    }

    /// Also derives keys from `password`, for copies the keys and passwords held so far do not
    /// open (a copy under another master password).
    public func adding(password: consuming SecureBytes) -> VaultKeyring {
        passwords.append(Password(password))
        return self
    }

    /// Holds one data key, for copies whose header names it.
    init(header: VaultHeader, dataKey: borrowing SecureBytes) throws {
        var copy = try cryptoCall { () throws(VaultCryptoError) in try SecureBytes(capacity: dataKey.count) }
        try cryptoCall { () throws(VaultCryptoError) in try copy.append(contentsOf: dataKey) }
        held = [HeldKey(header: header, dataKey: copy)]
        environment = .standard
    }

    /// The header and contents of a file image of this vault.
    public func open(_ file: [UInt8], path: String) throws -> (header: VaultHeader, contents: VaultContents) {
        let header = try file.withUnsafeBytes { try VaultHeader.parse($0, path: path) }
        if let key = held.first(where: { $0.opens(header) }) {
            return (header, try VaultFormat.decrypt(file, header: header, dataKey: key.dataKey, path: path))
        }
        guard !passwords.isEmpty else { throw ReconcileRefusal.keyNotHeld(path: path) }
        for (index, password) in passwords.enumerated() {
            do {
                let unlocked = try VaultFormat.unlock(
                    file, password: password.bytes, derivation: environment.derivation,
                    bounds: environment.bounds, path: path)
                let contents = unlocked.contents
                held.append(HeldKey(header: header, dataKey: unlocked.keys.dataKey))
                return (header, contents)
            } catch VaultError.wrongPassword where index < passwords.count - 1 || !held.isEmpty {
                continue
            }
        }
        // Every password tried was wrong for this copy, though something opened another one.
        throw ReconcileRefusal.differentPasswords(path: path)
    }

    /// Whether two copies are under the same key (nobody changed the master password between
    /// them): what a merge seals with is then not a question.
    public static func sameKey(_ a: VaultHeader, _ b: VaultHeader) -> Bool {
        a.vaultID == b.vaultID && a.salt == b.salt && a.wrappedKey == b.wrappedKey
            && a.wrappedKeyNonce == b.wrappedKeyNonce
    }

    /// A file image of `contents` under the key `header` names (one this keyring opened).
    public func seal(_ contents: VaultContents, header: VaultHeader) throws -> [UInt8] {
        guard let key = held.first(where: { $0.opens(header) }) else {
            throw ReconcileRefusal.keyNotHeld(path: "the merged vault")
        }
        // The version and flags stay the header's: the data key is wrapped bound to them, and a
        // keyring holds no key-encryption key to wrap it again (stamping the current version here
        // made a merge of an older copy unopenable). An older copy's version comes up to date at
        // the vault's next unlock and save (`VaultFormat.unlock`).
        var written = header
        return try VaultFormat.seal(contents, header: &written, dataKey: key.dataKey)
    }
}

/// Why two copies are not reconciled.
public enum ReconcileRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// The two files are different vaults (their vault ids differ).
    case differentVaults(String, String)
    /// The master password that opens one copy does not open the other.
    case differentPasswords(path: String)
    /// Only a held data key was available (an agent's), and this copy is under another one.
    case keyNotHeld(path: String)
    /// A newer pwtui wrote this copy: its records would be dropped by merging here.
    case newerFormat(path: String)

    public var description: String {
        switch self {
        case .differentVaults(let a, let b):
            return
                "\(a) and \(b) are two different vaults (their vault ids differ); pwtui merges only copies of one vault"
        case .differentPasswords(let path):
            return "\(path) is under a different master password than the other copy (it was changed on one of them), "
                + "and no password given opens it; change one copy's master password to the other's (pwtui passwd --vault ...), "
                + "then merge again"
        case .keyNotHeld(let path):
            return "\(path) is not under the key the agent holds"
        case .newerFormat(let path):
            return "\(path) was written by a newer pwtui; merge it with that version"
        }
    }
}

extension ReconcileRefusal: ExitStatusReporting {
    public var exitStatus: ExitStatus {
        switch self {
        case .differentVaults: .usage
        case .differentPasswords: .wrongPassword
        case .keyNotHeld: .interactionRequired
        case .newerFormat: .corrupt
        }
    }
}
