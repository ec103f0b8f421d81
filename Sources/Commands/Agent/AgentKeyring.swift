import FoundationEssentials
import Platform
import VaultAgent
import VaultCrypto
import VaultModel

// The keyring's items in the agent (issue 40)
// ============================================
//
// `pwtui secret-service` serves the Secret Service on the session bus and asks the agent for
// everything it answers: the items are vault items (`KeyringItem`), read in read turns and
// changed as any small change is (one journal record, `saving`).
//
// Who reads. The bus daemon knows which process sent a call (its credentials come from the
// kernel, `SO_PEERCRED`); the agent knows only who connected to its socket. So a keyring request
// names the bus client's pid, and the agent believes that name only from the relay it trusts:
// `pwtui-secret-service` from the directory of this agent's own executable. Any other process
// that sends a keyring request (a script) is the reader itself, whatever pid it names, and
// cannot pass for Chromium. (A same-user process can still start its own bus daemon and relay,
// or ptrace Chromium: docs/secret-service.md says where that line is.)
//
// Asking first. An item's policy (`keyring confirm`) may ask the user before a program reads
// it: `other` asks when the reader is not the program that stored the item, `each` always. The
// question is the SSH approval's, in the same places (the reader's terminal or tmux pane) and
// under the same rule: decided in a read turn, asked between turns one at a time (`sshAsking`),
// and the secret taken in a read turn after the yes, from the item as it is then.
extension AgentService {
    func keyring(_ request: KeyringRequest, of path: String, payload: inout SecureBytes, peer: PeerProcess?) throws
        -> AgentAnswer
    {
        switch request {
        case .search(let attributes):
            if !isUnlocked, let items = lockedKeyringItems(of: path, where: { $0.matches(attributes, vaultID: $1) }) {
                return AgentAnswer(.keyring(.items(items, locked: true)))
            }
            return try reading(path) { vault in
                let items = KeyringRequest.items(in: vault.contents, matching: attributes)
                return AgentAnswer(.keyring(.items(items.map(KeyringItemSummary.init), locked: false)))
            }
        case .describe(let id):
            if !isUnlocked,
                let items = lockedKeyringItems(of: path, where: { item, _ in KeyringItem.id(of: item.id) == id })
            {
                guard !items.isEmpty else { throw CommandFailure(.noMatch, "no keyring item \(id.prefix(40))") }
                return AgentAnswer(.keyring(.items(items, locked: true)))
            }
            return try reading(path) { vault in
                AgentAnswer(
                    .keyring(.items([KeyringItemSummary(try KeyringRequest.item(id, in: vault))], locked: false)))
            }
        case .collection(let times):
            // Locked, `reading` refuses, and the relay shows the collection locked.
            return try reading(path) { vault in
                guard times else { return AgentAnswer(.keyring(.collection(locked: false, created: 0, modified: 0))) }
                var created = Int64.max
                var modified: Int64 = 0
                for item in vault.contents.credentials where item.kind == .keyring {
                    created = min(created, item.created.millisecondsSince1970)
                    modified = max(modified, item.modified.millisecondsSince1970)
                }
                return AgentAnswer(
                    .keyring(.collection(locked: false, created: created == .max ? 0 : created, modified: modified)))
            }
        case .secret(let id, let reader, let asking):
            return try keyringSecret(id, of: path, asking: asking) { try self.keyringReader(reader, peer: peer) }
        case .unlock(let reader):
            return try keyringUnlock(path, reader: try keyringReader(reader, peer: peer))
        case .create(_, _, _, _, let creator):
            defer { payload.removeAll() }
            // The creator by its executable only: an unverified name (argv[0]) would let any
            // program later read unasked as the item's creator.
            let program = try keyringReader(creator, peer: peer, depth: 1).members.first.flatMap {
                $0.isVerified ? $0.name : nil
            }
            return try saving(path, small: true) { vault in
                AgentAnswer(.keyring(try request.apply(to: vault, secret: payload, creator: program)))
            }
        case .setSecret, .update, .delete:
            defer { payload.removeAll() }
            return try saving(path, small: true) { vault in
                AgentAnswer(.keyring(try request.apply(to: vault, secret: payload, creator: nil)))
            }
        }
    }

    /// While locked: the keyring items the identity store lists that `selected` selects, with
    /// their labels (the store's titles); nil when the store is not current with the vault (or
    /// off), which lists nothing. An unlock then finds the items themselves.
    private func lockedKeyringItems(
        of path: String, where selected: (IdentityStore.LockedKeyringItem, [UInt8]) -> Bool
    ) -> [KeyringItemSummary]? {
        guard path == context.vaultPath, let store = try? context.currentIdentityStore() else { return nil }
        var labels: [UUID: String] = [:]
        for identity in store.identities where identity.kind == .keyring { labels[identity.id] = identity.title }
        return store.keyringItems.filter { selected($0, store.vaultID) }.map { item in
            KeyringItemSummary(
                id: KeyringItem.id(of: item.id), label: labels[item.id] ?? "", attributes: [:],
                contentType: KeyringItem.defaultContentType, created: 0, modified: 0)
        }
    }

