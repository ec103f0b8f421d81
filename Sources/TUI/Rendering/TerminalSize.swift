/// A terminal's size in character cells: what a frame is drawn for.
public struct TerminalSize: Equatable, Sendable, CustomStringConvertible {
    public var rows: Int
    public var columns: Int

    public init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
    }

    public var description: String { "\(columns)×\(rows)" }
}
