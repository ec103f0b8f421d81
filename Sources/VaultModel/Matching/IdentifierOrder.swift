import Foundation

extension UUID {
    /// The order of the ids' text (`uuidString`, the last tie-break of every list), without making
    /// the text: the hex digits stand for the bytes in order and at a fixed width, so comparing the
    /// bytes gives the same answer. Formatting two ids per comparison (sprintf underneath) was two
    /// thirds of a `get` whose 1,000 credentials all matched equally well.
    func precedes(_ other: UUID) -> Bool {
        withUnsafeBytes(of: uuid) { mine in
            withUnsafeBytes(of: other.uuid) { theirs in
                for (a, b) in zip(mine, theirs) where a != b { return a < b }
                return false
            }
        }
    }
}
