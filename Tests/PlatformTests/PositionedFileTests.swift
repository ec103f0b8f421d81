import Foundation
import Platform
import Testing

/// Reads at offsets (the breach file's funnel): what is there, fewer bytes at the end, nothing
/// past it; a missing file and a FIFO refused as `RegularFile` refuses them (the FIFO at once:
/// the open does not wait for a writer).
@Suite struct PositionedFileTests {
    let directory = NSTemporaryDirectory() + "platform-pf-" + UUID().uuidString.prefix(8)

    init() throws {
        try FileSystem.makeDirectory(directory)
    }

    @Test func readsAtOffsetsAndStopsAtTheEnd() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/ten"
        try Data("0123456789".utf8).write(to: URL(fileURLWithPath: path))
        let file = try PositionedFile(path)
        #expect(file.size == 10)
        #expect(try file.bytes(at: 3, count: 4) == Array("3456".utf8))
        #expect(try file.bytes(at: 8, count: 100) == Array("89".utf8))
        #expect(try file.bytes(at: 10, count: 5).isEmpty)
        #expect(try file.bytes(at: 0, count: 10) == Array("0123456789".utf8))
        file.adviseRandomAccess()
        file.dropCachedPages()
        #expect(try file.bytes(at: 9, count: 1) == Array("9".utf8), "advice changes no answer")
    }

    @Test func missingFilesAndFIFOsAreRefused() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(
            throws: RegularFile.Failure.system(
                path: directory + "/none", operation: "opening", SystemError(code: ENOENT))
        ) {
            try PositionedFile(directory + "/none")
        }
        let fifo = directory + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: RegularFile.Failure.notRegular(path: fifo, kind: "a FIFO (named pipe)")) {
            try PositionedFile(fifo)
        }
    }
}
