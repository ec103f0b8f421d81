import Platform
import VaultCrypto
import VaultModel

/// How the master password typed in a tmux popup reaches the agent without passing through
/// anything another process could read.
///
/// tmux starts the popup's command itself (a child of its server), so the agent can hand it no
/// descriptor; a FIFO in the runtime directory, which this replaced, gave its bytes to whichever
/// process of the user opened it first. Instead the agent listens on a socket of its own (a
/// random name, 0600, removed when the question ends) and the popup connects to it: the bytes
/// then travel over that one connection, whose two ends only the two processes hold. Each side
/// checks the other, with the kernel's word for it (SO_PEERCRED):
///
/// - the popup writes only to a listener whose pid is the agent's (given on its command line):
///   a program that replaced the socket with its own is refused unanswered (`AnswerSSHPopup`);
/// - the agent takes an answer only from a process of its user that descends from the tmux
///   server showing the popup (its pid is in the requester's `TMUX`), read while that process
///   waits for the agent's acknowledgement (so /proc still shows it). Any other connection is
///   closed unread.
///
/// What a program of the same user can still do is connect first and be refused, or make the
/// question fail (it can kill the agent too); it never obtains the password.
final class SSHPopupAnswer {
    /// The acknowledgement the agent writes once it has the password.
    static let acknowledgement: UInt8 = 0x06

    let path: String
    private let listener: FileDescriptor
    /// The tmux server whose descendant the popup is.
    private let server: Int32
    private var password: SecureBytes?

    /// A new socket at `path` (0600); nil when it cannot be made.
    init?(path: String, server: Int32) {
        guard let listener = try? UnixSocket.listen(at: path, permissions: 0o600) else { return nil }
        self.path = path
        self.listener = listener
        self.server = server
    }

    deinit {
        listener.close()
        try? FileSystem.removeIfPresent(path)
    }

    /// The password the popup gave, once; nil when none came.
    func takePassword() -> SecureBytes? {
        password.take()
    }

    /// Takes the connections that came within `time`; the first from the popup gives the password.
    func take(waitingAtMost time: Duration) {
        guard let connection = try? UnixSocket.accept(on: listener, waitingAtMost: time) else { return }
        defer { connection.close() }
        guard password == nil, connection.peerUserID == CurrentProcess.userID,
            let peer = connection.peerProcessID,
            ProcessChain.of(peer).members.contains(where: { $0.id == server }),
            var bytes = try? SecureBytes(zeros: Limits.secretBytes)
        else { return }
        let deadline = Deadline.after(.seconds(2))
        var count = 0
        let complete = bytes.withUnsafeMutableBytes { buffer in
            while count < buffer.count {
                guard
                    let got = try? connection.readSome(
                        into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]), before: deadline)
                else { return false }
                if got == 0 { return true }
                count += got
            }
            return false  // longer than any secret: no password
        }
        guard complete, count > 0 else { return }
        bytes.removeLast(bytes.count - count)
        password = .some(consume bytes)
        var acknowledgement = Self.acknowledgement
        _ = withUnsafeBytes(of: &acknowledgement) { try? connection.sendAll($0, before: .after(.seconds(1))) }
    }
}
