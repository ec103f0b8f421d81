import FoundationEssentials
import VaultModel

/// The credential list (AutoFill's credential list for service identifiers): matches for the
/// requested services in ranked order; Tab adds every other credential in a second section
/// ("show all"), items without a site in a last one of their own (they never match a request);
/// typing filters and re-scores within the sections; Enter chooses, Esc cancels.
/// → asks for the selected credential's details (`CredentialDetailScreen`).
/// A value: a key in, a `Transition` out (the chosen credential's id), and a frame drawn from the
/// state alone.
public struct CredentialListScreen: Screen, Sendable {
    /// What the list ends with: a credential to use, its one-time code to use, or one to see in detail.
    public enum Choice: Equatable, Sendable {
        case use(UUID)
        case code(UUID)
        case details(UUID)

        public var id: UUID {
            switch self {
            case .use(let id), .code(let id), .details(let id): return id
            }
        }
    }

    public typealias Result = Choice

    public enum Action: Sendable, Equatable {
        case up, down, pageUp, pageDown, first, last, toggleAll, choose, code, details, cancel
        case deleteCharacter, clearQuery, deleteWord
    }

    public static let bindings: [KeyBinding<Action>] = [
        KeyBinding([.enter], "Enter", "choose", .choose),
        KeyBinding([.tab, .backTab], "Tab", "show all", .toggleAll),
        KeyBinding([.right], "→", "details", .details),
        KeyBinding([.control("t")], "^T", "code", .code),
        KeyBinding([.up, .control("p")], "↑↓", "move", .up),
        KeyBinding([.down, .control("n")], "", "", .down, inHelpBar: false),
        KeyBinding([.pageUp], "PgUp", "", .pageUp, inHelpBar: false),
        KeyBinding([.pageDown], "PgDn", "", .pageDown, inHelpBar: false),
        KeyBinding([.home], "Home", "", .first, inHelpBar: false),
        KeyBinding([.end], "End", "", .last, inHelpBar: false),
        KeyBinding([.backspace], "", "", .deleteCharacter, inHelpBar: false),
        KeyBinding([.control("u")], "^U", "clear", .clearQuery),
        KeyBinding([.control("w")], "", "", .deleteWord, inHelpBar: false),
        KeyBinding([.escape, .control("c")], "Esc", "cancel", .cancel),
    ]

    /// The keys of this list: → only when it offers details, ^T only when a listed credential
    /// has a one-time code.
    public var bindings: [KeyBinding<Action>] {
        Self.bindings.filter { ($0.action != .details || offersDetails) && ($0.action != .code || offersCodes) }
    }

    /// The smallest terminal the list is drawn in; below it the run loop shows `TooSmallNotice`.
    public static let minimumSize = TerminalSize(rows: 6, columns: 40)
    public var minimumSize: TerminalSize { Self.minimumSize }
    /// Rows above the list (heading, filter, a blank line) and below it (the help bar).
    private static let listTop = 3
    private static let rowsBelowList = 1

    let requestLabel: String?
    /// What the one section of a list without a request is called: "All credentials", or what a
    /// command narrowed it to ("Credentials named 'github.com'" for `rm github.com`).
    let listTitle: String
    /// How this pwtui is run (`pwtui`, or its full path when it is not on PATH yet), for the one
    /// hint that names a command.
    let commandName: String
    /// Whether → opens details (the flow has a way to show them); else it is not in the help bar.
    let offersDetails: Bool
    /// Whether any credential listed has a one-time code (^T hands that over instead).
    let offersCodes: Bool
    let list: FilterableList
    public private(set) var query = ""
    public private(set) var showAll: Bool
    /// What an audit found, by credential: rows marked weak, reused or breached.
    public var findings: [UUID: Set<AuditFinding.Kind>] = [:]
    /// Where the findings come from when finding them takes a moment (an agent's audit): asked
    /// once, after the first frame is drawn, so the list never waits for it.
    public var findingsSource: (@Sendable () -> [UUID: Set<AuditFinding.Kind>])?
    private var findingsAsked = false

    public var opening: Transition<Choice> { findingsSource != nil && !findingsAsked ? .work : .stay }

