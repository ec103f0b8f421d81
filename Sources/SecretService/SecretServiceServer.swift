import Platform
import VaultCrypto

/// `org.freedesktop.secrets` on a session bus: the freedesktop Secret Service API
/// (specifications.freedesktop.org/secret-service), the part that does not depend on how items
/// are kept. What it answers so far:
///
/// - `org.freedesktop.Secret.Service.OpenSession(s algorithm, v input) → (v output, o result)`
///   with `plain` (input and output the empty string) and `dh-ietf1024-sha256-aes128-cbc-pkcs7`
///   (input the client's public key, `ay`; output ours: `DHSession`). Any other algorithm is
///   `org.freedesktop.DBus.Error.NotSupported`, as libsecret expects before it falls back to plain.
/// - `SearchItems(a{ss} attributes) → (ao unlocked, ao locked)`, from the `SecretItemStore`.
/// - `GetSecrets(ao items, o session) → a{o(oayays)}`: each readable item's secret, encrypted for
///   the session (plain: as it is); an item that is locked or gone is left out, as gnome-keyring does.
/// - `ReadAlias(s) → o`: `default` (and `login`) name the one collection; any other, `/`.
/// - The collection, at `/org/freedesktop/secrets/collection/login` and at the `default` alias's
///   path: `SearchItems(a{ss}) → ao` and its properties `Items`, `Label`, `Locked`, `Created`,
///   `Modified`.
/// - Writing: the collection's `CreateItem(a{sv} properties, (oayays) secret, b replace) → (o item,
///   o prompt)` (`Label` and `Attributes` from the properties; the creator as the bus daemon names
///   it: `SecretCaller`), an item's `SetSecret((oayays))` and `Delete() → o prompt`. A secret
///   sent in a DH session is decrypted into protected memory; in a plain one it is copied there
///   from the message. No prompt is ever needed (`/`).
/// - `Properties.Set` of an item's `Label` or `Attributes`, and of the collection's `Label` (when
///   the store keeps one: `SecretItemStore.relabelCollection`).
/// - The collection's signals, from its path: `ItemCreated`, `ItemChanged` (a replace, a new
///   secret, label or attributes), `ItemDeleted`, each with the item's path (libsecret's cached
///   collections follow them); and `org.freedesktop.DBus.Properties.PropertiesChanged` with the
///   new values, from an item after a change (`Label`, `Attributes`, `Modified`) and from the
///   collection after it is relabelled (`Label`); after an item is created or deleted, with the
///   collection's `Items` invalidated (`itemsChanged`). GDBus proxies (libsecret's) cache
///   properties and follow that signal alone.
/// - One collection, so the calls that would make or unmake others are answered, and refused
///   politely where they would change something: `SetAlias` of `default` (or `login`) to the
///   collection is a no-op, any other `NotSupported`; `CreateCollection` with the alias `default`
///   (or `login`) gives the collection, as the specification says for an alias that exists, any
///   other `NotSupported`; the collection's `Delete` is `NotSupported`.
/// - `Lock(ao objects) → (ao locked, o prompt)`: the store locks (the vault, for pwtui), and the
///   objects named that are locked now; no prompt.
/// - `org.freedesktop.DBus.Introspectable.Introspect` on the service, the collection (both
///   paths), its items and a caller's own sessions (`SecretServiceIntrospection`).
/// - `Unlock(ao objects) → (ao unlocked, o prompt)`: the objects that are readable now; when some
///   are locked, a Prompt (`/org/freedesktop/secrets/prompt/pN`) if there is a `SecretPrompter`,
///   else no prompt (`/`) and they stay locked. The prompt's `Prompt(s window)` asks the prompter
///   (off the bus's thread), and its answer is the prompt's `Completed(b dismissed, v ao)` signal
///   with the objects unlocked now; `Dismiss()` completes it dismissed. A prompt is its caller's,
///   like a session, and goes with it.
/// - `org.freedesktop.Secret.Item.GetSecret(o session) → (oayays)` on an item's path.
/// - `org.freedesktop.DBus.Properties.Get` and `GetAll`: the service's `Collections`, an item's
///   `Label`, `Attributes`, `Locked`, `Created` and `Modified`.
/// - `org.freedesktop.Secret.Session.Close()` on a session's own path.
///
/// Sessions (`SecretSessions`) and prompts (`SecretPrompts`) are their connection's, end when it
/// leaves the bus, and are bounded in number. A method not named here gets sd-bus's own
/// `UnknownMethod`.
public final class SecretServiceServer {
    public static let busName = "org.freedesktop.secrets"
    static let root = "/org/freedesktop/secrets"
    static let sessionPrefix = root + "/session/"
    static let collectionPrefix = root + "/collection/login/"
    static let serviceInterface = "org.freedesktop.Secret.Service"
    static let sessionInterface = "org.freedesktop.Secret.Session"
    static let promptInterface = "org.freedesktop.Secret.Prompt"
    static let promptPrefix = root + "/prompt/"
    static let itemInterface = "org.freedesktop.Secret.Item"
    static let collectionInterface = "org.freedesktop.Secret.Collection"
    /// Where secretstorage looks for the default collection first.
    static let defaultAlias = root + "/aliases/default"
    static let propertiesInterface = "org.freedesktop.DBus.Properties"
    /// The one collection, `login` (what the `default` alias names in gnome-keyring).
    static let collection = root + "/collection/login"
    /// The aliases that name it (ReadAlias, SetAlias, CreateCollection).
    static let aliases = ["default", "login"]

