import Platform

/// How large a property test runs. `make test` runs each property at a size that proves it (every
/// structured byte, a sample of interchangeable ones, a few hundred generated cases) in a debug
/// build on a shared machine; `make bench-properties` runs the same tests at full size
/// (`PWTUI_FULL_PROPERTIES=1`: every byte, every site, every host), on demand, never timed.
public enum PropertySize {
    /// Whether this run is the full one.
    public static let isFull = Environment.process["PWTUI_FULL_PROPERTIES"] == "1"

    /// `quick` in `make test`, `full` in the full run.
    public static func count(_ quick: Int, full: Int) -> Int { isFull ? full : quick }

    /// The offsets of a file of `count` bytes a test visits: every one in the full run; otherwise
    /// every one of the first `head` (a header's fields, each with its own check) and the last
    /// `tail` (a MAC tag, the end of the payload), and every `stride`th between (ciphertext, whose
    /// bytes an AEAD treats alike). 7 is coprime to every block size, so the sample falls on
    /// every position within a block.
    public static func offsets(in count: Int, head: Int = 512, tail: Int = 64, stride: Int = 7) -> [Int] {
        guard !isFull, count > head + tail else { return Array(0 ..< count) }
        let middle = Swift.stride(from: head, to: count - tail, by: stride)
        return Array(0 ..< head) + Array(middle) + Array((count - tail) ..< count)
    }
}