    public mutating func work() throws -> Transition<Choice> {
        findingsAsked = true
        if let findingsSource { findings = findingsSource() }
        return .stay
    }
    public private(set) var selection = 0
    /// The first line of the list in view, kept by `handle` so the view moves only when the
    /// selection leaves it (`render` draws from it, adjusted the same way, without storing).
    private var scroll = 0
    /// Positions in `list.ranked` of the entries shown, matching ones first.
    private var visible: [Int]
    /// How many of `visible` are matches (they come first).
    private var visibleMatches = 0
    /// How many of `visible` are items without a site (they come last).
    private var visibleSiteless = 0

    /// `ranked` is every credential, matching ones first (`CredentialRanking.rank`); with no
    /// requested services (`requestLabel` nil) everything is one section.
    /// `listTitle`: the section's name when there is no request; `offersCodes`: false where a
    /// choice names a credential rather than hands one over (`rm`, `edit`), so ^T means nothing.
    public init(
        ranked: [RankedCredential], requestLabel: String?, listTitle: String = "All credentials",
        commandName: String = "pwtui",
        offersDetails: Bool = false, offersCodes: Bool = true
    ) {
        self.requestLabel = requestLabel
        self.listTitle = listTitle
        self.offersDetails = offersDetails
        self.offersCodes = offersCodes && ranked.contains { $0.credential.totp != nil }
        self.commandName = commandName
        list = FilterableList(ranked)
        showAll = requestLabel == nil
        visible = []
        refilter()
    }

    public var matchCount: Int { list.ranked.prefix { $0.match != nil }.count }
    public var selected: RankedCredential? {
        visible.indices.contains(selection) ? list.ranked[visible[selection]] : nil
    }
    public var visibleEntries: [RankedCredential] { visible.map { list.ranked[$0] } }

    /// How many lines the list shows at `size`: what is drawn, and how far PgUp and PgDn move.
    public static func listHeight(at size: TerminalSize) -> Int {
        max(size.rows - listTop - rowsBelowList, 1)
    }

    public mutating func handle(_ event: TerminalEvent, context: ScreenContext) -> Transition<Choice> {
        let transition = act(on: event, pageSize: Self.listHeight(at: context.size))
        // Kept for the size the list is seen at; too small, it is not seen, and a resize that
        // makes it fit comes here again.
        if TooSmallNotice(minimum: minimumSize).fits(context.size) {
            scroll = Layout(self).scroll(from: scroll, selection: selection, height: Self.listHeight(at: context.size))
        }
        return transition
    }

    private mutating func act(on event: TerminalEvent, pageSize: Int) -> Transition<Choice> {
        guard case .key(let key) = event else { return .stay }
        if case .text(let scalar) = key {
            query.unicodeScalars.append(scalar)
            refilter()
            return .stay
        }
        guard let action = KeyBinding.action(for: key, in: bindings) else { return .stay }
        switch action {
        case .up: move(by: -1)
        case .down: move(by: 1)
        case .pageUp: move(by: -pageSize)
        case .pageDown: move(by: pageSize)
        case .first: selection = 0
        case .last: selection = max(visible.count - 1, 0)
        case .toggleAll:
            guard requestLabel != nil else { return .stay }
            let current = selected?.credential.id
            showAll.toggle()
            refilter(keeping: current)
        case .choose:
            if let selected { return .finish(.use(selected.credential.id)) }
        case .details:
            if let selected { return .finish(.details(selected.credential.id)) }
        case .code:
            if let selected, selected.credential.totp != nil { return .finish(.code(selected.credential.id)) }
        case .cancel: return .cancel
        case .deleteCharacter:
            if !query.isEmpty {
                query.removeLast()
                refilter()
            }
        case .clearQuery:
            query = ""
            refilter()
        case .deleteWord:
            while query.last == " " { query.removeLast() }
            while let last = query.last, last != " " { query.removeLast() }
            refilter()
        }
        return .stay
    }

    private mutating func move(by delta: Int) {
        guard !visible.isEmpty else { return }
        selection = min(max(selection + delta, 0), visible.count - 1)
    }

    /// Moves the selection to `id` when it is listed (back from its details, after unlocking).
    public mutating func select(_ id: UUID) {
        if let position = visible.firstIndex(where: { list.ranked[$0].credential.id == id }) { selection = position }
    }

