/// A frame being drawn: rows × columns of cells, each with a character and a style role.
///
/// Text is placed by columns, not characters: a double-width character takes two cells (the
/// second marked as its continuation) and is never split at the right edge; text that does not
/// fit is cut with "…". The bottom-right cell is never written (terminals scroll when it is).
public struct Canvas: Equatable, Sendable {
    public struct Cell: Equatable, Sendable {
        /// nil for the right half of a double-width character.
        public var character: Character?
        public var role: StyleRole
    }

    public let size: TerminalSize
    public private(set) var cells: [[Cell]]
    public struct Position: Equatable, Sendable {
        public var row: Int
        public var column: Int

        public init(row: Int, column: Int) {
            self.row = row
            self.column = column
        }
    }

    /// Where the terminal cursor should be left (the input field), or nil to hide it.
    public var cursor: Position?

    public init(size: TerminalSize) {
        self.size = size
        cells = Array(
            repeating: Array(repeating: Cell(character: " ", role: .normal), count: max(size.columns, 0)),
            count: max(size.rows, 0))
    }

    /// Fills a row with spaces of `role` (a selection bar, a status line).
    public mutating func fill(row: Int, role: StyleRole) {
        guard row >= 0, row < size.rows else { return }
        for column in 0 ..< size.columns { cells[row][column] = Cell(character: " ", role: role) }
    }

    /// Writes `text` from `column`, at most `width` columns (to the right edge by default);
    /// returns the column after the last one written.
    @discardableResult
    public mutating func put(_ text: String, row: Int, column: Int, role: StyleRole = .normal, width: Int? = nil) -> Int
    {
        put(Array(text), row: row, column: column, role: role, width: width)
    }

    private mutating func put(_ characters: [Character], row: Int, column: Int, role: StyleRole, width: Int?) -> Int {
        guard row >= 0, row < size.rows, column >= 0 else { return column }
        let limit = min(size.columns, column + (width ?? size.columns))
        var x = column
        for (index, character) in characters.enumerated() {
            let characterWidth = TextWidth.columns(of: character)
            if characterWidth == 0 { continue }
            let remaining = characters[(index + 1)...].contains { TextWidth.columns(of: $0) > 0 }
            let needsEllipsis = remaining && x + characterWidth + 1 > limit
            if x + characterWidth > limit || needsEllipsis {
                if x < limit, !(row == size.rows - 1 && x == size.columns - 1) {
                    cells[row][x] = Cell(character: "…", role: role)
                    x += 1
                }
                return x
            }
            if row == size.rows - 1 && x + characterWidth > size.columns - 1 { return x }
            cells[row][x] = Cell(character: character, role: role)
            if characterWidth == 2 { cells[row][x + 1] = Cell(character: nil, role: role) }
            x += characterWidth
        }
        return x
    }

    /// Writes a secret lent from protected memory (UTF-8) as `put` writes text, decoding it one
    /// scalar at a time so that no `String` of it is ever made. The cells themselves then hold
    /// its characters until the next frame replaces them: that is what showing it means. A
    /// control character is drawn as U+FFFD (text outside the canvas goes through `PrintableText`).
    @discardableResult
    public mutating func putSecret(
        _ bytes: UnsafeRawBufferPointer, row: Int, column: Int, role: StyleRole = .normal,
        width: Int? = nil
    ) -> Int {
        var characters: [Character] = []
        characters.reserveCapacity(bytes.count)
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                characters.append(scalar.properties.generalCategory == .control ? "\u{FFFD}" : Character(scalar))
            case .error: characters.append("\u{FFFD}")
            case .emptyInput: break decoding
            }
        }
        // The decoded copy is overwritten before it is freed (a character of a password is small
        // enough to be stored inline, so this overwrites the bytes themselves).
        defer { for index in characters.indices { characters[index] = " " } }
        return put(characters, row: row, column: column, role: role, width: width)
    }

    /// The frame as plain text, one line per row, trailing spaces removed: what snapshot tests
    /// compare and what tmux's capture-pane shows.
    public var text: String {
        cells.map { row in
            var line = ""
            for cell in row { if let character = cell.character { line.append(character) } }
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }

    /// The rows where `role` is used, for tests of the selection and sections.
    public func rows(with role: StyleRole) -> [Int] {
        cells.indices.filter { row in cells[row].contains { $0.role == role } }
    }
}
