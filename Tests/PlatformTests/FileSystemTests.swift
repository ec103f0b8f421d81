import Foundation
import Platform
import Testing

@Suite struct FileSystemTests {
    @Test func callsThrowTheirErrno() throws {
        let directory = NSTemporaryDirectory() + "platform-fs-" + UUID().uuidString.prefix(8)
        try FileSystem.makeDirectory(directory)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try FileSystem.status(directory).kind == .directory)
        #expect(try FileSystem.status(directory).permissions == 0o700)
        #expect(throws: SystemError(code: EEXIST)) { try FileSystem.makeDirectory(directory) }

        let file = directory + "/a"
        let fd = try FileDescriptor.open(file, [.writeOnly, .create, .exclusive])
        try fd.writeAll("abc")
        try fd.sync()
        #expect(try fd.status().size == 3)
        fd.close()
        #expect(throws: SystemError(code: EEXIST)) { try FileDescriptor.open(file, [.writeOnly, .create, .exclusive]) }
        #expect(try FileSystem.status(file).permissions == 0o600)

        try FileSystem.link(file, as: directory + "/b")
        try FileSystem.rename(directory + "/b", to: directory + "/c")
        #expect(try FileSystem.entries(of: directory).sorted() == ["a", "c"])
        try FileManager.default.createSymbolicLink(atPath: directory + "/l", withDestinationPath: "a")
        #expect(try FileSystem.linkStatus(directory + "/l").kind == .symbolicLink)
        #expect(try FileSystem.status(directory + "/l").kind == .regular)
        #expect(try FileSystem.linkDestination(directory + "/l") == "a")
        #expect(throws: SystemError(code: ELOOP)) { try FileDescriptor.open(directory + "/l", [.readOnly, .noFollow]) }

        try FileSystem.remove(directory + "/c")
        try FileSystem.removeIfPresent(directory + "/c")
        let missing = #expect(throws: SystemError.self) { try FileSystem.remove(directory + "/c") }
        #expect(missing?.isNoSuchEntry == true)
        #expect(missing?.description == "No such file or directory")
        #expect(!FileSystem.exists(directory + "/c"))
        #expect(FileSystem.exists(file))
    }

    @Test func theClockAndTheCalendarAgree() {
        #expect(
            SystemClock.utc(secondsSince1970: 0)
                == CalendarTime(year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0))
        #expect(
            SystemClock.utc(secondsSince1970: 1_795_000_000)
                == CalendarTime(year: 2026, month: 11, day: 18, hour: 11, minute: 6, second: 40))
        let now = SystemClock.millisecondsSince1970()
        let foundation = Int64(Date().timeIntervalSince1970 * 1000)
        #expect(abs(now - foundation) < 5_000)
    }
}
