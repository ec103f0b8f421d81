import FoundationEssentials
import Platform
import SSHKeys
import VaultAgent
import VaultCrypto
import VaultModel

/// One sign request on the agent's ssh-agent socket, as the agent decides on it.
struct SSHSignRequest {
    let keyBlob: [UInt8]
    let data: [UInt8]
    let flags: UInt32
    /// Who asks (its peer) and where to (its `session-bind@openssh.com` bindings).
    let connection: SSHAgentConnection

    var peer: PeerProcess? { connection.peer }

    /// Whether the process that connected still is the one asking (`PeerProcess`): checked when
    /// the requester is named and again just before signing, so that a program that exec'd
    /// another since it connected is neither named as that one nor signed for after a question.
    func peerIsUnchanged(in context: CommandContext) -> Bool {
        peer.map(context.peerIsUnchanged) ?? true
    }

    /// What a `session` approval is remembered for besides the program and the key: the host
    /// keys the connection is bound to, forwarding hops included; nil when it is not bound
    /// (`ssh-keygen -Y sign`, `ssh-add`, an ssh older than 8.9), all of which count as one.
    var destinationKey: String? {
        connection.bindings.isEmpty
            ? nil : connection.bindings.map { SSHFingerprint.of($0.hostKey) }.joined(separator: " → ")
    }
}

// Approving a signature without stalling the agent
// ================================================
//
// A key's policy (`ssh confirm`) says when a signature needs the user's yes: `never`, `each`
// signature, or once per `session` — per requesting program, destination and key, until the
// agent locks (`SSHSessionApprovals`). The user is asked where they are (`SSHApprovalPrompter`,
// by default the requester's terminal), and may take a minute to answer.
//
// The agent's requests take turns on the vault (`AgentService`); a question must never be asked
// in a turn, or every `pwtui get` would wait behind a write waiting for the user to read the
// question. So a signature goes in three steps:
//
// 1. In a read turn, decide: the key (by its blob), whether the requester may use it (programs
//    it is bound to), its policy. A `never` key, or a `session` key already approved for this
//    program and destination, signs right there. Otherwise the question is composed, with the
//    approvals' epoch (how many locks so far), and the turn is left.
// 2. Outside any turn, one question at a time (`sshAsking`): decide again first (another
//    question answered meanwhile may have approved this one, or the agent locked), then ask.
// 3. In a read turn again, after a yes: sign only if the agent has not locked since the
//    question was composed (same epoch) and still holds the same key, by blob and id. A
//    `session` yes is remembered then, in the same turn; a no is never remembered.
//
// While the agent is locked, step 1 finds the key among the identity store's public halves; the
// question is then the master password, and step 3 unlocks with it as `pwtui unlock` would
// (a wrong one refuses the signature, and the agent stays locked) before signing. Typing the
// master password for that named request is its approval (and a `session` key's, remembered).
extension AgentService {
    enum SSHSignStep {
        /// Decided: the signature blob, or nil to refuse.
        case decided([UInt8]?)
        /// Needs the user's yes.
        case approve(SSHApprovalQuestion, SSHSessionApprovals.Grant, SSHKeyItem.ConfirmPolicy, epoch: Int)
        /// Locked: needs the master password.
        case unlock(SSHApprovalQuestion, SSHSessionApprovals.Grant)
    }

    /// `SSHAgentHandler`'s signature: called for several connections at once.
    public func sshSign(keyBlob: [UInt8], data: [UInt8], flags: UInt32, for connection: SSHAgentConnection)
        -> [UInt8]?
    {
        sshSign(SSHSignRequest(keyBlob: keyBlob, data: data, flags: flags, connection: connection))
    }

    func sshSign(_ request: SSHSignRequest) -> [UInt8]? {
        guard let chain = try? request.peer.map({ try context.requesterChain($0) }) ?? ProcessChain(members: []) else {
            return nil
        }
        let requester = SSHSignRequester(chain)
        // Where the connection goes, read from known_hosts once for the request's three steps.
        let destination = sshDestination(of: request.connection)
        if case .decided(let signature) = readingAny({ sshSignStep(request, requester, destination, in: $0) }) {
            return signature
        }
        sshAsking.lock()
        defer { sshAsking.unlock() }
        switch readingAny({ sshSignStep(request, requester, destination, in: $0) }) {
        case .decided(let signature):
            return signature
        case .approve(let question, let grant, let policy, let epoch):
            guard context.sshPrompter.approve(question) == .yes else { return nil }
            return readingAny { vault in
                guard let vault, approvalState(of: grant).epoch == epoch,
                    let signature = sshSignApproved(request, key: grant.key, destination: destination, in: vault)
                else {
                    return nil
                }
                if policy == .session { rememberApproval(grant, ifEpoch: epoch) }
                return signature
            }
        case .unlock(var question, let grant):
            // One retry: a typo should not send the user back to run the command again.
            for _ in 0 ..< 2 {
                guard let password = context.sshPrompter.masterPassword(for: question) else { return nil }
                switch unlockAndSign(request, grant, destination, password: password) {
                case .signed(let signature): return signature
                case .refused: return nil
                case .wrongPassword: question.wrongPassword = true
                }
            }
            return nil
        }
    }