    private mutating func refilter(keeping id: UUID? = nil) {
        // A typed filter searches every credential (sections kept); show-all governs the list
        // before anything is typed.
        let filtered = list.filteredPositions(by: query, matchesOnly: !showAll && query.isEmpty)
        // Items without a site last, each section in the filter's order.
        let ranked = list.ranked
        let isSiteless = { (position: Int) in ranked[position].credential.services.isEmpty }
        visible = filtered.positions.filter { !isSiteless($0) } + filtered.positions.filter(isSiteless)
        visibleMatches = visible.prefix { list.ranked[$0].match != nil }.count
        visibleSiteless = visible.count - (visible.firstIndex(where: isSiteless) ?? visible.count)
        // The cursor goes to the entry kept across a toggle, else to the best match for what was
        // typed, whichever section it is in (typing "goo" lands on Google even below GitHub).
        let best = filtered.best.flatMap { index in visible.firstIndex(of: filtered.positions[index]) }
        selection =
            id.flatMap { wanted in visible.firstIndex { list.ranked[$0].credential.id == wanted } }
            ?? best ?? 0
        scroll = 0
    }

    // MARK: Drawing

    public func render(into canvas: inout Canvas) {
        let size = canvas.size
        let heading = requestLabel.map { "pwtui — credentials for \($0)" } ?? "pwtui — \(listTitle.lowercased())"
        canvas.put(heading, row: 0, column: 0, role: .title)
        let prompt = "Filter: "
        let afterPrompt = canvas.put(prompt, row: 1, column: 0, role: .dim)
        let afterQuery = canvas.put(query, row: 1, column: afterPrompt, role: .input)
        canvas.cursor = Canvas.Position(row: 1, column: min(afterQuery, size.columns - 1))

        let layout = Layout(self)
        let height = Self.listHeight(at: size)
        let scroll = layout.scroll(from: self.scroll, selection: selection, height: height)
        let lines = 0 ..< min(height, max(layout.count - scroll, 0))
        // Columns sized from the entries in view (`CredentialColumns`).
        let cells = lines.compactMap { offset -> (Int, CredentialColumns.Cells)? in
            guard case .entry(let index) = layout.line(scroll + offset) else { return nil }
            let entry = list.ranked[visible[index]]
            return (index, CredentialColumns.Cells(entry, findings: findings[entry.credential.id] ?? []))
        }
        let columns = CredentialColumns(cells.map(\.1), width: size.columns)
        var next = cells.makeIterator()
        for offset in lines {
            let row = Self.listTop + offset
            switch layout.line(scroll + offset) {
            case .entry(let index):
                guard let (_, entry) = next.next() else { continue }
                draw(entry, columns: columns, row: row, selected: index == selection, into: &canvas)
            case .text(let text, let role):
                canvas.put(text, row: row, column: 0, role: role)
            }
        }
        // Rows below the window: said at the right of the filter line, since a short terminal
        // shows a full window that looks like the whole list.
        let below = layout.count - scroll - lines.count
        if below > 0 {
            let more = "↓ \(below) more"
            let column = size.columns - TextWidth.columns(of: more) - 1
            if column > afterQuery + 1 { canvas.put(more, row: 1, column: column, role: .dim) }
        }
        canvas.fill(row: size.rows - 1, role: .help)
        canvas.put(KeyBinding.helpBar(bindings), row: size.rows - 1, column: 0, role: .help)
    }

    /// The lines of the list — section headers, empty-state hints and entries — computed on
    /// demand from counts, so drawing costs the height of the window, not the length of the list.
    private struct Layout {
        enum Line {
            case text(String, StyleRole)
            case entry(Int)
        }

        let lines: [Line]  // the lines before the first entry of each section, and hints
        let matches: Int
        /// The other entries with a site (after the matches).
        let others: Int
        /// Items without a site: the last section, with its own header.
        let siteless: Int
        let grouped: Bool
        /// Empty-state hints: a line each, so a long command (pwtui's full path when it is not on
        /// PATH) is shown whole on a line of its own rather than cut.
        let hints: [Line]
        let othersHeader: Line?
        let sitelessHeader: Line?

