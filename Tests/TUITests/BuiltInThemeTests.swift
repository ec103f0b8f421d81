import Foundation
import Testing
import TUI

/// The themes travel inside the binary (issue 9, fix 2), and Resources/themes stays their source.
@Suite struct BuiltInThemeTests {
    let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Resources/themes").path

    @Test func theEmbeddedCopyEqualsResourcesThemes() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: resources).filter { $0.hasSuffix(".theme") }
        var onDisk: [String: String] = [:]
        for file in files {
            onDisk[String(file.dropLast(6))] = try String(contentsOfFile: resources + "/" + file, encoding: .utf8)
        }
        #expect(!onDisk.isEmpty)
        #expect(Theme.builtInFiles == onDisk, "Resources/themes changed: run `make themes` (Resources/embed-themes.sh)")
        #expect(Theme.builtInNames.first == "default")
        #expect(Set(Theme.builtInNames) == Set(onDisk.keys))
    }

    @Test func everyBuiltInThemeLoadsWithoutAnyFileOnDisk() throws {
        for name in Theme.builtInNames {
            var warnings: [String] = []
            let theme = Theme.load(named: name, from: ["/nonexistent-pwtui-themes"]) { warnings.append($0) }
            #expect(warnings.isEmpty, "\(name): \(warnings)")
            #expect(theme.name == name)
            let fromFile = Theme.load(named: name, from: [resources]) { warnings.append($0) }
            #expect(theme == fromFile, "\(name): the built-in copy is the file")
        }
        let highContrast = Theme.load(named: "high-contrast", from: []) { _ in }
        #expect(highContrast.style(.selected) == Style(foreground: .black, background: .yellow, bold: true))
        var warnings: [String] = []
        #expect(Theme.load(named: "no-such-theme", from: []) { warnings.append($0) } == .standard)
        #expect(warnings == ["no theme named 'no-such-theme'; using the default theme"])
    }

    @Test func aUserThemeReplacesABuiltInOne() throws {
        let directory = NSTemporaryDirectory() + "pwtui-user-theme-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "title = red default\n".write(toFile: directory + "/high-contrast.theme", atomically: true, encoding: .utf8)
        let theme = Theme.load(named: "high-contrast", from: [directory]) { _ in }
        #expect(theme.style(.title) == Style(foreground: .red, background: .default))
    }

    /// Read through Platform's funnel: a FIFO where a theme is gives the default theme and a
    /// warning at once (FileManager's read waited for a writer forever).
    @Test func aFIFOForAThemeIsWarnedAboutNotWaitedOn() throws {
        let directory = NSTemporaryDirectory() + "pwtui-fifo-theme-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(mkfifo(directory + "/mine.theme", 0o600) == 0)
        var warnings: [String] = []
        #expect(Theme.load(named: "mine", from: [directory]) { warnings.append($0) } == .standard)
        #expect(
            warnings == [
                "\(directory)/mine.theme is a FIFO (named pipe), not a regular file; refusing to read it; using the default theme"
            ])
    }
}

/// Nothing reaches stderr while a full-screen terminal is open; it comes after, in order.
@Suite struct HeldMessagesTests {
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
        var recorded: [String] { lock.lock(); defer { lock.unlock() }; return lines }
    }

    @Test func linesWaitUntilTheLastTerminalCloses() {
        let recorder = Recorder()
        let messages = HeldMessages { recorder.append($0) }
        messages.say("before")
        #expect(recorder.recorded == ["before"], "no terminal open: at once")
        messages.hold()
        messages.say("one")
        messages.hold()  // the wizard's terminal handed on to the picker, say
        messages.say("two")
        messages.release()
        #expect(recorder.recorded == ["before"], "a terminal is still open")
        #expect(messages.isHolding)
        messages.release()
        #expect(recorder.recorded == ["before", "one", "two"])
        messages.say("after")
        #expect(recorder.recorded.last == "after")
        messages.release()  // an extra release is harmless
        messages.say("still")
        #expect(recorder.recorded.last == "still")
    }
}
