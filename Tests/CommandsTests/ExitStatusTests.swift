// The exit-code mapping is total (issue 39): every error type under Sources says its code
// (`ExitStatusReporting`), found by reading the sources, so a new error type without one fails
// here rather than ending a command with 70; an error no type says the code of is 70, never 1.

import Commands
import Foundation
import Interchange
import Passwords
import Platform
import SSHKeys
import ServiceMatching
import TUI
import Testing
import VaultAgent
import VaultCrypto
import VaultModel

private typealias ExitStatus = VaultModel.ExitStatus

@Suite("Exit status of every error")
struct ExitStatusTests {
    /// An error type declared in the sources: its name qualified by the types around it.
    struct Declared: Hashable, CustomStringConvertible {
        let name: String
        let file: String
        let line: Int
        let isPublic: Bool
        var description: String { "\(name) (\(file):\(line))" }
    }

    /// Error types that cannot say a code, each with why that is safe: private to a target below
    /// VaultModel (which cannot name `ExitStatus`), and never thrown out of it. The test fails when
    /// one of them becomes public, so it cannot escape unnoticed.
    static let cannotSay: [String: String] = [
        "Punycode.Refusal":
            "ServiceMatching's own; toASCII returns it in a Result, turned into InvalidServiceIdentifier",
        "Problem": "ServiceMatching's private parse result, turned into InvalidServiceIdentifier",
    ]

    /// `(struct|enum|class|actor|protocol|extension) Name`, after any modifiers and attributes.
    static func declaration() throws -> Regex<AnyRegexOutput> {
        try Regex(
            #"^( *)((?:(?:@\w+|public|package|internal|fileprivate|private|final|indirect|open) +)*)(struct|enum|class|actor|protocol|extension) +([\w.]+)(.*)$"#
        )
    }

