import Testing
import TUI
import VaultModel

/// The empty vault's hint names a command that runs: after `make run`, pwtui is not on PATH yet,
/// and the flow is given its full path to say instead.
@Suite struct EmptyVaultHintTests {
    @Test func theHintNamesTheCommandAsGiven() {
        let screen = CredentialListScreen(ranked: [], requestLabel: nil, commandName: "/src/pwtui/.build/debug/pwtui")
        var canvas = Canvas(size: TerminalSize(rows: 12, columns: 120))
        screen.render(into: &canvas)
        #expect(canvas.text.contains("add one with: /src/pwtui/.build/debug/pwtui add SERVICE --username NAME"), "\(canvas.text)")
        let plain = CredentialListScreen(ranked: [], requestLabel: nil)
        var plainCanvas = Canvas(size: TerminalSize(rows: 12, columns: 120))
        plain.render(into: &plainCanvas)
        #expect(plainCanvas.text.contains("add one with: pwtui add"))
    }
}
