import FoundationEssentials
import Platform
import ServiceMatching
import VaultModel

/// One credential seen whole, opened from the picker's list (→): title, username, the services
/// and how each matched the request, created / modified / last used, the notes, the password and
/// the passwords it replaced, with their dates; Enter uses it as the list's Enter would, Esc goes
/// back to the list.
///
/// Every secret is drawn as eight dots (the same number whatever its length) until `r` reveals
/// them; `r` again draws the next frame with dots over them. The screen never holds a secret:
/// it borrows each from `CredentialDetails` while it draws a revealed frame (`Canvas.putSecret`),
/// after asking it to fetch them (`fetchSecrets`, slow work: an agent's round trip), which may be
/// refused; the refusal is the message line, and the secrets stay dots.
///
/// Restoring: Tab picks a previous password, `R` asks to confirm, `y` makes it current (the
/// current one joins the history, so a restore can itself be undone) and saves, as slow work the
/// run loop shows ("Saving…").
public struct CredentialDetailScreen: Screen {
    public typealias Result = UUID

    public enum Action: Sendable, Equatable {
        case use, reveal, pickNext, pickPrevious, restore, confirm, decline
        case up, down, pageUp, pageDown, first, last, back
    }

    public static let bindings: [KeyBinding<Action>] = [
        KeyBinding([.text("r")], "r", "reveal/hide", .reveal),
        KeyBinding([.tab], "Tab", "old password", .pickNext),
        KeyBinding([.backTab], "", "", .pickPrevious, inHelpBar: false),
        KeyBinding([.text("R")], "R", "restore", .restore),
        KeyBinding([.up, .control("p")], "↑↓", "scroll", .up),
        KeyBinding([.down, .control("n")], "", "", .down, inHelpBar: false),
        KeyBinding([.pageUp], "", "", .pageUp, inHelpBar: false),
        KeyBinding([.pageDown], "", "", .pageDown, inHelpBar: false),
        KeyBinding([.home], "", "", .first, inHelpBar: false),
        KeyBinding([.end], "", "", .last, inHelpBar: false),
        KeyBinding([.enter], "Enter", "use", .use),
        KeyBinding([.escape, .control("c")], "Esc", "back", .back),
    ]

    /// While a restore waits for its answer, only these keys mean something.
    public static let confirmBindings: [KeyBinding<Action>] = [
        KeyBinding([.text("y"), .text("Y")], "y", "restore it", .confirm),
        KeyBinding([.text("n"), .text("N"), .escape, .control("c")], "n", "keep the current one", .decline),
    ]

    /// What stands for a secret that is not revealed: always eight, so its length is not shown.
    public static let mask = String(repeating: "•", count: 8)

    public static let minimumSize = TerminalSize(rows: 10, columns: 40)
    public var minimumSize: TerminalSize { Self.minimumSize }
    /// Rows above the body (the title, a blank line) and below it (a message line, the help bar).
    private static let bodyTop = 2
    private static let rowsBelowBody = 2
    private static let labelWidth = 12

    let details: any CredentialDetails
    public private(set) var credential: Credential
    public private(set) var revealed = false
    /// The previous password Tab picked, numbered as `Credential.previousSecrets` (from 1).
    public private(set) var picked: Int?
    private var confirming = false
    private var restoring = false
    /// `r` was pressed: the secrets are fetched (`work`) before the first revealed frame.
    private var revealing = false
    private var message: (text: String, role: StyleRole)?
    private var scroll = 0

    public init(details: any CredentialDetails) {
        self.details = details
        credential = details.credential
    }

    public static func bodyHeight(at size: TerminalSize) -> Int {
        max(size.rows - bodyTop - rowsBelowBody, 1)
    }

    // MARK: Keys

