import Testing
import TUI
import VaultModel

/// The empty vault's hint names a command that runs: after `make run`, pwtui is not on PATH yet,
/// and the flow is given its full path to say instead. The command has a line of its own, so at
/// 80 columns a long path is shown whole, not cut (`…/debug/pwtu…`).
@Suite struct EmptyVaultHintTests {
    @Test func theHintNamesTheCommandAsGivenWhole() {
        let command = "/home/someone/src/pwtui/.build/x86_64-unknown-linux-gnu/debug/pwtui"
        let screen = CredentialListScreen(ranked: [], requestLabel: nil, commandName: command)
        var canvas = Canvas(size: TerminalSize(rows: 12, columns: 80))
        screen.render(into: &canvas)
        #expect(canvas.text.contains("The vault is empty — add one with:"), "\(canvas.text)")
        #expect(
            canvas.text.contains("    \(command) \\\n      add SERVICE --username NAME"),
            "two lines that paste as one: \(canvas.text)")
        let plain = CredentialListScreen(ranked: [], requestLabel: nil)
        var plainCanvas = Canvas(size: TerminalSize(rows: 12, columns: 80))
        plain.render(into: &plainCanvas)
        #expect(plainCanvas.text.contains("    pwtui add SERVICE --username NAME"))
    }
}