    /// Who a keyring request is for: the bus client it names when the trusted relay sent it (or
    /// it was made in this process), else the process that connected. `depth`: how much of its
    /// chain is needed (1 to name a creator: only the program itself; a question needs the rest,
    /// to find where to ask).
    func keyringReader(_ caller: KeyringCaller, peer: PeerProcess?, depth: Int = ProcessChain.maximumDepth) throws
        -> ProcessChain
    {
        guard let peer else {
            return caller.pid.map { context.processChainUpTo($0, depth) } ?? ProcessChain(members: [])
        }
        // Whether the relay connected is a question about that process alone.
        let connected = try context.requesterChain(peer, depth: 1)
        guard let pid = caller.pid, let relay = connected.members.first, relay.isVerified,
            relay.name == SecretServiceProcess.executableName, let executable = relay.executable,
            SecretServiceProcess.directory(of: executable)
                == SecretServiceProcess.directory(of: CurrentProcess.executablePath)
        else { return depth == 1 ? connected : try context.requesterChain(peer, depth: depth) }
        return context.processChainUpTo(pid, depth)
    }

    private enum KeyringRead: ~Copyable {
        case given(AgentAnswer)
        case ask(SSHApprovalQuestion)
    }

    /// Item `id`'s secret for the reader `lookUp` names, after the user's yes when its policy
    /// asks for one (`mustAsk` instead when not `asking`). The reader is looked up (a walk up its
    /// processes in /proc) only when the item is bound to programs or its policy asks: most reads
    /// need no name.
    private func keyringSecret(
        _ id: String, of path: String, asking: Bool, reader lookUp: () throws -> ProcessChain
    ) throws -> AgentAnswer {
        var found: ProcessChain?
        func reader() throws -> ProcessChain {
            if let found { return found }
            let chain = try lookUp()
            found = chain
            return chain
        }
        let step = try reading(path) { vault -> KeyringRead in
            let item = try KeyringRequest.item(id, in: vault)
            let policy = KeyringItem.confirmPolicy(of: item)
            if item.allowedPrograms.isEmpty, policy == .never { return .given(try Self.secretAnswer(item, vault)) }
            let reader = try reader()
            try item.requireGiven(to: reader)
            let creator = KeyringItem.creator(of: item)
            switch policy {
            case .never: return .given(try Self.secretAnswer(item, vault))
            case .other
            where creator != nil && reader.members.first?.isVerified == true
                && reader.members.first?.name == creator:
                return .given(try Self.secretAnswer(item, vault))
            case .other, .each:
                var question = SSHApprovalQuestion(
                    requester: SSHSignRequester(reader), keyTitle: item.displayTitle, fingerprint: "",
                    destination: nil, locked: false)
                question.action = .readKeyringItem(creator: creator)
                return .ask(question)
            }
        }
        let question: SSHApprovalQuestion
        switch consume step {
        case .given(let answer): return answer
        case .ask where !asking: return AgentAnswer(.keyring(.mustAsk))
        case .ask(let asked): question = asked
        }
        sshAsking.lock()
        defer { sshAsking.unlock() }
        guard context.sshPrompter.approve(question) == .yes else {
            throw CommandFailure(
                .noMatch,
                "\(question.keyTitle) \(KeyringItem.refusalPhrase) \(question.requester.name): the user said no")
        }
        return try reading(path) { vault in
            let item = try KeyringRequest.item(id, in: vault)
            try item.requireGiven(to: try reader())
            return try Self.secretAnswer(item, vault)
        }
    }

    private static func secretAnswer(_ item: Credential, _ vault: Vault) throws -> AgentAnswer {
        AgentAnswer(
            .keyring(.secret(contentType: KeyringItem.contentType(of: item))),
            payload: try KeyringItem.secret(of: item, in: vault.contents))
    }

    /// A locked agent unlocked with the master password asked where `reader` runs; refused (as
    /// locked: the client's prompt is dismissed) when there is nobody to ask or nobody answers.
    private func keyringUnlock(_ path: String, reader: ProcessChain) throws -> AgentAnswer {
        guard path == context.vaultPath else {
            throw CommandFailure(.interactionRequired, "the agent holds another vault (\(context.vaultPath))")
        }
        sshAsking.lock()
        defer { sshAsking.unlock() }
        if isUnlocked { return AgentAnswer(.keyring(.done)) }
        var question = SSHApprovalQuestion(
            requester: SSHSignRequester(reader), keyTitle: "", fingerprint: "", destination: nil, locked: true)
        question.action = .readKeyringItem(creator: nil)
        // One retry, as for a signature: a typo should not leave the client locked out.
        for _ in 0 ..< 2 {
            guard var password = context.sshPrompter.masterPassword(for: question) else { break }
            let answer = handle(.unlock, payload: &password)
            if case .done = answer.reply { return AgentAnswer(.keyring(.done)) }
            guard case .refused(let status, _) = answer.reply, status == .wrongPassword else { return answer }
            question.wrongPassword = true
        }
        throw CommandFailure(.interactionRequired, "the agent stays locked: nobody unlocked it")
    }
}