    let store: any SecretItemStore
    /// Broadcasts one of the collection's signals (`member`, the item's path); set by `run`.
    var signal: (_ member: String, _ item: String) -> Void = { _, _ in }
    /// Broadcasts `PropertiesChanged` from `path` for `interface` with the new values of some
    /// properties and the names of others changed (`invalidated`, their values left to a `Get`);
    /// set by `run`.
    var propertiesChanged:
        (_ path: String, _ interface: String, _ changed: [(name: String, value: DBusValue)], _ invalidated: [String])
            -> Void = { _, _, _, _ in }
    private let sessions = SecretSessions(under: sessionPrefix)
    private let prompts = SecretPrompts(under: promptPrefix)
    private let reads = SecretReads()

    let prompter: (any SecretPrompter)?
    /// Broadcasts a prompt's `Completed`; set by `run`.
    var completed: (_ prompt: String, _ dismissed: Bool, _ unlocked: [String]) -> Void = { _, _, _ in }

    init(store: any SecretItemStore, prompter: (any SecretPrompter)? = nil) {
        self.store = store
        self.prompter = prompter
    }

    /// `run` on the session bus `DBUS_SESSION_BUS_ADDRESS` names in `environment`.
    public static func run(
        in environment: Environment, store: any SecretItemStore, prompter: (any SecretPrompter)? = nil,
        ready: (String) -> Void = { _ in }, while keepGoing: () -> Bool
    ) throws(SecretServiceError) {
        guard let address = sessionBus(in: environment) else { throw .noSessionBus }
        try run(address: address, store: store, prompter: prompter, ready: ready, while: keepGoing)
    }

