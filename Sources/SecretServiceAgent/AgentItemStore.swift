import Commands
import Platform
import SecretService
import VaultAgent
import VaultCrypto
import VaultModel

/// The Secret Service's items as the unlocked agent holds them: every call one round trip to the
/// agent (`VaultAccess`, the one way to it, on one kept connection), nothing kept here but what
/// is being passed on — and the descriptions of the items the agent listed last, for a moment.
/// With the agent locked (or not running), the collection is locked: nothing is listed or read,
/// and a change is refused as locked. A secret read comes back in protected memory and is lent to
/// the server, which seals it for the caller's session.
///
/// Why a moment's memory: a client reads a secret in four calls (secretstorage: the search, the
/// item's `Label` as it makes the item, its `Locked` before `GetSecret`, the secret), and the
/// two properties are what the search has just said. Answered from that answer for
/// `listingLifetime`, a read costs the agent two requests, not four. A description can be
/// that much older than the vault, as a D-Bus client's cached properties always are (GDBus
/// keeps them until a signal); every change made here forgets it, and only unlocked
/// descriptions are kept, so an unlock is never hidden.
final class AgentItemStore: SecretItemStore {
    let context: CommandContext
    /// Makes the contexts of the stores for reads that ask the user (`forAnotherThread`): a
    /// context is one thread's.
    let makeContext: @Sendable () -> CommandContext
    static let listingLifetime = Duration.milliseconds(250)
    private var listed: (items: [String: SecretItemDescription], at: ContinuousClock.Instant)?

    init(context: CommandContext, makeContext: @escaping @Sendable () -> CommandContext) {
        self.context = context
        self.makeContext = makeContext
    }

    /// A store of its own, with a context and a connection of its own: a read that waits for the
    /// user holds nothing the bus's thread needs.
    func forAnotherThread() -> any SecretItemStore {
        AgentItemStore(context: makeContext(), makeContext: makeContext)
    }

    func search(_ attributes: [String: String]) throws(DBusFailure) -> (unlocked: [String], locked: [String]) {
        guard let listed = try items(.search(attributes: attributes)) else { return ([], []) }
        let ids = listed.items.map(\.id)
        remember(listed.items, locked: listed.locked)
        return listed.locked ? ([], ids) : (ids, [])
    }

    func describeCollection() throws(DBusFailure) -> SecretCollectionDescription {
        guard let reply = try ask(.collection(times: true), payload: try Self.nothing()),
            case .collection(let locked, let created, let modified) = reply.body
        else {
            return SecretCollectionDescription(label: collectionLabel, locked: true, created: 0, modified: 0)
        }
        return SecretCollectionDescription(
            label: collectionLabel, locked: locked, created: Self.seconds(created), modified: Self.seconds(modified))
    }

    /// Asked before every create: the agent's answer without the times, which are a pass over
    /// the vault.
    func isLocked() throws(DBusFailure) -> Bool {
        guard let reply = try ask(.collection(times: false), payload: try Self.nothing()),
            case .collection(let locked, _, _) = reply.body
        else { return true }
        return locked
    }

    func describe(_ id: String) throws(DBusFailure) -> SecretItemDescription {
        if let listed, ContinuousClock.now - listed.at < Self.listingLifetime, let item = listed.items[id] {
            return item
        }
        guard let listed = try items(.describe(id: id)), let item = listed.items.first else {
            throw .isLocked("the vault is locked: run `pwtui unlock`, or unlock it through the prompt")
        }
        remember(listed.items, locked: listed.locked)
        return Self.description(of: item, locked: listed.locked)
    }

    /// What the agent just listed, as the next calls may ask for it; forgotten when locked.
    private func remember(_ items: [KeyringItemSummary], locked: Bool) {
        guard !locked else { return listed = nil }
        var described: [String: SecretItemDescription] = [:]
        for item in items { described[item.id] = Self.description(of: item, locked: false) }
        listed = (described, .now)
    }

    private static func description(of item: KeyringItemSummary, locked: Bool) -> SecretItemDescription {
        SecretItemDescription(
            label: item.label, attributes: item.attributes, locked: locked, created: seconds(item.created),
            modified: seconds(item.modified))
    }

    func create(
        label: String, attributes: [String: String], secret: borrowing SecureBytes, contentType: String,
        replace: Bool, creator: SecretCaller
    ) throws(DBusFailure) -> (id: String, replaced: Bool) {
        let request = KeyringRequest.create(
            label: label, attributes: attributes, contentType: contentType, replace: replace,
            creator: KeyringCaller(pid: creator.pid))
        guard case .created(let id, let replaced, let item) = try answer(request, payload: secret).body else {
            throw .failed("the agent answered a creation with something else")
        }
        // secretstorage reads the new item's Label at once (its `Item` checks the item exists).
        remember([item], locked: false)
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
        listed = nil
        _ = VaultAccess.lockAgent(holding: context.vaultPath, in: context)
    }

    func withSecret<Result: ~Copyable>(
        of id: String, for caller: SecretCaller, asking: Bool,
        _ body: (UnsafeRawBufferPointer, _ contentType: String) throws(DBusFailure) -> Result
    ) throws(DBusFailure) -> Result {
        let reply = try answer(.secret(id: id, reader: KeyringCaller(pid: caller.pid), asking: asking))
        if case .mustAsk = reply.body { throw .mustAsk("reading \(id) asks the user first") }
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
        if request.isWrite { listed = nil }
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
