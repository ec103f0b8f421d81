import ServiceMatching
import VaultCrypto
import VaultModel

/// `pwtui add`: a new credential, its password from stdin, a no-echo prompt or the generator;
/// its id on stdout.
public struct AddCredential {
    public var services: [String]
    public var username: String
    public var title: String
    public var notes: String
    public var rank: Int32
    public var generate: Bool

    public init(services: [String], username: String, title: String, notes: String, rank: Int32, generate: Bool) {
        self.services = services
        self.username = username
        self.title = title
        self.notes = notes
        self.rank = rank
        self.generate = generate
    }

    public func run(in session: Session) throws {
        let identifiers = try session.credentialServices(services)
        session.notePublicSuffixes(identifiers)
        let access = try VaultAccess.open(session)
        let secret = generate
            ? try PasswordGenerator.generate()
            : try SecretReader.newSecret(label: "password for \(identifiers[0].text)")
        let added = try access.apply(
            .add(services: identifiers.map(\.text), username: username, title: title, notes: notes, rank: rank), secret: secret)
        let id = added.id.uuidString.lowercased()
        try StandardOutput.write(id + "\n", afterSaving: "the new credential \(id)")
    }
}
