import Platform

/// The Prompt objects `Unlock` makes for what is locked, each its caller's. A prompt's `Prompt`
/// asks the `SecretPrompter` once; the prompter answers from its own thread into `answers`, and
/// the bus's thread takes the answers (`takeAnswers`) to complete each prompt with `Completed`.
/// At most `limit` wait at once. Everything but `answers` is the bus's thread's.
final class SecretPrompts {
    static let limit = 1024

    /// An unlock waiting for its caller's `Prompt`, or for the prompter's answer.
    final class Prompt {
        let owner: SecretCaller
        let objects: [String]
        var asked = false

        init(owner: SecretCaller, objects: [String]) {
            self.owner = owner
            self.objects = objects
        }
    }

    /// The prompters' answers, left by their threads for the bus's.
    final class Answers: @unchecked Sendable {
        // @unchecked: `pending` only under `lock`.
        private let lock = Lock()
        private var pending: [(prompt: String, unlocked: Bool)] = []

        func add(_ prompt: String, unlocked: Bool) { lock.withLock { pending.append((prompt, unlocked)) } }

        func take() -> [(prompt: String, unlocked: Bool)] {
            lock.withLock {
                defer { pending = [] }
                return pending
            }
        }
    }

    private let prefix: String
    private var waiting: [String: Prompt] = [:]
    private var made = 0
    private let answers = Answers()

    /// Prompts at `prefix` followed by a name.
    init(under prefix: String) {
        self.prefix = prefix
    }

    /// A new prompt for `owner` to unlock `objects`: its path.
    func add(owner: SecretCaller, objects: [String]) throws(DBusFailure) -> String {
        guard waiting.count < Self.limit else {
            throw .limitsExceeded("\(Self.limit) prompts are waiting; answer or dismiss some")
        }
        made += 1
        let path = prefix + "p\(made)"
        waiting[path] = Prompt(owner: owner, objects: objects)
        return path
    }

    /// The waiting prompt at `path`, if `caller` asked for it.
    func prompt(_ path: String, of caller: String?) throws(DBusFailure) -> Prompt {
        guard let prompt = waiting[path], prompt.owner.uniqueName == caller else {
            throw .noSuchObject("no prompt \(path) for this connection")
        }
        return prompt
    }

    /// `Prompt`: asks `prompter` for the prompt at `path`, once; its answer comes back through
    /// `takeAnswers`.
    func ask(_ path: String, of caller: String?, prompter: any SecretPrompter) throws(DBusFailure) {
        let prompt = try prompt(path, of: caller)
        guard !prompt.asked else { return }
        prompt.asked = true
        let answers = answers
        prompter.unlock(for: prompt.owner) { unlocked in answers.add(path, unlocked: unlocked) }
    }

    /// `Dismiss`: the prompt ends unanswered.
    func dismiss(_ path: String, of caller: String?) throws(DBusFailure) {
        _ = try prompt(path, of: caller)
        waiting[path] = nil
    }

    /// The answers given since the last call, with their prompts, which end here.
    func takeAnswers() -> [(path: String, prompt: Prompt, unlocked: Bool)] {
        answers.take().compactMap { answer in
            waiting.removeValue(forKey: answer.prompt).map { (answer.prompt, $0, answer.unlocked) }
        }
    }

    /// Every prompt of `owner`'s dropped: it left the bus.
    func forget(_ owner: String) {
        waiting = waiting.filter { $0.value.owner.uniqueName != owner }
    }
}
