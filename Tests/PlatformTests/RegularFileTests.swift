import Foundation
import Platform
import Testing

/// The one file-reading funnel: regular files only, never a wait on a FIFO, a bound on size,
/// links refused when asked. A regression here hangs instead of failing, so the FIFO cases read
/// on another thread and fail after a time limit.
@Suite struct RegularFileTests {
    let directory = NSTemporaryDirectory() + "platform-rf-" + UUID().uuidString.prefix(8)

    init() throws {
        try FileSystem.makeDirectory(directory)
    }

    /// `body`'s result, or a failed test (not a hung one) when it takes longer than 10 s.
    func withinTimeLimit<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T? {
        let done = DispatchSemaphore(value: 0)
        let box = Box<T>()
        Thread.detachNewThread {
            box.value = body()
            done.signal()
        }
        guard done.wait(timeout: .now() + 10) == .success else {
            Issue.record("the read did not return within 10 s")
            return nil
        }
        return box.value
    }

    /// Written before the semaphore is signalled, read after it is waited for.
    final class Box<T>: @unchecked Sendable {
        var value: T?
    }

    @Test func aRegularFileIsReadWholeAndAMissingOneIsNil() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "hello".write(toFile: directory + "/a", atomically: true, encoding: .utf8)
        #expect(try RegularFile.readIfPresent(directory + "/a") == Array("hello".utf8))
        #expect(try RegularFile.textIfPresent(directory + "/a") == "hello")
        #expect(try RegularFile.readIfPresent(directory + "/none") == nil)
        #expect(try RegularFile.readIfPresent(directory + "/a", limit: 2, prefix: true) == Array("he".utf8))
        #expect(throws: RegularFile.Failure.tooLarge(path: directory + "/a", limit: 4)) {
            try RegularFile.readIfPresent(directory + "/a", limit: 4)
        }
    }

    @Test func fifosAndDevicesAreRefusedWithoutWaiting() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: directory + "/to-fifo", withDestinationPath: fifo)
        try FileManager.default.createSymbolicLink(atPath: directory + "/to-zero", withDestinationPath: "/dev/zero")
        let cases = [
            (fifo, "a FIFO (named pipe)"), (directory + "/to-fifo", "a FIFO (named pipe)"),
            (directory + "/to-zero", "a character device"), ("/dev/urandom", "a character device"),
            (directory, "a directory"),
        ]
        for (path, kind) in cases {
            let outcome = withinTimeLimit { () -> RegularFile.Failure? in
                do throws(RegularFile.Failure) { _ = try RegularFile.readIfPresent(path); return nil } catch {
                    return error
                }
            }
            #expect(outcome == Optional(Optional(RegularFile.Failure.notRegular(path: path, kind: kind))), "\(path)")
        }
    }

    @Test func linksAreRefusedWhenAsked() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "secret".write(toFile: directory + "/target", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: directory + "/link", withDestinationPath: directory + "/target")
        try FileManager.default.createSymbolicLink(
            atPath: directory + "/dangling", withDestinationPath: directory + "/nothing")
        #expect(try RegularFile.textIfPresent(directory + "/link") == "secret", "followed by default")
        #expect(throws: RegularFile.Failure.symbolicLink(path: directory + "/link")) {
            try RegularFile.readIfPresent(directory + "/link", links: .refuse)
        }
        #expect(throws: RegularFile.Failure.symbolicLink(path: directory + "/dangling")) {
            try RegularFile.readIfPresent(directory + "/dangling", links: .refuse)
        }
    }
}