    public mutating func handle(_ event: TerminalEvent, context: ScreenContext) -> Transition<UUID> {
        guard case .key(let key) = event else { return .stay }
        let height = Self.bodyHeight(at: context.size)
        if confirming {
            switch KeyBinding.action(for: key, in: Self.confirmBindings) {
            case .confirm:
                confirming = false
                restoring = true
                return .work
            case .decline:
                confirming = false
                message = ("Nothing restored.", .dim)
            default: break
            }
            return .stay
        }
        guard let action = KeyBinding.action(for: key, in: Self.bindings) else { return .stay }
        message = nil
        let previous = credential.previousSecrets.count
        switch action {
        case .use: return .finish(credential.id)
        case .back: return .cancel
        case .reveal:
            if revealed || !details.needsFetching {
                revealed.toggle()
            } else {
                revealing = true
                return .work
            }
        case .pickNext, .pickPrevious:
            guard previous > 0 else {
                message = ("There is no previous password.", .dim)
                return .stay
            }
            let step = action == .pickNext ? 1 : previous - 1
            picked = ((picked ?? (action == .pickNext ? 0 : 1)) - 1 + step) % previous + 1
            if let picked, let line = lines(width: context.size.columns).firstIndex(where: { $0.history == picked }) {
                if line < scroll { scroll = line }
                if line >= scroll + height { scroll = line - height + 1 }
            }
        case .restore:
            guard let picked else {
                message = (
                    previous == 0
                        ? "There is no previous password to restore."
                        : "Tab picks the previous password to restore first.", .warning
                )
                return .stay
            }
            confirming = true
            // Short enough for 80 columns; the date is on the highlighted line.
            message = ("Restore previous password \(picked)? The current one stays in the history. y/n", .warning)
        case .confirm, .decline: break
        case .up: scroll -= 1
        case .down: scroll += 1
        case .pageUp: scroll -= height
        case .pageDown: scroll += height
        case .first: scroll = 0
        case .last: scroll = .max
        }
        scroll = min(max(scroll, 0), max(lines(width: context.size.columns).count - height, 0))
        return .stay
    }

    /// The secrets fetched for a reveal, or the confirmed restore: saving the vault is the slow part.
    public mutating func work() throws -> Transition<UUID> {
        if revealing {
            revealing = false
            do {
                try details.fetchSecrets()
                revealed = true
            } catch {
                message = ("Not revealed: \(error)", .error)
            }
            return .stay
        }
        defer { restoring = false }
        guard let number = picked else { return .stay }
        do {
            let when = credential.previousSecrets[number - 1].replaced.minuteText
            try details.restore(previous: number)
            credential = details.credential
            picked = nil
            message = ("Restored the password of \(when); the one it replaced is now previous password 1.", .normal)
        } catch {
            message = ("Not restored: \(error)", .error)
        }
        return .stay
    }

    // MARK: Drawing

    /// One line of the body.
    struct Line {
        enum Content {
            case text(String, StyleRole)
            /// A secret, with the text drawn before it.
            case secret(SecretReference, before: String)
            /// The one-time code now, masked like the password, and how long it stays valid.
            case oneTimeCode
        }

        var label = ""
        var content: Content
        /// Drawn from the left edge, not after the labels.
        var heading = false
        /// The previous password on this line (its number), for Tab's highlight.
        var history: Int?
    }

    func lines(width: Int) -> [Line] {
        var lines: [Line] = []
        func field(_ label: String, _ value: String, _ role: StyleRole = .normal) {
            lines.append(Line(label: label, content: .text(value, role)))
        }
        // An SSH key's secret is its private key: never drawn, revealed or not (only `ssh export
        // --private` carries it out); its public key is a field below.
        let isKey = credential.kind == .sshKey
        if isKey {
            field("Private key", "kept in the vault, never shown; the agent signs with it", .dim)
        } else {
            field(
                "Username", credential.username.isEmpty ? "(none)" : credential.username,
                credential.username.isEmpty ? .dim : .normal)
            lines.append(Line(label: "Password", content: .secret(credential.secret, before: "")))
        }
        if credential.totp != nil { lines.append(Line(label: "Code", content: .oneTimeCode)) }
        // Why this password should change (`pwtui audit`), next to it: never the password itself.
        for (index, finding) in details.findings.enumerated() {
            field(index == 0 ? "Audit" : "", finding.summary, .warning)
        }
        for (index, service) in credential.services.enumerated() {
            let how = details.match(of: service).map { "  \($0.rawValue)" } ?? ""
            lines.append(
                Line(
                    label: index == 0 ? "Services" : "",
                    content: .text(service.text + how, how.isEmpty ? .normal : .match)))
        }
        if credential.services.isEmpty { field("Services", "(none: an item without a site)", .dim) }
        // Bound to programs: given only to requests from them (`pwtui edit --allow-program`).
        if !credential.allowedPrograms.isEmpty { field("Given to", credential.allowedPrograms.joined(separator: ", ")) }
        // Named fields: a secret one masked like the password, revealed with it (`r`).
        for (index, named) in credential.fields.enumerated() {
            let label = index == 0 ? "Fields" : ""
            switch named.value {
            case .text(let text): field(label, "\(named.name): \(text)")
            case .secret(let reference):
                lines.append(Line(label: label, content: .secret(reference, before: "\(named.name): ")))
            }
        }
        field("Created", credential.created.minuteText)
        field("Modified", credential.modified.minuteText)
        field("Last used", details.lastUsed?.minuteText ?? "never here", details.lastUsed == nil ? .dim : .normal)
        let notes = Self.wrap(credential.notes, width: max(width - Self.labelWidth, 1))
        if notes.isEmpty {
            field("Notes", "(none)", .dim)
        } else {
            for (index, line) in notes.enumerated() { field(index == 0 ? "Notes" : "", line) }
        }
        let previous = credential.previousSecrets
        lines.append(Line(content: .text("", .normal)))
        lines.append(
            Line(
                content: .text(
                    previous.isEmpty ? "No previous passwords" : "Previous passwords (\(previous.count))", .section),
                heading: true))
        for (index, entry) in previous.enumerated() {
            let before = "\(index + 1)  \(entry.replaced.minuteText)  "
            lines.append(
                Line(
                    content: isKey
                        ? .text(before + "(a private key, never shown)", .dim) : .secret(entry.secret, before: before),
                    history: index + 1))
        }
        // A secret field's earlier values, kept like the password's: shown (masked until `r`),
        // not restorable from here (Tab picks passwords only).
        for named in credential.fields where !named.history.isEmpty {
            let values = named.previousValues
            lines.append(Line(content: .text("", .normal)))
            lines.append(
                Line(content: .text("Previous values of \(named.name) (\(values.count))", .section), heading: true))
            for (index, entry) in values.enumerated() {
                lines.append(
                    Line(content: .secret(entry.secret, before: "  \(index + 1)  \(entry.replaced.minuteText)  ")))
            }
        }
        return lines
    }

