import Foundation
import Platform
import PwtuiTestSupport
import Testing
@testable import VaultCrypto

@Suite struct SecureBytesTests {
    @Test func startsZeroedAndEmpty() throws {
        let empty = try SecureBytes(capacity: 64)
        #expect(empty.count == 0)
        #expect(empty.capacity == 64)
        let zeros = try SecureBytes(zeros: 48)
        #expect(contents(zeros) == [UInt8](repeating: 0, count: 48))
    }

    @Test(
        "small buffers come in size classes, and one freed comes back zeroed to the next of its class; an empty one allocates nothing"
    )
    func keptAllocations() throws {
        #expect(try SecureBytes(capacity: 10).capacity == 64)
        #expect(try SecureBytes(capacity: 300).capacity == 1024)
        #expect(try SecureBytes(capacity: 5000).capacity == 5000, "larger than any class: as asked")
        #expect(try SecureBytes(zeros: 0).capacity == 0)
        // Whatever a buffer of a class held, the next one of that class is zero (parallel tests
        // may take the very one freed here; any they leave is zero too).
        for _ in 0 ..< 3 * ProtectedAllocations.perClass {
            var secret = try SecureBytes(copying: Array(repeating: UInt8(0xAB), count: 200))
            for _ in 0 ..< 56 { try secret.append(0xCD) }
            #expect(secret.capacity == 256 && secret.count == 256)
        }
        for _ in 0 ..< ProtectedAllocations.perClass {
            let (pointer, capacity) = try #require(ProtectedAllocations.allocate(atLeast: 256))
            #expect(capacity == 256)
            #expect(UnsafeRawBufferPointer(start: pointer, count: capacity).allSatisfy { $0 == 0 })
            ProtectedAllocations.free(pointer, capacity: capacity)
        }
        let zeros = try SecureBytes(zeros: 256)
        #expect(contents(zeros) == [UInt8](repeating: 0, count: 256))
    }

    @Test func appendGrowsAndKeepsContents() throws {
        var bytes = try SecureBytes(capacity: 2)
        for value in UInt8(0) ..< 200 { try bytes.append(value) }
        #expect(bytes.count == 200)
        #expect(bytes.capacity >= 200)
        #expect(contents(bytes) == Array(0 ..< 200))
        let tail: [UInt8] = [9, 8, 7]
        try tail.withUnsafeBytes { try bytes.append(contentsOf: $0) }
        #expect(Array(contents(bytes).suffix(3)) == tail)
    }

    /// How an export is read (Interchange's ProtectedFile): by Platform's one read loop, straight
    /// into protected memory, sized once from what fstat says.
    @Test func aFileIsReadStraightIntoProtectedMemory() throws {
        let temporary = TemporaryDirectory("secure-read")
        let path = try temporary.freshPath("export.csv")
        let text = Array("name,password\nsite,hunter2\n".utf8)
        try Data(text).write(to: URL(fileURLWithPath: path))
        var bytes = try SecureBytes(capacity: 0)
        #expect(try RegularFile.readIfPresent(path, into: &bytes, limit: 1024))
        #expect(contents(bytes) == text)
        #expect(
            bytes.capacity == ProtectedAllocations.classes.first { $0 >= text.count },
            "one allocation for the file's size (its size class), none to find its end")
        var bounded = try SecureBytes(capacity: 0)
        #expect(throws: RegularFile.Failure.tooLarge(path: path, size: text.count, limit: 8)) {
            try RegularFile.readIfPresent(path, into: &bounded, limit: 8)
        }
        #expect(bounded.count == 0, "refused before a byte is read")
    }

    @Test func removeLastForgetsAndZeroes() throws {
        var bytes = try secure([1, 2, 3, 4, 5])
        bytes.removeLast(2)
        #expect(contents(bytes) == [1, 2, 3])
        // The forgotten bytes were zeroed: appending zeros-length space shows them.
        let start = try bytes.appendZeros(2)
        #expect(start == 3)
        #expect(contents(bytes) == [1, 2, 3, 0, 0])
        bytes.removeAll()
        #expect(bytes.count == 0)
    }

    @Test func equalityComparesContentsAndLength() throws {
        let a = try secure([1, 2, 3])
        let b = try secure([1, 2, 3])
        let c = try secure([1, 2, 4])
        let d = try secure([1, 2])
        let aBEqual = a.isEqual(to: b)
        #expect(aBEqual)
        let aCEqual = a.isEqual(to: c)
        #expect(!aCEqual)
        let aDEqual = a.isEqual(to: d)
        #expect(!aDEqual)
        let raw: [UInt8] = [1, 2, 3]
        #expect(raw.withUnsafeBytes { a.isEqual(to: $0) })
    }

    @Test func randomBytesDiffer() throws {
        let a = try SecureBytes.random(count: 32)
        let b = try SecureBytes.random(count: 32)
        #expect(a.count == 32)
        let aBEqual = a.isEqual(to: b)
        #expect(!aBEqual)
    }
}
