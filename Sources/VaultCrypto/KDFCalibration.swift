/// Unlock-cost choices measured on this machine: Argon2id's time grows with memory × passes, so
/// one measurement at 64 MiB / 3 passes predicts the others. The wizard offers about 0.5 s, 1 s
/// and 3 s; memory grows first (it is what makes GPU attacks expensive), passes only once memory
/// reaches the 1 GiB that pwtui agrees to open.
public enum KDFCalibration {
    public struct Option: Equatable, Sendable {
        public let targetSeconds: Double
        public let parameters: KDFParameters
        public let estimatedSeconds: Double
    }

    public static let targets: [Double] = [0.5, 1, 3]

    /// Measures one derivation at the floor and derives the options.
    public static func measure(with derivation: any KeyDerivation) throws(VaultCryptoError) -> [Option] {
        let password = try SecureBytes(copying: Array("calibration".utf8))
        let salt = [UInt8](repeating: 0x5A, count: Argon2id.saltByteCount)
        let clock = ContinuousClock()
        let start = clock.now
        _ = try derivation.deriveKey(password: password, salt: salt, parameters: .minimumForWriting)
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return options(floorSeconds: max(seconds, 0.001))
    }

    /// The options, given how long the floor (64 MiB, 3 passes) took.
    public static func options(floorSeconds: Double) -> [Option] {
        let floor = KDFParameters.minimumForWriting
        let maximumKiB = KDFParameters.Bounds.standard.maxMemLimitKiB
        return targets.map { target in
            var memoryKiB = Double(floor.memLimitKiB) * target / floorSeconds
            memoryKiB = min(max(memoryKiB, Double(floor.memLimitKiB)), Double(maximumKiB))
            let roundedKiB = UInt32(memoryKiB / 1024) * 1024
            var passes = floor.opsLimit
            if roundedKiB == maximumKiB {
                let perPass = floorSeconds * Double(roundedKiB) / Double(floor.memLimitKiB) / Double(floor.opsLimit)
                passes = UInt32(
                    min(
                        max((target / perPass).rounded(), Double(floor.opsLimit)),
                        Double(KDFParameters.Bounds.standard.maxOpsLimit)))
            }
            let estimate =
                floorSeconds * Double(roundedKiB) / Double(floor.memLimitKiB) * Double(passes) / Double(floor.opsLimit)
            return Option(
                targetSeconds: target, parameters: KDFParameters(opsLimit: passes, memLimitKiB: roundedKiB),
                estimatedSeconds: estimate)
        }
    }
}
