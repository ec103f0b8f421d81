import VaultCrypto

/// Where the Secret Service's items live, as the service needs them: what pwtui's vault will be
/// behind it (its items of their own kind, issue 40). The service speaks D-Bus and the DH
/// session; a store speaks items, by an id that is one object-path element (`[A-Za-z0-9_]+`: a
/// UUID's hex, say), under `/org/freedesktop/secrets/collection/login/`.
///
/// Every call comes from the one thread that serves the bus.
public protocol SecretItemStore: AnyObject {
    /// The ids of the items whose attributes include every pair of `attributes` (all of them
    /// for none): those the caller may read now (`unlocked`) and those it may not before an
    /// unlock (`locked`; a locked vault lists none it cannot read).
    func search(_ attributes: [String: String]) throws(DBusFailure) -> (unlocked: [String], locked: [String])

    /// What the one collection (`login`, also the `default` alias) shows: its label, whether it
    /// is locked (the vault is), its times.
    func describeCollection() throws(DBusFailure) -> SecretCollectionDescription

    /// Whether the collection is locked, and nothing else (`describeCollection` may cost more).
    func isLocked() throws(DBusFailure) -> Bool

    /// What item `id` shows without its secret (the Item interface's properties); `noSuchObject`
    /// for an unknown id.
    func describe(_ id: String) throws(DBusFailure) -> SecretItemDescription

    /// Stores a new item (or, with `replace`, replaces the secret and label of the one whose
    /// attributes are exactly `attributes`), made by `creator`: its id, and whether it replaced one.
    func create(
        label: String, attributes: [String: String], secret: borrowing SecureBytes, contentType: String,
        replace: Bool, creator: SecretCaller
    ) throws(DBusFailure) -> (id: String, replaced: Bool)

    /// Item `id`'s secret replaced by `secret` (the old one kept in its history, for the vault).
    func setSecret(of id: String, to secret: borrowing SecureBytes, contentType: String) throws(DBusFailure)

    /// Item `id`'s label or attributes changed (nil: kept).
    func update(_ id: String, label: String?, attributes: [String: String]?) throws(DBusFailure)

    /// Everything locked now (pwtui: the agent locks the vault): nothing is read until an unlock.
    func lock() throws(DBusFailure)

    /// Item `id` removed.
    func delete(_ id: String) throws(DBusFailure)

    /// The collection's label changed (`Properties.Set` of its `Label`: secretstorage's
    /// `Collection.set_label`). A store that keeps no label of its own refuses (the default below).
    func relabelCollection(_ label: String) throws(DBusFailure)

    /// Lends item `id`'s secret and its content type (`text/plain`) to `body`, for `caller` to
    /// read; the bytes must not escape it. `noSuchObject` for an unknown id, `isLocked` when it
    /// cannot be read now (or the user refused `caller` this item). A read that asks the user
    /// first asks only when `asking`; without, it is `mustAsk` at once.
    func withSecret<Result: ~Copyable>(
        of id: String, for caller: SecretCaller, asking: Bool,
        _ body: (UnsafeRawBufferPointer, _ contentType: String) throws(DBusFailure) -> Result
    ) throws(DBusFailure) -> Result

    /// A store for the reads that ask the user, each on a thread of its own while the bus's
    /// thread goes on: this one, if it may be used from another thread.
    func forAnotherThread() -> any SecretItemStore
}

extension SecretItemStore {
    public func isLocked() throws(DBusFailure) -> Bool {
        try describeCollection().locked
    }

    /// Refused politely unless a store keeps the label: the call fails, nothing else does.
    public func relabelCollection(_ label: String) throws(DBusFailure) {
        throw .notSupported("this collection's label cannot be changed")
    }
}

/// The collection as the Collection interface's properties show it (its items are `search`'s).
public struct SecretCollectionDescription: Equatable, Sendable {
    public var label: String
    public var locked: Bool
    /// Seconds since 1970.
    public var created: UInt64
    public var modified: UInt64

    public init(label: String, locked: Bool, created: UInt64, modified: UInt64) {
        self.label = label
        self.locked = locked
        self.created = created
        self.modified = modified
    }
}

/// An item as the Item interface's properties show it: never its secret.
public struct SecretItemDescription: Equatable, Sendable {
    public var label: String
    public var attributes: [String: String]
    /// Whether it cannot be read now (the vault is locked).
    public var locked: Bool
    /// Seconds since 1970.
    public var created: UInt64
    public var modified: UInt64

    public init(label: String, attributes: [String: String], locked: Bool, created: UInt64, modified: UInt64) {
        self.label = label
        self.attributes = attributes
        self.locked = locked
        self.created = created
        self.modified = modified
    }
}

/// Who made a call, as the bus daemon says: its connection's unique name and its process (for
/// the item's creating program, and later the approval of reads). Never the caller's own word.
public struct SecretCaller: Equatable, Sendable {
    public var uniqueName: String
    public var pid: Int32?

    public init(uniqueName: String, pid: Int32?) {
        self.uniqueName = uniqueName
        self.pid = pid
    }
}