    /// `text`'s lines, each cut into pieces of at most `width` columns.
    static func wrap(_ text: String, width: Int) -> [String] {
        guard !text.isEmpty else { return [] }
        var wrapped: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var current = ""
            var used = 0
            for character in line {
                let columns = TextWidth.columns(of: character)
                if used + columns > width, !current.isEmpty {
                    wrapped.append(current)
                    current = ""
                    used = 0
                }
                current.append(character)
                used += columns
            }
            wrapped.append(current)
        }
        return wrapped
    }

    public func render(into canvas: inout Canvas) {
        let size = canvas.size
        canvas.put("pwtui — \(credential.displayTitle)", row: 0, column: 0, role: .title)
        let body = lines(width: size.columns)
        let height = Self.bodyHeight(at: size)
        let first = min(scroll, max(body.count - height, 0))
        for (offset, line) in body.dropFirst(first).prefix(height).enumerated() {
            draw(line, row: Self.bodyTop + offset, into: &canvas)
        }
        if restoring {
            canvas.put("Saving…", row: size.rows - 2, column: 0, role: .dim)
        } else if let message {
            canvas.put(message.text, row: size.rows - 2, column: 0, role: message.role)
        } else if first + height < body.count {
            canvas.put("↓ \(body.count - first - height) more lines", row: size.rows - 2, column: 0, role: .dim)
        }
        canvas.fill(row: size.rows - 1, role: .help)
        canvas.put(
            KeyBinding.helpBar(confirming ? Self.confirmBindings : Self.bindings), row: size.rows - 1, column: 0,
            role: .help)
    }

    private func draw(_ line: Line, row: Int, into canvas: inout Canvas) {
        let selected = line.history != nil && line.history == picked
        if selected { canvas.fill(row: row, role: .selected) }
        canvas.put(line.label, row: row, column: 0, role: selected ? .selected : .dim, width: Self.labelWidth)
        let start = line.history == nil && !line.heading ? Self.labelWidth : 0
        switch line.content {
        case .text(let text, let role):
            canvas.put(text, row: row, column: start, role: role)
        case .secret(let reference, let before):
            let role: StyleRole = selected ? .selected : .normal
            let marker = line.history == nil ? "" : selected ? "▸ " : "  "
            let after = canvas.put(marker + before, row: row, column: start, role: role)
            if revealed {
                details.withSecret(reference) { bytes in
                    _ = canvas.putSecret(bytes, row: row, column: after, role: role)
                }
            } else {
                canvas.put(Self.mask, row: row, column: after, role: selected ? .selected : .dim)
            }
        case .oneTimeCode:
            // Drawn again every second (`.tick`), so the seconds count down while it is shown.
            let drawn: Bool? = try? details.withOneTimeCode { code, secondsLeft in
                let after =
                    revealed
                    ? canvas.putSecret(code, row: row, column: start, role: .normal)
                    : canvas.put(Self.mask, row: row, column: start, role: .dim)
                canvas.put("  valid \(secondsLeft) s more", row: row, column: after, role: .dim)
                return true
            }
            if drawn == nil { canvas.put("(cannot be made)", row: row, column: start, role: .warning) }
        }
    }
}
