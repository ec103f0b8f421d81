import Foundation
import PwtuiTestSupport
import VaultCrypto
import Platform
@testable import Interchange
import ServiceMatching
import VaultModel

/// The sample exports under `Samples/`, written by hand after each publisher's documented
/// format and real exports, and what reading them gives.
enum ImportSamples {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Samples")
        .path

    static func path(_ name: String) -> String { directory + "/" + name }

    /// pass entries in the samples are plaintext: this stands in for gpg.
    static let plaintextDecrypter: PassStore.Decrypter = { path in
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ImportFailure(file: path, "unreadable")
        }
        return try secure(Array(data))
    }

    static func read(_ name: String, format: ImportFormat? = nil) throws -> ImportBatch {
        try ImportReader.read(path(name), format: format, decrypter: plaintextDecrypter)
    }

    static var suffixes: PublicSuffixList { LibPSL() ?? NoPublicSuffixList() }

    /// The batch planned against an empty vault.
    static func plan(_ batch: ImportBatch, policy: ImportPlan.ConflictPolicy = .skip) throws -> ImportPlan {
        ImportPlan(
            batch, existing: [], existingSecrets: try SecretArena(), policy: policy,
            now: Timestamp(millisecondsSince1970: 1_800_000_000_000), suffixes: suffixes)
    }
}

extension ImportBatch {
    func string(_ reference: SecretReference?) -> String? {
        reference.map { text($0) }
    }
}

extension ImportPlan {
    /// The added credential whose title is `title`.
    func added(_ title: String) -> Credential? {
        additions.first { $0.credential.title == title }?.credential
    }

    func secret(_ reference: SecretReference) -> String {
        batch.text(reference)
    }
}
