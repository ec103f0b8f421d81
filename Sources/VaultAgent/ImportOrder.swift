/// `pwtui import` done by the agent that holds the vault (`AgentRequest.importFile`): the
/// export's absolute path and the command's options as the command line gave them (the agent's
/// side reads them back into the importer's types, a layer above this one).
public struct ImportOrder: Codable, Sendable, Equatable {
    public var path: String
    /// `--format`, when given.
    public var format: String?
    public var dryRun: Bool
    /// `--on-conflict`.
    public var onConflict: String
    public var skipInvalid: Bool

    public init(path: String, format: String?, dryRun: Bool, onConflict: String, skipInvalid: Bool) {
        self.path = path
        self.format = format
        self.dryRun = dryRun
        self.onConflict = onConflict
        self.skipInvalid = skipInvalid
    }
}

/// What an import in the agent did, for the client to say: the warnings (stderr), the report
/// (stdout), and the refusal when entries could not be imported (after the report: a dry run
/// lists them all first).
public struct ImportOutcome: Codable, Sendable, Equatable {
    public var warnings: [String]
    public var report: String
    /// Whether the vault was saved (the report is then written as "after saving").
    public var saved: Bool
    public var refusal: String?

    public init(warnings: [String], report: String, saved: Bool, refusal: String?) {
        self.warnings = warnings
        self.report = report
        self.saved = saved
        self.refusal = refusal
    }
}