    /// Every error type under `sources`, and every qualified name said to conform to
    /// `ExitStatusReporting`. Nesting is read from indentation, which `make lint` keeps exact.
    static func scan(_ sources: [(path: String, text: String)]) throws -> (errors: [Declared], reporting: Set<String>) {
        let declaration = try declaration()
        var errors: [Declared] = []
        var reporting: Set<String> = []
        for (path, text) in sources {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var enclosing: [(indent: Int, name: String)] = []
            for (index, line) in lines.enumerated() {
                guard let match = line.wholeMatch(of: declaration) else { continue }
                let indent = match.output[1].substring?.count ?? 0
                let modifiers = match.output[2].substring.map(String.init) ?? ""
                let kind = match.output[3].substring.map(String.init) ?? ""
                let name = match.output[4].substring.map(String.init) ?? ""
                while let last = enclosing.last, last.indent >= indent { enclosing.removeLast() }
                let qualified = (enclosing.map(\.name) + [name]).joined(separator: ".")
                enclosing.append((indent, qualified))
                // The inheritance clause: the rest of the line up to its brace, or of the lines
                // after it when the clause is wrapped.
                var clause = match.output[5].substring.map(String.init) ?? ""
                var next = index + 1
                while !clause.contains("{"), next < lines.count {
                    clause += " " + lines[next]
                    next += 1
                }
                clause = String(clause.prefix { $0 != "{" }).replacing(/<[^>]*>/, with: "")
                guard let colon = clause.firstIndex(of: ":") else { continue }
                let inherited = clause[clause.index(after: colon)...].split(separator: " where ").first ?? ""
                let names = Set(inherited.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                if names.contains("ExitStatusReporting") { reporting.insert(qualified) }
                if kind != "protocol", names.contains("Error") || names.contains("Swift.Error") {
                    errors.append(
                        Declared(
                            name: qualified, file: path, line: index + 1,
                            isPublic: modifiers.contains("public") || modifiers.contains("package")))
                }
            }
        }
        return (errors, reporting)
    }

    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    static func sources() throws -> [(path: String, text: String)] {
        let directory = root.appendingPathComponent("Sources")
        return try FileManager.default.subpathsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".swift") }
            .sorted().map { ($0, try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8)) }
    }

    @Test("every error type under Sources says its exit code (ExitStatusReporting)")
    func everyErrorTypeSaysItsCode() throws {
        let (errors, reporting) = try Self.scan(try Self.sources())
        #expect(errors.count >= 30, "found only \(errors.map(\.name)): is the scan broken?")
        for error in errors where !reporting.contains(error.name) {
            if let reason = Self.cannotSay[error.name] {
                #expect(!error.isPublic, "\(error) is public now, so it can escape: \(reason) no longer holds")
            } else {
                let fix =
                    "conform it to ExitStatusReporting where it is declared "
                    + "(below VaultModel: in VaultModel/Requests/ExitStatusOfLowerLayers.swift)"
                Issue.record("\(error) says no exit code: \(fix)")
            }
        }
        let stale = Set(Self.cannotSay.keys).subtracting(errors.map(\.name))
        #expect(stale.isEmpty, "no longer declared, take them out of cannotSay: \(stale.sorted())")
    }

    @Test("the scan finds nested, wrapped and extended conformances, and misses none")
    func scanReadsDeclarations() throws {
        let (errors, reporting) = try Self.scan([
            (
                "A.swift",
                """
                public enum Outer {
                    public struct Failure: Error, CustomStringConvertible {
                        public var description: String { "" }
                    }
                    private struct Quiet:
                        Equatable, Error
                    {}
                }
                struct Loose: Sendable, Error, ExitStatusReporting {}
                public protocol Kind: Error {}
                """
            ),
            ("B.swift", "extension Outer.Failure: ExitStatusReporting {\n}\nextension Other: Error {}\n"),
        ])
        #expect(errors.map(\.name) == ["Outer.Failure", "Outer.Quiet", "Loose", "Other"], "\(errors)")
        #expect(errors.map(\.isPublic) == [true, false, false, false])
        #expect(reporting == ["Outer.Failure", "Loose"])
    }

    struct Unforeseen: Error {}

    @Test("an error no type says the code of is 70 (internal), never 1 (no match)")
    func unknownIsInternal() {
        #expect(ExitStatus(Unforeseen()) == .internalError)
        #expect(ExitStatus.internalError.rawValue == 70)
    }

    @Test("errors of every layer end in their code, through the one mapping")
    func codesOfEachLayer() {
        let cases: [(any Error, ExitStatus)] = [
            (VaultError.wrongPassword(path: "/v"), .wrongPassword),
            (VaultError.notFound(path: "/v"), .noVault),
            (CommandFailure(.usage, "x"), .usage),
            (AgentRefusal(status: .interactionRequired, message: "locked"), .interactionRequired),
            (SSHKeyFileError.needsPassphrase, .interactionRequired),
            (SSHKeyFileError.wrongPassphrase("no"), .wrongPassword),
            (SSHKeyFileError.publicKey, .corrupt),
            (PromptError.cancelled, .cancelled),
            (VaultCryptoError.authenticationFailed, .ioError),
            (RegularFile.Failure.notRegular(path: "/f", kind: "a FIFO"), .noVault),
            (RegularFile.Failure.tooLarge(path: "/f", size: 2, limit: 1), .corrupt),
            (ReconcileRefusal.keyNotHeld(path: "/v"), .interactionRequired),
            (Settings.LoadError.malformed(path: "/c", line: 1, problem: "x"), .usage),
            (BreachLookupError.empty(path: "/h"), .corrupt),
        ]
        for (error, code) in cases {
            #expect(ExitStatus(error) == code, "\(type(of: error)) \(error)")
        }
    }

    @Test("docker's helper's \"not found\" goes through the mapping, answered on stdout only")
    func dockerNotFoundIsAnswered() {
        let failure = CommandFailure(.noMatch, DockerCredentialHelper.notFound, isAnswered: true)
        #expect(ExitStatus(failure) == .noMatch && failure.isAnswered)
    }
}