        init(_ screen: CredentialListScreen) {
            matches = screen.visibleMatches
            siteless = screen.visibleSiteless
            others = screen.visible.count - screen.visibleMatches - siteless
            // Shown where the other credentials are: always without a request, with show-all with one.
            sitelessHeader =
                siteless > 0 && (screen.requestLabel == nil || screen.showAll)
                ? .text("Items without a site (\(siteless))", .section) : nil
            let otherTotal = screen.list.ranked.count - screen.matchCount
            grouped = screen.requestLabel != nil
            if let label = screen.requestLabel {
                lines = [.text("Matches for \(label) (\(matches))", .section)]
                if matches == 0 {
                    let text =
                        screen.query.isEmpty
                        ? "No credentials for \(label)"
                            + (screen.showAll || otherTotal == 0 ? "" : " — Tab shows all \(otherTotal)")
                        : "Nothing matches '\(screen.query)'"
                            + (screen.showAll ? "" : " — Tab searches all \(screen.list.ranked.count)")
                    hints = [.text("  " + text, .dim)]
                } else {
                    hints = []
                }
                othersHeader = screen.showAll ? .text("All other credentials (\(others))", .section) : nil
            } else {
                lines = [.text("\(screen.listTitle) (\(others))", .section)]
                if screen.list.ranked.isEmpty {
                    // A full path (pwtui not on PATH yet, after `make run`) takes a line of its
                    // own, continued with a backslash so the two lines paste as one command.
                    let command = screen.commandName
                    hints =
                        [.text("  The vault is empty — add one with:", .dim)]
                        + (command.contains("/")
                            ? [.text("    \(command) \\", .dim), .text("      add SERVICE --username NAME", .dim)]
                            : [.text("    \(command) add SERVICE --username NAME", .dim)])
                } else if others == 0, siteless == 0 {
                    hints = [.text("  Nothing matches '\(screen.query)'", .dim)]
                } else {
                    hints = []
                }
                othersHeader = nil
            }
        }

        /// Lines before the first match: the header, and the hints if any.
        private var lead: Int { 1 + hints.count }

        /// Entries (and the header above them) before the items without a site.
        private var sited: Int {
            grouped ? matches + (othersHeader == nil ? 0 : 1 + others) : others
        }

        var count: Int {
            lead + sited + (sitelessHeader == nil ? 0 : 1 + siteless)
        }

        func line(_ index: Int) -> Line {
            if index == 0 { return lines[0] }
            if index >= 1, index <= hints.count { return hints[index - 1] }
            let afterLead = index - lead
            if afterLead >= sited, let sitelessHeader {
                // The last section: its header, then its entries, numbered after every other.
                return afterLead == sited ? sitelessHeader : .entry(matches + others + afterLead - sited - 1)
            }
            guard grouped else { return .entry(afterLead) }
            if afterLead < matches { return .entry(afterLead) }
            if afterLead == matches, let othersHeader { return othersHeader }
            return .entry(afterLead - 1)
        }

        func line(ofEntry entry: Int) -> Int {
            if entry >= matches + others, sitelessHeader != nil { return lead + sited + 1 + (entry - matches - others) }
            guard grouped else { return lead + entry }
            return entry < matches ? lead + entry : lead + entry + 1
        }

        func sectionHeader(above line: Int) -> Int {
            if sitelessHeader != nil, line > lead + sited { return lead + sited }
            return grouped && othersHeader != nil && line > lead + matches ? lead + matches : 0
        }

        /// The first line in view: `previous`, moved only as far as needed to show the selected
        /// entry, and its section header when both fit.
        func scroll(from previous: Int, selection: Int, height: Int) -> Int {
            var scroll = previous
            let selectedLine = line(ofEntry: selection)
            if selectedLine < scroll { scroll = selectedLine }
            if selectedLine >= scroll + height { scroll = selectedLine - height + 1 }
            let header = sectionHeader(above: selectedLine)
            if selectedLine - header < height, header < scroll { scroll = header }
            return scroll
        }
    }

    private func draw(
        _ cells: CredentialColumns.Cells, columns: CredentialColumns, row: Int, selected: Bool,
        into canvas: inout Canvas
    ) {
        let width = canvas.size.columns
        let role: StyleRole = selected ? .selected : .normal
        if selected { canvas.fill(row: row, role: .selected) }
        canvas.put((selected ? "▸ " : "  ") + cells.title, row: row, column: 0, role: role, width: columns.title)
        if columns.username > 0 {
            canvas.put(
                cells.username, row: row, column: columns.usernameStart, role: selected ? .selected : .dim,
                width: columns.username)
        }
        // The service gives way to the match kind, which is never cut.
        let matchRole: StyleRole = selected ? .selected : .match
        let how = cells.how(compact: columns.compact)
        let serviceWidth = max(width - columns.serviceStart - TextWidth.columns(of: how), 0)
        let after = canvas.put(
            cells.service, row: row, column: columns.serviceStart, role: matchRole, width: serviceWidth)
        canvas.put(how, row: row, column: after, role: matchRole)
    }
}
