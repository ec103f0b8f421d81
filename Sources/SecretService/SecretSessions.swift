import VaultCrypto

/// The open sessions (`OpenSession`), each its connection's: another caller naming one gets
/// `NoSession`, so one client cannot read secrets through another's keys. They end with
/// `Session.Close` or when their connection leaves the bus, and what they cost is bounded:
/// `perConnection` open per connection and `inAll` in all (`LimitsExceeded` beyond; libsecret
/// opens one per process). On the bus's thread only.
final class SecretSessions {
    static let perConnection = 64
    static let inAll = 1024

    /// An open session: whose it is, and its cipher (nil: `plain`).
    final class Session {
        let owner: String
        let cipher: Cipher?

        init(owner: String, cipher: Cipher?) {
            self.owner = owner
            self.cipher = cipher
        }
    }

    /// A DH session's keys, shared by reference (`DHSession` is not copyable).
    final class Cipher {
        let session: DHSession

        init(_ session: consuming DHSession) {
            self.session = session
        }
    }

    private let prefix: String
    private var open: [String: Session] = [:]
    private var made = 0

    /// Sessions at `prefix` followed by a name.
    init(under prefix: String) {
        self.prefix = prefix
    }

    /// Refuses a new session for `owner` beyond the bounds; asked before any work is done.
    func requireRoom(for owner: String) throws(DBusFailure) {
        guard open.count < Self.inAll else {
            throw .limitsExceeded("\(Self.inAll) sessions are open; close some (Session.Close)")
        }
        guard open.values.count(where: { $0.owner == owner }) < Self.perConnection else {
            throw .limitsExceeded("this connection has \(Self.perConnection) sessions open; close one (Session.Close)")
        }
    }

    /// A new session of `owner`'s: its path.
    func add(owner: String, cipher: Cipher?) throws(DBusFailure) -> String {
        try requireRoom(for: owner)
        made += 1
        let path = prefix + "s\(made)"
        open[path] = Session(owner: owner, cipher: cipher)
        return path
    }

    /// The open session at `path`, if `caller` opened it.
    func session(_ path: String, of caller: String?) throws(DBusFailure) -> Session {
        guard let session = open[path], session.owner == caller else {
            throw .noSession("no open session \(path) for this connection; open one with OpenSession")
        }
        return session
    }

    func close(_ path: String, of caller: String?) throws(DBusFailure) {
        _ = try session(path, of: caller)
        open[path] = nil
    }

    /// Every session of `owner`'s closed: it left the bus.
    func forget(_ owner: String) {
        open = open.filter { $0.value.owner != owner }
    }
}
