import Foundation
import Platform
import Testing

/// `lockExclusively(before:)`: a lock held elsewhere is waited for until the deadline, then
/// given up (ETIMEDOUT); one let go in time is taken; one given up on is not kept afterwards.
@Suite struct LockWaitTests {
    @Test func aHeldLockIsGivenUpOnAtTheDeadlineAndNotKeptAfterwards() throws {
        let path = NSTemporaryDirectory() + "platform-lock-" + UUID().uuidString.prefix(8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let holder = try FileDescriptor.open(path, [.readWrite, .create])
        try holder.lockExclusively(before: .after(.seconds(1)))

        let waiter = try FileDescriptor.open(path, [.readWrite])
        let started = ContinuousClock.now
        #expect(throws: SystemError.timedOut) { try waiter.lockExclusively(before: .after(.milliseconds(300))) }
        let waited = ContinuousClock.now - started
        #expect(waited >= .milliseconds(300) && waited < .seconds(5), "\(waited)")
        waiter.close()

        // The abandoned wait's thread takes the lock when the holder lets go, and drops it at once.
        holder.close()
        let third = try FileDescriptor.open(path, [.readWrite])
        defer { third.close() }
        try third.lockExclusively(before: .after(.seconds(5)))
    }

    @Test func aLockLetGoInTimeIsTaken() throws {
        let path = NSTemporaryDirectory() + "platform-lock-" + UUID().uuidString.prefix(8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let holder = try FileDescriptor.open(path, [.readWrite, .create])
        try holder.lockExclusively(before: .after(.seconds(1)))
        try DetachedThread.start {
            usleep(200_000)
            holder.close()
        }
        let waiter = try FileDescriptor.open(path, [.readWrite])
        defer { waiter.close() }
        try waiter.lockExclusively(before: .after(.seconds(10)))
        // Held now: another description cannot take it.
        let other = try FileDescriptor.open(path, [.readWrite])
        defer { other.close() }
        #expect(throws: SystemError.timedOut) { try other.lockExclusively(before: .after(.milliseconds(100))) }
    }
}
