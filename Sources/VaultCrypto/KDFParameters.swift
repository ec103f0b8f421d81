/// The cost of turning a master password into a key with Argon2id: passes over memory
/// (`opsLimit`) and the memory itself, in KiB so that four header bytes reach 4 TiB.
///
/// Presets are at least the 3 passes / 64 MiB the vault format requires of every file it writes;
/// `bounds` is what this process agrees to run when a file asks for it, checked before any work
/// is done, so that a hostile header cannot make an unlock take minutes or exhaust memory.
public struct KDFParameters: Sendable, Hashable, CustomStringConvertible {
    public var opsLimit: UInt32
    public var memLimitKiB: UInt32

    public init(opsLimit: UInt32, memLimitKiB: UInt32) {
        self.opsLimit = opsLimit
        self.memLimitKiB = memLimitKiB
    }

    public var memLimitBytes: Int { Int(memLimitKiB) * 1024 }

    /// 3 passes, 64 MiB: about 65 ms on a 2-core machine.
    public static let interactive = KDFParameters(opsLimit: 3, memLimitKiB: 64 * 1024)
    /// 3 passes, 256 MiB: about 0.35–0.85 s.
    public static let moderate = KDFParameters(opsLimit: 3, memLimitKiB: 256 * 1024)
    /// 4 passes, 1 GiB: about 2–4 s.
    public static let sensitive = KDFParameters(opsLimit: 4, memLimitKiB: 1024 * 1024)

    /// The floor for anything pwtui writes.
    public static let minimumForWriting = interactive

    public var isStrongEnoughToWrite: Bool {
        isAtLeast(Self.minimumForWriting)
    }

    /// At least as many passes and as much memory as `floor`.
    public func isAtLeast(_ floor: KDFParameters) -> Bool {
        opsLimit >= floor.opsLimit && memLimitKiB >= floor.memLimitKiB
    }

    /// These, raised to `floor` where they fall below it.
    public func raised(to floor: KDFParameters) -> KDFParameters {
        KDFParameters(opsLimit: max(opsLimit, floor.opsLimit), memLimitKiB: max(memLimitKiB, floor.memLimitKiB))
    }

    public var description: String {
        "\(opsLimit) passes, \(Self.memory(kibibytes: memLimitKiB))"
    }

    /// MiB when whole, KiB otherwise: a limit one KiB above 1 GiB must not read as 1024 MiB.
    public static func memory(kibibytes: UInt32) -> String {
        kibibytes % 1024 == 0 ? "\(kibibytes / 1024) MiB" : "\(kibibytes) KiB"
    }

    /// The most an opened file may ask for.
    public struct Bounds: Sendable, Hashable {
        public var maxOpsLimit: UInt32
        public var maxMemLimitKiB: UInt32

        public init(maxOpsLimit: UInt32, maxMemLimitKiB: UInt32) {
            self.maxOpsLimit = maxOpsLimit
            self.maxMemLimitKiB = maxMemLimitKiB
        }

        /// 10 passes and 1 GiB: above the sensitive preset, below what hurts a laptop.
        public static let standard = Bounds(maxOpsLimit: 10, maxMemLimitKiB: 1024 * 1024)

        public func admits(_ parameters: KDFParameters) -> Bool {
            parameters.opsLimit <= maxOpsLimit && parameters.memLimitKiB <= maxMemLimitKiB
        }
    }
}