    enum SSHUnlockOutcome {
        case signed([UInt8])
        case wrongPassword
        case refused
    }

    /// Step 3 while locked: unlocks with what was typed, then signs in a read turn. Checked even
    /// when another client unlocked meanwhile: what was typed is the approval only if it is the
    /// master password.
    private func unlockAndSign(
        _ request: SSHSignRequest, _ grant: SSHSessionApprovals.Grant, _ destination: SSHDestination?,
        password: consuming SecureBytes
    ) -> SSHUnlockOutcome {
        var typed = password
        let answer = handle(.unlock, payload: &typed)
        guard case .done = answer.reply else {
            if case .refused(let status, _) = answer.reply, status == .wrongPassword { return .wrongPassword }
            return .refused
        }
        return readingAny { vault in
            guard let vault,
                let signature = sshSignApproved(request, key: grant.key, destination: destination, in: vault)
            else {
                return .refused
            }
            if let credential = try? vault.credential(id: grant.key.uuidString),
                SSHKeyItem.confirmPolicy(of: credential) == .session
            {
                rememberApproval(grant)
            }
            return .signed(signature)
        }
    }

    /// Step 1 (in a read turn): sign now, refuse, or what to ask. A key bound to other hosts
    /// than the one the connection is bound to is refused unasked (`SSHDestination.mayUse`).
    private func sshSignStep(
        _ request: SSHSignRequest, _ requester: SSHSignRequester, _ destination: SSHDestination?, in vault: Vault?
    ) -> SSHSignStep {
        guard let vault else {
            guard let key = lockedSSHKeys().first(where: { $0.keyBlob == request.keyBlob }),
                destination?.mayUse(hosts: key.hosts) ?? true
            else { return .decided(nil) }
            let question = SSHApprovalQuestion(
                requester: requester, keyTitle: key.title, fingerprint: SSHFingerprint.of(key.keyBlob),
                destination: destination?.displayName(keyHosts: key.hosts), locked: true)
            return .unlock(
                question,
                SSHSessionApprovals.Grant(program: requester.program, destination: request.destinationKey, key: key.id))
        }
        guard let key = SSHAgentKeys.keys(in: vault).first(where: { $0.blob == request.keyBlob }),
            let asking = try? asker(request.peer, of: vault), key.credential.isGiven(to: asking),
            destination?.mayUse(hosts: key.hosts) ?? true
        else { return .decided(nil) }
        let policy = SSHKeyItem.confirmPolicy(of: key.credential)
        let grant = SSHSessionApprovals.Grant(
            program: requester.program, destination: request.destinationKey, key: key.credential.id)
        let (approved, epoch) = approvalState(of: grant)
        if policy == .never || (policy == .session && approved) {
            return .decided(signature(request, with: key.credential, in: vault))
        }
        let question = SSHApprovalQuestion(
            requester: requester, keyTitle: key.credential.displayTitle, fingerprint: SSHFingerprint.of(key.blob),
            destination: destination?.displayName(keyHosts: key.hosts), locked: false)
        return .approve(question, grant, policy, epoch: epoch)
    }

    /// Step 3 (in a read turn): the signature by the key `key`, if the vault still holds it with
    /// the blob the request names and the requester and destination may still use it.
    private func sshSignApproved(
        _ request: SSHSignRequest, key id: UUID, destination: SSHDestination?, in vault: Vault
    ) -> [UInt8]? {
        guard let key = SSHAgentKeys.keys(in: vault).first(where: { $0.blob == request.keyBlob }),
            key.credential.id == id, let asking = try? asker(request.peer, of: vault),
            key.credential.isGiven(to: asking), destination?.mayUse(hosts: key.hosts) ?? true,
            request.peerIsUnchanged(in: context)
        else { return nil }
        return signature(request, with: key.credential, in: vault)
    }

    /// The signature, counted as a use of the key: `show` and the detail screen said "last used
    /// never" of a key that had signed six times (issue 38). A failed record is no failed
    /// signature.
    private func signature(_ request: SSHSignRequest, with credential: Credential, in vault: Vault) -> [UInt8]? {
        guard let privateKey = try? SSHKeyItem.privateKey(of: credential, in: vault),
            let signature = try? SSHPrivateKey.signatureBlob(privateKey, data: request.data, flags: request.flags)
        else { return nil }
        let now = Clock.system.now()
        try? context.usageHistory.update { $0.recordUse(of: credential.id, for: Self.sshUseHost, at: now) }
        return signature
    }

    /// Where a key's signatures are counted in the use history: not a host any service names.
    static let sshUseHost = "ssh-agent signature"
}
