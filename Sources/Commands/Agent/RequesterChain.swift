import Platform
import VaultModel

extension CommandContext {
    /// Who asks through a connection to the agent: the chain of `peer`, the process that connected
    /// (`depth` processes at most), read now — if it is still that process. One that exec'd another program since it connected
    /// (to send the request from a child it forked, named as the new program) or whose pid now
    /// belongs to another process is refused: read before the check, the chain is never newer than
    /// what the check saw.
    func requesterChain(_ peer: PeerProcess, depth: Int = ProcessChain.maximumDepth) throws -> ProcessChain {
        let chain = processChainUpTo(peer.id, depth)
        guard peerIsUnchanged(peer) else {
            throw CommandFailure(
                .noMatch,
                "refused: the process that connected (\(peer)) is no longer the one that asks: it ran another program, or ended, after it connected; ask again from the program itself"
            )
        }
        return chain
    }
}
