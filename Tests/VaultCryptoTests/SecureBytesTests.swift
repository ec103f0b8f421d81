import Foundation
import Platform
import PwtuiTestSupport
import Testing
import VaultCrypto

@Suite struct SecureBytesTests {
    @Test func startsZeroedAndEmpty() throws {
        let empty = try SecureBytes(capacity: 64)
        #expect(empty.count == 0)
        #expect(empty.capacity == 64)
        let zeros = try SecureBytes(zeros: 48)
        #expect(contents(zeros) == [UInt8](repeating: 0, count: 48))
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
        #expect(bytes.capacity == text.count, "one allocation of the file's size, none to find its end")
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
