import Commands
import Platform
import SecretService
import VaultAgent
import VaultCrypto
import VaultModel

/// The Secret Service's items as the unlocked agent holds them: every call one round trip to the
/// agent (`VaultAccess`, the one way to it), nothing kept here but what is being passed on. With
/// the agent locked (or not running), the collection is locked: nothing is listed or read, and a
/// change is refused as locked. A secret read comes back in protected memory and is lent to the
/// server, which seals it for the caller's session.
final class AgentItemStore: SecretItemStore {
    let context: CommandContext

    init(context: CommandContext) {
        self.context = context
    }

    func search(_ attributes: [String: String]) throws(DBusFailure) -> (unlocked: [String], locked: [String]) {
        guard let listed = try items(.search(attributes: attributes)) else { return ([], []) }
        let ids = listed.items.map(\.id)
        return listed.locked ? ([], ids) : (ids, [])
    }

    func describeCollection() throws(DBusFailure) -> SecretCollectionDescription {
        guard let listed = try items(.search(attributes: [:])), !listed.locked else {
            return SecretCollectionDescription(label: collectionLabel, locked: true, created: 0, modified: 0)
        }
        return SecretCollectionDescription(
            label: collectionLabel, locked: false,
            created: Self.seconds(listed.items.map(\.created).min() ?? 0),
            modified: Self.seconds(listed.items.map(\.modified).max() ?? 0))
    }

    func describe(_ id: String) throws(DBusFailure) -> SecretItemDescription {
        guard let listed = try items(.describe(id: id)), let item = listed.items.first else {
            throw .isLocked("the vault is locked: run `pwtui unlock`, or unlock it through the prompt")
        }
        return SecretItemDescription(
            label: item.label, attributes: item.attributes, locked: listed.locked, created: Self.seconds(item.created),
            modified: Self.seconds(item.modified))
    }

    func create(
        label: String, attributes: [String: String], secret: borrowing SecureBytes, contentType: String,
        replace: Bool, creator: SecretCaller
    ) throws(DBusFailure) -> (id: String, replaced: Bool) {
        let request = KeyringRequest.create(
            label: label, attributes: attributes, contentType: contentType, replace: replace,
            creator: KeyringCaller(pid: creator.pid))
        guard case .created(let id, let replaced) = try answer(request, payload: secret).body else {
            throw .failed("the agent answered a creation with something else")
        }
        return (id, replaced)
    }

    func setSecret(of id: String, to secret: borrowing SecureBytes, contentType: String) throws(DBusFailure) {
        _ = try answer(.setSecret(id: id, contentType: contentType), payload: secret)
    }

    func update(_ id: String, label: String?, attributes: [String: String]?) throws(DBusFailure) {
        _ = try answer(.update(id: id, label: label, attributes: attributes))
    }

    func delete(_ id: String) throws(DBusFailure) {
        _ = try answer(.delete(id: id))
    }

    func lock() throws(DBusFailure) {
        _ = VaultAccess.lockAgent(holding: context.vaultPath, in: context)
    }

    func withSecret<Result: ~Copyable>(
        of id: String, for caller: SecretCaller,
        _ body: (UnsafeRawBufferPointer, _ contentType: String) throws(DBusFailure) -> Result
    ) throws(DBusFailure) -> Result {
        let reply = try answer(.secret(id: id, reader: KeyringCaller(pid: caller.pid)))
        guard case .secret(let contentType) = reply.body else {
            throw .failed("the agent answered a read with something else")
        }
        return try reply.secret.withUnsafeBytes { (bytes) throws(DBusFailure) in try body(bytes, contentType) }
    }

    /// The collection's label, as a client last set it (secretstorage's tests set it and put it
    /// back): kept by this service while it runs. The vault has no collection of its own to
    /// label; every service starts as gnome-keyring's login keyring is called.
    private var collectionLabel = "Login"

    func relabelCollection(_ label: String) throws(DBusFailure) {
        collectionLabel = label
    }

    /// The items the agent lists, and whether they are locked (listed from the identity store);
    /// nil when it lists nothing (not running, or locked with no current identity store).
    private func items(_ request: KeyringRequest) throws(DBusFailure) -> (items: [KeyringItemSummary], locked: Bool)? {
        guard let reply = try ask(request, payload: try Self.nothing()) else { return nil }
        guard case .items(let items, let locked) = reply.body else {
            throw .failed("the agent answered a listing with something else")
        }
        return (items, locked)
    }

    /// What the agent answered: the reply and a secret read, if any.
    private struct Reply: ~Copyable {
        let body: KeyringAnswer
        var secret: SecureBytes
    }

    private func answer(_ request: KeyringRequest) throws(DBusFailure) -> Reply {
        try answer(request, payload: try Self.nothing())
    }

    private func answer(_ request: KeyringRequest, payload: borrowing SecureBytes) throws(DBusFailure) -> Reply {
        guard let reply = try ask(request, payload: payload) else {
            throw .isLocked("the vault is locked: run `pwtui unlock`, or unlock it through the prompt")
        }
        return reply
    }

    /// `request` through `VaultAccess`; nil when no agent holds the vault unlocked. Refusals
    /// become D-Bus errors by what they mean: no such item, a request out of bounds, the user's no.
    private func ask(_ request: KeyringRequest, payload: borrowing SecureBytes) throws(DBusFailure) -> Reply? {
        do {
            guard
                let answer = try VaultAccess.ask(
                    .keyring(vault: context.vaultPath, request: request), payload: payload, in: context)
            else { return nil }
            guard case .keyring(let body) = answer.body else {
                throw DBusFailure.failed("the agent answered something else: \(answer.body)")
            }
            return Reply(body: body, secret: answer.takePayload())
        } catch let failure as DBusFailure {
            throw failure
        } catch let refusal as AgentRefusal {
            switch refusal.status {
            case .noMatch where KeyringItem.isRefusal(refusal.message): throw .isLocked(refusal.message)
            case .noMatch: throw .noSuchObject(refusal.message)
            case .usage: throw .invalidArguments(refusal.message)
            default: throw .failed(refusal.message)
            }
        } catch {
            throw .failed("the agent could not be asked: \(error)")
        }
    }

    private static func nothing() throws(DBusFailure) -> SecureBytes {
        do { return try SecureBytes(zeros: 0) } catch { throw .failed("no protected memory: \(error)") }
    }

    private static func seconds(_ milliseconds: Int64) -> UInt64 {
        UInt64(max(0, milliseconds / 1000))
    }
}
