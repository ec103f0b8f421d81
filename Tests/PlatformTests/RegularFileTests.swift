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
        #expect(throws: RegularFile.Failure.tooLarge(path: directory + "/a", size: 5, limit: 4)) {
            try RegularFile.readIfPresent(directory + "/a", limit: 4)
        }
    }

    /// Memory that counts how it was grown, and can refuse to grow (as protected memory can).
    struct CountingBytes: RegularFile.Destination, ~Copyable {
        var bytes: [UInt8]
        var grows = 0
        var memory = Int.max

        var count: Int { bytes.count }

        mutating func grow(by more: Int) -> Bool {
            guard bytes.count + more <= memory else { return false }
            grows += 1
            bytes += [UInt8](repeating: 0, count: more)
            return true
        }

        mutating func shrink(by n: Int) { bytes.removeLast(n) }

        mutating func withBytes<Result>(_ body: (UnsafeMutableRawBufferPointer) -> Result) -> Result {
            bytes.withUnsafeMutableBytes { body($0) }
        }
    }

    @Test func aDestinationOfTheCallersIsAppendedToInOneGrowth() throws {
        defer { try? FileSystem.removeTree(directory) }
        try "hello".write(toFile: directory + "/a", atomically: true, encoding: .utf8)
        var into = CountingBytes(bytes: Array("> ".utf8))
        #expect(try RegularFile.readIfPresent(directory + "/a", into: &into))
        #expect(into.bytes == Array("> hello".utf8), "appended after what was there")
        #expect(into.grows == 1, "room for what fstat said, once")
        var none = CountingBytes(bytes: [])
        #expect(try !RegularFile.readIfPresent(directory + "/none", into: &none))
        #expect(none.bytes.isEmpty && none.grows == 0)
        var small = CountingBytes(bytes: [], memory: 3)
        #expect(
            throws: RegularFile.Failure.system(path: directory + "/a", operation: "reading", SystemError(code: ENOMEM))
        ) {
            try RegularFile.readIfPresent(directory + "/a", into: &small)
        }
    }

    /// /proc's files are regular and say they are empty: what a file that grew after fstat looks like.
    @Test func aFileLargerThanFstatSaidIsReadWholeAndStillBounded() throws {
        let status = try #require(try RegularFile.textIfPresent("/proc/self/status"))
        #expect(status.hasPrefix("Name:") && status.contains("\nPid:"), "\(status.prefix(80))")
        #expect(status.utf8.count > 100)
        #expect(throws: RegularFile.Failure.tooLarge(path: "/proc/self/status", size: 11, limit: 10)) {
            try RegularFile.readIfPresent("/proc/self/status", limit: 10)
        }
        #expect(try RegularFile.readIfPresent("/proc/self/status", limit: 5, prefix: true) == Array("Name:".utf8))
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