    /// The session bus's address: `DBUS_SESSION_BUS_ADDRESS`; else, started by the bus itself (D-Bus
    /// activation), the one that started it (`DBUS_STARTER_ADDRESS`: dbus-daemon passes no
    /// session address of its own to what it activates); else systemd's user bus
    /// (`$XDG_RUNTIME_DIR/bus`), which a user unit is on. Nil when there is none.
    static func sessionBus(in environment: Environment) -> String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        if environment["DBUS_STARTER_BUS_TYPE"] == "session", let address = environment["DBUS_STARTER_ADDRESS"],
            !address.isEmpty
        {
            return address
        }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty,
            (try? FileSystem.status(runtime + "/bus").kind) == .socket
        {
            return "unix:path=" + runtime + "/bus"
        }
        return nil
    }

    /// Serves `store` as `org.freedesktop.secrets` on the bus at `address` until `keepGoing`
    /// says no (asked at least four times a second) or the bus ends; `ready` is called with the connection's
    /// unique name once the name is owned. Everything happens on the caller's thread.
    public static func run(
        address: String, store: any SecretItemStore, prompter: (any SecretPrompter)? = nil,
        ready: (String) -> Void = { _ in }, while keepGoing: () -> Bool
    ) throws(SecretServiceError) {
        let connection = try DBusConnection(address: address)
        let server = SecretServiceServer(store: store, prompter: prompter)
        try connection.route(root) { (call) throws(DBusFailure) in try server.respond(call) }
        try connection.watchDepartures { name in server.forgetSessions(of: name) }
        // A signal that cannot be sent costs its listeners a refresh, never the change itself.
        server.signal = { [unowned connection] member, item in
            try? connection.emit(from: collection, collectionInterface, member, objectPath: item)
        }
        server.propertiesChanged = { [unowned connection] path, interface, changed, invalidated in
            try? connection.emit(from: path, propertiesInterface, "PropertiesChanged") { (signal) throws(DBusFailure) in
                try signal.append(string: interface)
                try signal.open("a", "{sv}")
                for (name, value) in changed {
                    try signal.open("e", "sv")
                    try signal.append(string: name)
                    try value.append(to: signal)
                    try signal.close()
                }
                try signal.close()
                try signal.open("a", "s")
                for name in invalidated { try signal.append(string: name) }
                try signal.close()
            }
        }
        server.completed = { [unowned connection] prompt, dismissed, unlocked in
            try? connection.emit(from: prompt, promptInterface, "Completed") { (signal) throws(DBusFailure) in
                try signal.append(bool: dismissed)
                try DBusValue.objectPaths(unlocked).append(to: signal)
            }
        }
        try connection.requestName(busName)
        ready(connection.uniqueName)
        try connection.serve(
            eachTurn: {
                server.completePrompts()
                server.finishReads()
            }, while: keepGoing)
    }

    /// What to do with one method call: a secret's read may be answered later (`SecretReads`).
    func respond(_ call: DBusMessage) throws(DBusFailure) -> DBusConnection.DBusAnswer {
        switch (call.path, call.interface, call.member) {
        case (Self.root, Self.serviceInterface, "GetSecrets"):
            return try getSecrets(call)
        case (.some(let path), Self.itemInterface, "GetSecret") where path.hasPrefix(Self.collectionPrefix):
            try require(call, "o")
            let sessionPath = try call.objectPath()
            let waiting = SecretReads.Waiting(call: call, sessionPath: sessionPath, many: false)
            guard let outcomes = try read([(path, try Self.itemID(path))], for: waiting) else { return .later }
            return .reply(try secretReply(to: call, outcomes, at: sessionPath))
        default:
            return try answer(call).map { .reply($0) } ?? .notMine
        }
    }

    /// The answer to one method call; nil: no such method here.
    func answer(_ call: DBusMessage) throws(DBusFailure) -> DBusMessage? {
        guard let path = call.path, let member = call.member else { return nil }
        switch (path, call.interface, member) {
        case (Self.root, Self.serviceInterface, "OpenSession"): return try openSession(call)
        case (Self.root, Self.serviceInterface, "SearchItems"): return try searchItems(call)
        case (Self.root, Self.serviceInterface, "Unlock"): return try unlock(call)
        case (Self.root, Self.serviceInterface, "Lock"):
            let objects = try Self.objectPaths(of: call)
            try store.lock()
            let reply = try call.methodReturn()
            try reply.open("a", "o")
            for path in objects where try lockState(path) == true { try reply.append(objectPath: path) }
            try reply.close()
            try reply.append(objectPath: "/")
            return reply
        case (_, Self.promptInterface, "Prompt") where path.hasPrefix(Self.promptPrefix):
            try require(call, "s")
            guard let prompter else { throw .noSuchObject("no prompt \(path)") }
            try prompts.ask(path, of: call.sender, prompter: prompter)
            return try call.methodReturn()
        case (_, Self.promptInterface, "Dismiss") where path.hasPrefix(Self.promptPrefix):
            try require(call, "")
            try prompts.dismiss(path, of: call.sender)
            completed(path, true, [])
            return try call.methodReturn()
        case (_, "org.freedesktop.DBus.Introspectable", "Introspect"):
            try require(call, "")
            guard let xml = try introspection(of: path, for: call) else { return nil }
            let reply = try call.methodReturn()
            try reply.append(string: xml)
            return reply
        case (Self.root, Self.serviceInterface, "ReadAlias"):
            try require(call, "s")
            let alias = try call.string()
            let reply = try call.methodReturn()
            try reply.append(objectPath: Self.aliases.contains(alias) ? Self.collection : "/")
            return reply
        case (Self.root, Self.serviceInterface, "SetAlias"):
            try require(call, "so")
            let alias = try call.string()
            let target = try call.objectPath()
            guard Self.aliases.contains(alias) else {
                throw .notSupported(
                    "pwtui keeps one collection, named by the aliases default and login; it keeps no alias \(alias)")
            }
            // Already so: the one collection is what the alias names, and always will be.
            guard [Self.collection, Self.defaultAlias].contains(target) else {
                throw .notSupported(
                    "the alias \(alias) always names \(Self.collection), the one collection; not \(target)")
            }
            return try call.methodReturn()
        case (Self.root, Self.serviceInterface, "CreateCollection"):
            try require(call, "a{sv}s")
            try call.skip("a{sv}")
            let alias = try call.string()
            // The specification: a collection for an alias that exists is that collection.
            guard Self.aliases.contains(alias) else {
                throw .notSupported(
                    "pwtui keeps every item in one collection, \(Self.collection) (the default alias); it creates no other"
                )
            }
            let reply = try call.methodReturn()
            try reply.append(objectPath: Self.collection)
            try reply.append(objectPath: "/")
            return reply
        case (Self.collection, Self.collectionInterface, "Delete"),
            (Self.defaultAlias, Self.collectionInterface, "Delete"):
            try require(call, "")
            throw .notSupported(
                "\(Self.collection) holds the vault's items and cannot be deleted; delete its items one by one")
        case (Self.collection, Self.collectionInterface, "CreateItem"),
            (Self.defaultAlias, Self.collectionInterface, "CreateItem"):
            return try createItem(call)
        case (_, Self.itemInterface, "SetSecret") where path.hasPrefix(Self.collectionPrefix):
            try require(call, "(oayays)")
            let id = try Self.itemID(path)
            let secret = try receiveSecret(call)
            try store.setSecret(of: id, to: secret.bytes, contentType: secret.contentType)
            itemChanged(path, ["Modified"])
            return try call.methodReturn()
        case (_, Self.itemInterface, "Delete") where path.hasPrefix(Self.collectionPrefix):
            try require(call, "")
            try store.delete(try Self.itemID(path))
            signal("ItemDeleted", path)
            itemsChanged()
            let reply = try call.methodReturn()
            try reply.append(objectPath: "/")
            return reply
        case (Self.collection, Self.collectionInterface, "SearchItems"),
            (Self.defaultAlias, Self.collectionInterface, "SearchItems"):
            let found = try store.search(try Self.attributes(of: call))
            let reply = try call.methodReturn()
            try reply.open("a", "o")
            for id in found.unlocked + found.locked { try reply.append(objectPath: try Self.itemPath(id)) }
            try reply.close()
            return reply
        case (_, Self.propertiesInterface, "Get"):
            try require(call, "ss")
            let interface = try call.string()
            let name = try call.string()
            guard let value = try properties(of: path, interface, only: name).first(where: { $0.name == name })?.value
            else {
                throw .invalidArguments("\(path) has no property \(interface).\(name)")
            }
            let reply = try call.methodReturn()
            try value.append(to: reply)
            return reply
        case (Self.collection, Self.propertiesInterface, "Set"), (Self.defaultAlias, Self.propertiesInterface, "Set"):
            try require(call, "ssv")
            guard try call.string() == Self.collectionInterface, try call.string() == "Label" else {
                throw .invalidArguments(
                    "of the collection's properties, only \(Self.collectionInterface).Label can be set")
            }
            try call.enter("v", "s")
            try store.relabelCollection(try call.string())
            try call.exit()
            announce(Self.collection, Self.collectionInterface, ["Label"])
            return try call.methodReturn()
        case (_, Self.propertiesInterface, "Set") where path.hasPrefix(Self.collectionPrefix):
            try require(call, "ssv")
            let id = try Self.itemID(path)
            guard try call.string() == Self.itemInterface else {
                throw .invalidArguments("an item's properties are \(Self.itemInterface)'s")
            }
            let name = try call.string()
            switch name {
            case "Label":
                try call.enter("v", "s")
                try store.update(id, label: try call.string(), attributes: nil)
            case "Attributes":
                try call.enter("v", "a{ss}")
                try store.update(id, label: nil, attributes: try Self.readAttributes(call))
            default:
                throw .invalidArguments("\(name) cannot be set; Label and Attributes can")
            }
            try call.exit()
            itemChanged(path, [name, "Modified"])
            return try call.methodReturn()
        case (_, Self.propertiesInterface, "GetAll"):
            try require(call, "s")
            let interface = try call.string()
            let reply = try call.methodReturn()
            try reply.open("a", "{sv}")
            for (name, value) in try properties(of: path, interface) {
                try reply.open("e", "sv")
                try reply.append(string: name)
                try value.append(to: reply)
                try reply.close()
            }
            try reply.close()
            return reply
        case (_, Self.sessionInterface, "Close") where path.hasPrefix(Self.sessionPrefix):
            try sessions.close(path, of: call.sender)
            return try call.methodReturn()
        default: return nil
        }
    }

    /// Item `path` changed: the collection's `ItemChanged`, and the item's `PropertiesChanged`
    /// with the new values of `names`.
    private func itemChanged(_ path: String, _ names: [String]) {
        signal("ItemChanged", path)
        announce(path, Self.itemInterface, names)
    }

    /// The collection's `Items` changed (an item created or deleted): `PropertiesChanged` with
    /// `Items` invalidated, not its value. The value is a listing of every item, a round trip
    /// to the agent as long as the vault, and a create must cost what it changes (issue 40's
    /// speed target); libsecret keeps its items from `ItemCreated` and `ItemDeleted`, and a GDBus
    /// proxy drops an invalidated property from its cache and asks for it when next read.
    private func itemsChanged() {
        propertiesChanged(Self.collection, Self.collectionInterface, [], ["Items"])
    }

    /// `PropertiesChanged` from `path` with the values of `names` read back from the store, so
    /// a listener hears what `Get` answers now. A store that cannot say now leaves the signal
    /// out: the change stands, and a listener reads the properties when it next needs them.
    private func announce(_ path: String, _ interface: String, _ names: [String]) {
        guard let all = try? properties(of: path, interface) else { return }
        propertiesChanged(path, interface, all.filter { names.contains($0.name) }, [])
    }

    /// Drops every session and prompt `owner` has: it left the bus.
    func forgetSessions(of owner: String) {
        sessions.forget(owner)
        prompts.forget(owner)
        callerPIDs[owner] = nil
    }

    /// The prompters' answers, on the bus's thread: each prompt completes with the objects it
    /// named that are unlocked now, or dismissed.
    func completePrompts() {
        for answer in prompts.takeAnswers() {
            let unlocked = answer.unlocked ? answer.prompt.objects.filter { (try? lockState($0)) == .some(false) } : []
            completed(answer.path, !answer.unlocked, unlocked)
        }
    }

    /// The algorithm names OpenSession accepts.
    public static let algorithms = ["plain", DHSession.algorithm]

    private func openSession(_ call: DBusMessage) throws(DBusFailure) -> DBusMessage {
        try require(call, "sv")
        let owner = call.sender ?? ""
        try sessions.requireRoom(for: owner)
        let algorithm = try call.string()
        let reply = try call.methodReturn()
        let cipher: SecretSessions.Cipher?
        switch algorithm {
        case "plain":
            try call.enter("v", "s")
            _ = try call.string()
            try call.exit()
            try reply.open("v", "s")
            try reply.append(string: "")
            try reply.close()
            cipher = nil
        case DHSession.algorithm:
            try call.enter("v", "ay")
            let theirs = try call.bytes()
            try call.exit()
            let ours: DHSession.KeyPair
            do {
                ours = try DHSession.KeyPair()
            } catch {
                throw .failed("could not make a Diffie-Hellman key: \(error)")
            }
            try reply.open("v", "ay")
            try reply.append(bytes: ours.publicKey)
            try reply.close()
            do {
                cipher = SecretSessions.Cipher(try ours.session(withPeer: theirs))
            } catch {
                throw .invalidArguments("the client's public key: \(error)")
            }
        default:
            throw .notSupported(
                "the session algorithm \(algorithm) is not supported; use one of \(Self.algorithms.joined(separator: ", "))"
            )
        }
        try reply.append(objectPath: try sessions.add(owner: owner, cipher: cipher))
        return reply
    }

    private func searchItems(_ call: DBusMessage) throws(DBusFailure) -> DBusMessage {
        let found = try store.search(try Self.attributes(of: call))
        let reply = try call.methodReturn()
        for ids in [found.unlocked, found.locked] {
            try reply.open("a", "o")
            for id in ids { try reply.append(objectPath: try Self.itemPath(id)) }
            try reply.close()
        }
        return reply
    }

    private func getSecrets(_ call: DBusMessage) throws(DBusFailure) -> DBusConnection.DBusAnswer {
        try require(call, "aoo")
        var items: [String] = []
        try call.enter("a", "o")
        while call.peek() != nil { items.append(try call.objectPath()) }
        try call.exit()
        let sessionPath = try call.objectPath()
        let readable = items.compactMap { path in (try? Self.itemID(path)).map { (path: path, id: $0) } }
        let waiting = SecretReads.Waiting(call: call, sessionPath: sessionPath, many: true)
        guard let outcomes = try read(readable, for: waiting) else { return .later }
        return .reply(try secretsReply(to: call, outcomes, at: sessionPath))
    }

    /// `items` read for `waiting`'s caller now, in the order asked; or nil when one of them asks
    /// the user first: then all of them are read on a thread of their own (`SecretReads`, asking
    /// as their policies say), and `finishReads` answers the call.
    private func read(_ items: [(path: String, id: String)], for waiting: SecretReads.Waiting) throws(DBusFailure)
        -> [SecretReads.Outcome]?
    {
        let session = try sessions.session(waiting.sessionPath, of: waiting.call.sender)
        let caller = caller(of: waiting.call)
        var outcomes: [SecretReads.Outcome] = []
        for item in items {
            let outcome = SecretReads.Outcome(path: item.path)
            do throws(DBusFailure) {
                outcome.sealed = try Self.seal(item.id, from: store, for: session, to: caller, asking: false)
            } catch {
                if case .mustAsk = error {
                    try reads.start(waiting, items: items, store: store.forAnotherThread()) {
                        (store, id) throws(DBusFailure) in
                        try Self.seal(id, from: store, for: session, to: caller, asking: true)
                    }
                    return nil
                }
                outcome.failure = error
            }
            outcomes.append(outcome)
        }
        return outcomes
    }

    /// `Item.GetSecret`'s reply: its one item's secret, or why not.
    private func secretReply(to call: DBusMessage, _ outcomes: [SecretReads.Outcome], at sessionPath: String)
        throws(DBusFailure) -> DBusMessage
    {
        guard let outcome = outcomes.first else { throw .failed("no item was read") }
        if let failure = outcome.failure { throw failure }
        guard let sealed = outcome.sealed.take() else { throw .failed("the read gave nothing") }
        let reply = try call.methodReturn()
        try append(sealed, at: sessionPath, to: reply)
        return reply
    }

    /// `GetSecrets`' reply: each item read, in the order asked; an item that cannot be read now
    /// (locked meanwhile, removed, refused) is left out whole, as gnome-keyring does, and any
    /// other failure is the call's.
    private func secretsReply(to call: DBusMessage, _ outcomes: [SecretReads.Outcome], at sessionPath: String)
        throws(DBusFailure) -> DBusMessage
    {
        let reply = try call.methodReturn()
        try reply.open("a", "{o(oayays)}")
        for outcome in outcomes {
            if let failure = outcome.failure {
                switch failure {
                case .isLocked, .noSuchObject: continue
                default: throw failure
                }
            }
            guard let sealed = outcome.sealed.take() else { continue }
            try reply.open("e", "o(oayays)")
            try reply.append(objectPath: outcome.path)
            try append(sealed, at: sessionPath, to: reply)
            try reply.close()
        }
        try reply.close()
        return reply
    }

    /// The reads that asked the user and are done, answered: on the bus's thread, between messages.
    func finishReads() {
        for (waiting, outcomes) in reads.takeFinished() {
            do throws(DBusFailure) {
                // The session may have closed while the user was asked.
                _ = try sessions.session(waiting.sessionPath, of: waiting.call.sender)
                let reply = waiting.many ? secretsReply : secretReply
                try reply(waiting.call, outcomes, waiting.sessionPath).send()
            } catch {
                waiting.call.replyError(error)
            }
        }
    }

    /// The `a{ss}` attributes a SearchItems call asks for.
    private static func attributes(of call: DBusMessage) throws(DBusFailure) -> [String: String] {
        guard call.signature == "a{ss}" else {
            throw .invalidArguments("SearchItems takes (a{ss}), not (\(call.signature))")
        }
        return try readAttributes(call)
    }

    /// An `a{ss}` at the message's position.
    private static func readAttributes(_ call: DBusMessage) throws(DBusFailure) -> [String: String] {
        var attributes: [String: String] = [:]
        try call.enter("a", "{ss}")
        while try call.enter("e", "ss") {
            let name = try call.string()
            attributes[name] = try call.string()
            try call.exit()
        }
        try call.exit()
        return attributes
    }

    private func createItem(_ call: DBusMessage) throws(DBusFailure) -> DBusMessage {
        try require(call, "a{sv}(oayays)b")
        var label = ""
        var attributes: [String: String] = [:]
        try call.enter("a", "{sv}")
        while try call.enter("e", "sv") {
            switch try call.string() {
            case "org.freedesktop.Secret.Item.Label":
                try call.enter("v", "s")
                label = try call.string()
                try call.exit()
            case "org.freedesktop.Secret.Item.Attributes":
                try call.enter("v", "a{ss}")
                attributes = try Self.readAttributes(call)
                try call.exit()
            default:
                try call.skip("v")
            }
            try call.exit()
        }
        try call.exit()
        let secret = try receiveSecret(call)
        let replace = try call.bool()
        let made = try store.create(
            label: label, attributes: attributes, secret: secret.bytes, contentType: secret.contentType,
            replace: replace, creator: caller(of: call))
        let item = try Self.itemPath(made.id)
        if made.replaced {
            itemChanged(item, ["Label", "Modified"])
        } else {
            signal("ItemCreated", item)
            itemsChanged()
        }
        let reply = try call.methodReturn()
        try reply.append(objectPath: item)
        try reply.append(objectPath: "/")
        return reply
    }

    /// A secret a client sent, in protected memory.
    struct ReceivedSecret: ~Copyable {
        var bytes: SecureBytes
        let contentType: String
    }

    /// The `Secret` struct `(oayays)` at the call's position, opened with its session (the
    /// caller's own).
    private func receiveSecret(_ call: DBusMessage) throws(DBusFailure) -> ReceivedSecret {
        try call.enter("r", "oayays")
        let session = try sessions.session(try call.objectPath(), of: call.sender)
        let parameters = try call.bytes()
        let bytes: SecureBytes
        if let cipher = session.cipher {
            let value = try call.bytes()
            do {
                bytes = try cipher.session.decrypt(parameters: parameters, value: value)
            } catch {
                throw .invalidArguments("the secret does not open with the session's key: \(error)")
            }
        } else {
            bytes = try call.withBytes { (value) throws(DBusFailure) in
                do {
                    return try SecureBytes(copying: value)
                } catch {
                    throw .failed("no protected memory for the secret: \(error)")
                }
            }
        }
        let contentType = try call.string()
        try call.exit()
        return ReceivedSecret(bytes: bytes, contentType: contentType)
    }

    /// Who sent `call`, as the bus daemon says.
    func caller(of call: DBusMessage) -> SecretCaller {
        let name = call.sender ?? ""
        if let pid = callerPIDs[name] { return SecretCaller(uniqueName: name, pid: pid) }
        let pid = call.senderPID
        if let pid, !name.isEmpty, callerPIDs.count < Self.rememberedCallers { callerPIDs[name] = pid }
        return SecretCaller(uniqueName: name, pid: pid)
    }

    /// Each calling connection's process, asked of the bus daemon once (sd-bus asks it with a
    /// call of its own, a round trip on every create and read): a connection keeps the credentials it connected with, and
    /// its unique name is never another's. Forgotten when it leaves the bus; at most
    /// `rememberedCallers` at once (then asked each time).
    private var callerPIDs: [String: Int32] = [:]
    static let rememberedCallers = 4096

    /// Item `id`'s secret from `store`, sealed for `session`, read by `caller` (asking the user
    /// first only when `asking`: `SecretItemStore.withSecret`).
    static func seal(
        _ id: String, from store: any SecretItemStore, for session: SecretSessions.Session, to caller: SecretCaller,
        asking: Bool
    ) throws(DBusFailure) -> SealedSecret {
        try store.withSecret(of: id, for: caller, asking: asking) {
            (secret, contentType) throws(DBusFailure) -> SealedSecret in
            do {
                guard let cipher = session.cipher else {
                    return SealedSecret(
                        parameters: [], value: try SecureBytes(copying: secret), contentType: contentType)
                }
                let sealed = try cipher.session.encrypt(secret)
                return SealedSecret(
                    parameters: sealed.parameters, value: try SecureBytes(copying: sealed.value),
                    contentType: contentType)
            } catch {
                throw .failed("could not seal a secret for the session: \(error)")
            }
        }
    }

    /// `sealed` as a `Secret` struct `(oayays)` of the session at `sessionPath`.
    private func append(_ sealed: borrowing SealedSecret, at sessionPath: String, to reply: DBusMessage)
        throws(DBusFailure)
    {
        try reply.open("r", "oayays")
        try reply.append(objectPath: sessionPath)
        try reply.append(bytes: sealed.parameters)
        try sealed.value.withUnsafeBytes { (value) throws(DBusFailure) in try reply.append(bytes: value) }
        try reply.append(string: sealed.contentType)
        try reply.close()
    }

    /// The `ao` a Lock or Unlock call names.
    private static func objectPaths(of call: DBusMessage) throws(DBusFailure) -> [String] {
        guard call.signature == "ao" else {
            throw .invalidArguments("\(call.member ?? "the method") takes (ao), not (\(call.signature))")
        }
        var objects: [String] = []
        try call.enter("a", "o")
        while call.peek() != nil { objects.append(try call.objectPath()) }
        try call.exit()
        return objects
    }

    /// The introspection document of the object at `path`; nil where there is no object.
    private func introspection(of path: String, for call: DBusMessage) throws(DBusFailure) -> String? {
        typealias Document = SecretServiceIntrospection
        switch path {
        case Self.root:
            return Document.document(interfaces: Document.service, children: ["aliases", "collection"])
        case Self.root + "/aliases":
            return Document.document(interfaces: "", children: ["default"])
        case Self.root + "/collection":
            return Document.document(interfaces: "", children: ["login"])
        case Self.collection:
            let found = try store.search([:])
            return Document.document(
                interfaces: Document.collection, children: (found.unlocked + found.locked).sorted())
        case Self.defaultAlias:
            // The same collection; its items' paths are under the collection's.
            return Document.document(interfaces: Document.collection, children: [])
        case _ where path.hasPrefix(Self.sessionPrefix):
            guard (try? sessions.session(path, of: call.sender)) != nil else { return nil }
            return Document.document(interfaces: Document.session, children: [])
        case _ where path.hasPrefix(Self.promptPrefix):
            guard (try? prompts.prompt(path, of: call.sender)) != nil else { return nil }
            return Document.document(interfaces: Document.prompt, children: [])
        case _ where path.hasPrefix(Self.collectionPrefix):
            guard let id = try? Self.itemID(path), (try? store.describe(id)) != nil else { return nil }
            return Document.document(interfaces: Document.item, children: [])
        default:
            return nil
        }
    }

    private func unlock(_ call: DBusMessage) throws(DBusFailure) -> DBusMessage {
        let objects = try Self.objectPaths(of: call)
        var unlocked: [String] = []
        var locked: [String] = []
        for path in objects {
            switch try lockState(path) {
            case .some(false): unlocked.append(path)
            case .some(true): locked.append(path)
            case nil: continue
            }
        }
        var promptPath = "/"
        if !locked.isEmpty, prompter != nil {
            promptPath = try prompts.add(
                owner: caller(of: call), objects: locked)
        }
        let reply = try call.methodReturn()
        try reply.open("a", "o")
        for path in unlocked { try reply.append(objectPath: path) }
        try reply.close()
        try reply.append(objectPath: promptPath)
        return reply
    }

    /// Whether the collection or item at `path` is locked now; nil when there is none there.
    private func lockState(_ path: String) throws(DBusFailure) -> Bool? {
        if path == Self.collection || path == Self.defaultAlias { return try store.isLocked() }
        guard let id = try? Self.itemID(path) else { return nil }
        do throws(DBusFailure) {
            return try store.describe(id).locked
        } catch {
            guard case .noSuchObject = error else { throw error }
            return nil
        }
    }

    /// The properties of the object at `path` in `interface`; with `only`, that one alone is
    /// worth computing (a `Get`): the collection's `Items` is a listing of every item, a round
    /// trip as long as the vault, which secretstorage's `Locked` check before each create must
    /// not pay.
    private func properties(of path: String, _ interface: String, only wanted: String? = nil) throws(DBusFailure)
        -> [(name: String, value: DBusValue)]
    {
        switch (path, interface) {
        case (Self.root, Self.serviceInterface):
            return [("Collections", .objectPaths([Self.collection]))]
        case (Self.collection, Self.collectionInterface), (Self.defaultAlias, Self.collectionInterface):
            var properties: [(name: String, value: DBusValue)] = []
            if wanted == nil || wanted == "Items" {
                let found = try store.search([:])
                let paths = try (found.unlocked + found.locked).map { (id) throws(DBusFailure) in try Self.itemPath(id)
                }
                properties.append(("Items", .objectPaths(paths)))
            }
            if wanted == "Locked" {
                properties.append(("Locked", .bool(try store.isLocked())))
            } else if wanted != "Items" {
                let collection = try store.describeCollection()
                properties += [
                    ("Label", .string(collection.label)), ("Locked", .bool(collection.locked)),
                    ("Created", .uint64(collection.created)), ("Modified", .uint64(collection.modified)),
                ]
            }
            return properties
        case (_, Self.itemInterface) where path.hasPrefix(Self.collectionPrefix):
            let item = try store.describe(try Self.itemID(path))
            return [
                ("Label", .string(item.label)), ("Attributes", .attributes(item.attributes)),
                ("Locked", .bool(item.locked)), ("Created", .uint64(item.created)),
                ("Modified", .uint64(item.modified)),
            ]
        default:
            throw .invalidArguments("\(path) has no properties of \(interface) here")
        }
    }

    /// The item id in an item's path.
    static func itemID(_ path: String) throws(DBusFailure) -> String {
        let id = String(path.dropFirst(collectionPrefix.count))
        guard path.hasPrefix(collectionPrefix), (try? itemPath(id)) == path else {
            throw .noSuchObject("no item at \(path)")
        }
        return id
    }

    private func require(_ call: DBusMessage, _ signature: String) throws(DBusFailure) {
        guard call.signature == signature else {
            throw .invalidArguments("\(call.member ?? "the method") takes (\(signature)), not (\(call.signature))")
        }
    }

    /// An item's object path; its id must be one path element.
    static func itemPath(_ id: String) throws(DBusFailure) -> String {
        let allowed = { (byte: UInt8) in
            byte == UInt8(ascii: "_") || (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "a") ... UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A") ... UInt8(ascii: "Z")).contains(byte)
        }
        guard !id.isEmpty, id.utf8.allSatisfy(allowed) else {
            throw .failed("the item store gave an id that is not an object-path element: \(id)")
        }
        return collectionPrefix + id
    }
}
