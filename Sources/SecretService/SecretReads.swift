import Platform
import VaultCrypto

/// The reads of secrets that ask the user first (an item whose policy asks: `mustAsk`), each on a
/// thread of its own with a store of its own (`SecretItemStore.forAnotherThread`), so that the
/// bus's thread answers every other caller while a person reads the question (up to a minute).
/// The call is kept until its secrets come back, and answered on the bus's thread (sd-bus is not
/// thread-safe) at its next turn (`takeFinished`). At most `limit` wait at once; one more is
/// `LimitsExceeded`. Everything but `finished` is the bus's thread's.
final class SecretReads {
    static let limit = 8

    /// One item's read: sealed for the caller's session, or why not. Filled by the reading
    /// thread, then only read by the bus's.
    final class Outcome: @unchecked Sendable {
        let path: String
        var sealed: SealedSecret?
        var failure: DBusFailure?

        init(path: String) {
            self.path = path
        }
    }

    /// A call kept for its answer: the items it asked for, in one reply (`GetSecrets`) or as the
    /// one secret (`Item.GetSecret`).
    struct Waiting {
        let call: DBusMessage
        let sessionPath: String
        let many: Bool
    }

    /// What the reading threads left for the bus's.
    private final class Finished: @unchecked Sendable {
        private let lock = Lock()
        private var reads: [(number: Int, outcomes: [Outcome])] = []

        func add(_ number: Int, _ outcomes: [Outcome]) { lock.withLock { reads.append((number, outcomes)) } }
        func take() -> [(number: Int, outcomes: [Outcome])] {
            lock.withLock {
                defer { reads = [] }
                return reads
            }
        }
    }

    private let finished = Finished()
    private var waiting: [Int: Waiting] = [:]
    private var made = 0

    /// Reads `items` (each path and its item id) for `waiting`'s caller on a thread of its own,
    /// sealing each with `seal` (from `store`, asking the user as its policy says).
    func start(
        _ call: Waiting, items: [(path: String, id: String)], store: any SecretItemStore,
        seal: @escaping (any SecretItemStore, String) throws(DBusFailure) -> SealedSecret
    ) throws(DBusFailure) {
        guard waiting.count < Self.limit else {
            throw .limitsExceeded("\(Self.limit) reads are waiting for the user; try again once they are answered")
        }
        made += 1
        let number = made
        let work = Work(items: items, store: store, seal: seal, finished: finished)
        do {
            try DetachedThread.start { work.run(number) }
        } catch {
            throw .failed("cannot start a read that asks the user: \(error)")
        }
        waiting[number] = call
    }

    /// The calls whose reads are done, with their outcomes in the order asked.
    func takeFinished() -> [(Waiting, [Outcome])] {
        finished.take().compactMap { read in waiting.removeValue(forKey: read.number).map { ($0, read.outcomes) } }
    }

    /// One read's work, handed whole to its thread.
    private final class Work: @unchecked Sendable {
        let items: [(path: String, id: String)]
        let store: any SecretItemStore
        let seal: (any SecretItemStore, String) throws(DBusFailure) -> SealedSecret
        let finished: Finished

        init(
            items: [(path: String, id: String)], store: any SecretItemStore,
            seal: @escaping (any SecretItemStore, String) throws(DBusFailure) -> SealedSecret,
            finished: Finished
        ) {
            self.items = items
            self.store = store
            self.seal = seal
            self.finished = finished
        }

        func run(_ number: Int) {
            let outcomes = items.map { item in
                let outcome = Outcome(path: item.path)
                do throws(DBusFailure) {
                    outcome.sealed = try seal(store, item.id)
                } catch {
                    outcome.failure = error
                }
                return outcome
            }
            finished.add(number, outcomes)
        }
    }
}
