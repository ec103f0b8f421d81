import Foundation
import TUITestDoubles
import Testing
import TUI
import VaultCrypto
import VaultModel

/// The unlock-cost step's "about N s" labels: one decimal, as "%.1f" wrote them before the
/// project stopped linking the whole of Foundation, and never a crash on an estimate that is not
/// a number (a floor measured as infinitely slow).
@Suite struct ConfigurationCostLabelTests {
    func firstFrame(floorSeconds: Double) throws -> String {
        let options = KDFCalibration.options(floorSeconds: floorSeconds)
        let terminal = GridTerminal(size: TerminalSize(rows: 20, columns: 100))
        terminal.press(.control("c"))
        var screen = try ConfigurationScreen(
            firstRun: false,
            defaults: .init(
                vaultPath: "/nonexistent-pwtui-cost/v.pwtui", parameters: .moderate, theme: "default",
                clipboardTimeout: 45),
            themes: ["default"], home: "/home/user", calibrate: { options }, loadTheme: { _ in .monochrome })
        _ = try terminal.run(&screen)
        return try #require(terminal.frames.last { $0.text.contains("How long should unlocking take?") }).text
    }

    @Test func estimatesAreShownWithOneDecimal() throws {
        let text = try firstFrame(floorSeconds: 0.065)
        for option in KDFCalibration.options(floorSeconds: 0.065) {
            let expected = String(format: "about %.1f s", option.estimatedSeconds)
            #expect(text.contains(expected), "\(expected) in\n\(text)")
        }
    }

    @Test func anEstimateThatIsNotANumberIsShownAsAQuestionMark() throws {
        #expect(try firstFrame(floorSeconds: .infinity).contains("about ? s"))
    }
}
