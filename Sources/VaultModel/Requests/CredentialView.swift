/// What `show` and `history` print of one credential: asked of an unlocked agent as of a vault
/// opened here, so it is a value both sides know. The rendering itself is `Commands`'s
/// (`CredentialView.render`, Output/CredentialViewRendering.swift), written into protected memory
/// when it holds a password.
public struct CredentialView: Equatable, Sendable, Codable {
    public enum Kind: String, Equatable, Sendable, Codable {
        /// Everything but the history's passwords (`show`).
        case details
        /// The previous passwords, newest first, numbered as `edit --restore` takes them.
        case history
    }

    public enum Format: String, Equatable, Sendable, Codable, CaseIterable {
        case text, json
    }

    public var kind: Kind
    /// Passwords as they are instead of dots.
    public var reveal: Bool
    public var format: Format
    /// How pwtui is run, for the hints that name a command.
    public var command: String

    public init(kind: Kind, reveal: Bool, format: Format = .text, command: String = "pwtui") {
        self.kind = kind
        self.reveal = reveal
        self.format = format
        self.command = command
    }
}
