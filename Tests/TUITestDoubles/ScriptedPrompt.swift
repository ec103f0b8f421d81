import TUI
import VaultCrypto

/// An in-memory prompt for tests: answers come from a script, in order, and everything said or
/// asked is recorded. An answer the script lacks is `PromptError.cancelled`, as Ctrl-D is.
public final class ScriptedPrompt: LinePrompt {
    public enum Answer {
        case secret(String)
        case yes, no
    }

    private var script: [Answer]
    /// Every prompt, question and remark, in order.
    public private(set) var transcript: [String] = []

    public init(_ script: [Answer] = []) {
        self.script = script
    }

    public func say(_ text: String) {
        transcript.append(text)
    }

    public func readSecret(prompt: String) throws(PromptError) -> SecureBytes {
        transcript.append(prompt)
        guard !script.isEmpty, case .secret(let text) = script.removeFirst() else { throw .cancelled }
        do {
            return try SecureBytes(copying: text.utf8)
        } catch {
            throw .cancelled
        }
    }

    public func confirm(_ question: String) throws(PromptError) -> Bool {
        transcript.append(question)
        guard !script.isEmpty else { throw .cancelled }
        switch script.removeFirst() {
        case .yes: return true
        case .no: return false
        case .secret: throw .cancelled
        }
    }
}
