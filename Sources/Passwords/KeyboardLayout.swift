/// A keyboard as a graph of neighbouring keys, for finding keyboard walks (`qwertyuiop`,
/// `1qaz2wsx`, `zxcvbn`, `78963214` on the keypad) in passwords.
///
/// The US QWERTY layout, each key with its unshifted and shifted character. Rows are staggered
/// (`q` sits below the gap between `1` and `2`, `a` below `q` and `w`), so a key touches two keys
/// of the row above and two of the row below, besides its left and right neighbours. Positions in
/// half-keys keep this exact: keys of adjacent rows touch when their centres are at most half a
/// key apart.
public struct KeyboardLayout: Sendable {
    public struct Key: Sendable {
        let unshifted: UInt8
        let shifted: UInt8
        let row: Int
        /// Horizontal centre, in half-keys.
        let position: Int
    }

    let keys: [Key]
    /// For each byte: the key index, or -1.
    private let keyOfByte: [Int]
    /// For each key: its neighbours, each with the direction taken to reach it.
    private let neighbours: [[(key: Int, direction: Int)]]

    public static let qwerty = KeyboardLayout(rows: [
        ("`1234567890-=", "~!@#$%^&*()_+", 0),
        ("qwertyuiop[]\\", "QWERTYUIOP{}|", 3),
        ("asdfghjkl;'", "ASDFGHJKL:\"", 4),
        ("zxcvbnm,./", "ZXCVBNM<>?", 5),
    ])

    /// The numeric keypad (`78963214`, `7532`): a square grid, diagonals included.
    public static let keypad = KeyboardLayout(grid: [" /*-", "789+", "456 ", "123 ", " 0. "])

    /// `grid`: one string per row, a space where there is no key; every key touches the up to
    /// eight keys around it.
    init(grid: [String]) {
        var keys: [Key] = []
        for (row, line) in grid.enumerated() {
            for (column, byte) in line.utf8.enumerated() where byte != 0x20 {
                keys.append(Key(unshifted: byte, shifted: byte, row: row, position: column))
            }
        }
        var keyOfByte = [Int](repeating: -1, count: 256)
        for (index, key) in keys.enumerated() { keyOfByte[Int(key.unshifted)] = index }
        neighbours = keys.map { key in
            keys.indices.compactMap { other -> (Int, Int)? in
                let (dy, dx) = (keys[other].row - key.row, keys[other].position - key.position)
                guard abs(dy) <= 1, abs(dx) <= 1, dy != 0 || dx != 0 else { return nil }
                return (other, (dy + 1) * 3 + (dx + 1))
            }
        }
        self.keys = keys
        self.keyOfByte = keyOfByte
        startingPositions = keys.count
    }

    /// `rows`: unshifted characters, shifted characters, and the row's offset in half-keys.
    init(rows: [(String, String, Int)]) {
        var keys: [Key] = []
        for (row, (plain, shifted, offset)) in rows.enumerated() {
            for (column, (a, b)) in zip(plain.utf8, shifted.utf8).enumerated() {
                keys.append(Key(unshifted: a, shifted: b, row: row, position: offset + 2 * column))
            }
        }
        var keyOfByte = [Int](repeating: -1, count: 256)
        for (index, key) in keys.enumerated() {
            keyOfByte[Int(key.unshifted)] = index
            keyOfByte[Int(key.shifted)] = index
        }
        // Directions: 0 left, 1 right, 2 up-left, 3 up-right, 4 down-left, 5 down-right.
        neighbours = keys.map { key in
            keys.indices.compactMap { other -> (Int, Int)? in
                let candidate = keys[other]
                let dx = candidate.position - key.position
                switch candidate.row - key.row {
                case 0 where dx == -2: return (other, 0)
                case 0 where dx == 2: return (other, 1)
                case -1 where dx < 0 && dx >= -1: return (other, 2)
                case -1 where dx >= 0 && dx <= 1: return (other, 3)
                case 1 where dx < 0 && dx >= -1: return (other, 4)
                case 1 where dx >= 0 && dx <= 1: return (other, 5)
                default: return nil
                }
            }
        }
        self.keys = keys
        self.keyOfByte = keyOfByte
        startingPositions = keys.count * 2
    }

    /// Characters a walk may start on.
    public let startingPositions: Int

    /// The average number of neighbours per key.
    public var averageDegree: Double {
        Double(neighbours.reduce(0) { $0 + $1.count }) / Double(max(keys.count, 1))
    }

    public func isShifted(_ byte: UInt8) -> Bool {
        let index = keyOfByte[Int(byte)]
        return index >= 0 && keys[index].shifted == byte && keys[index].unshifted != byte
    }

    /// The direction from `a`'s key to `b`'s when they are neighbours, else nil.
    public func direction(from a: UInt8, to b: UInt8) -> Int? {
        let from = keyOfByte[Int(a)], to = keyOfByte[Int(b)]
        guard from >= 0, to >= 0 else { return nil }
        return neighbours[from].first { $0.key == to }?.direction
    }
}
