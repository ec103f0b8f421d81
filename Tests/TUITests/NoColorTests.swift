import Platform
@testable import TUI
import Testing

/// NO_COLOR means one thing everywhere (no-color.org): set to something. The picker's terminal
/// used to take an empty NO_COLOR as "no colours" while the theme did not.
@Suite struct NoColorTests {
    @Test func anEmptyNoColorLeavesColoursOn() {
        #expect(
            NcursesTerminal.usesColor(.standard, terminalHasColors: true, environment: Environment(["NO_COLOR": ""])))
        #expect(NcursesTerminal.usesColor(.standard, terminalHasColors: true, environment: Environment([:])))
    }

    @Test func aSetNoColorOrAPlainTerminalTurnsThemOff() {
        #expect(
            !NcursesTerminal.usesColor(.standard, terminalHasColors: true, environment: Environment(["NO_COLOR": "1"])))
        #expect(!NcursesTerminal.usesColor(.standard, terminalHasColors: false, environment: Environment([:])))
        #expect(!NcursesTerminal.usesColor(.monochrome, terminalHasColors: true, environment: Environment([:])))
    }
}
