import Foundation
import VaultCrypto
import VaultModel

/// Runs the configuration screen on a terminal: measures the unlock cost when that step is
/// reached (saying so meanwhile), previews themes live, and returns the choices (the first-run
/// master password stays in the screen, to be lent to whoever creates the vault).
public struct ConfigurationFlow {
    let terminal: Terminal
    let screen: ConfigurationScreen
    let calibrate: () throws -> [KDFCalibration.Option]
    let loadTheme: (String) -> Theme

    public init(terminal: Terminal, screen: ConfigurationScreen,
                calibrate: @escaping () throws -> [KDFCalibration.Option], loadTheme: @escaping (String) -> Theme) {
        self.terminal = terminal
        self.screen = screen
        self.calibrate = calibrate
        self.loadTheme = loadTheme
    }

    /// The choices, or nil when the user cancelled.
    public func run() throws -> ConfigurationScreen.Choices? {
        var pending = screen.entryOutcome
        while true {
            switch pending {
            case .calibrate:
                screen.busy = "Measuring how fast this machine derives keys…"
                try draw()
                screen.calibration = try calibrate()
                screen.busy = nil
            case .preview(let name):
                terminal.use(loadTheme(name))
            case .finished:
                return screen.choices
            case .cancelled:
                return nil
            case .stay:
                break
            }
            try draw()
            pending = screen.handle(try terminal.nextEvent())
        }
    }

    private func draw() throws {
        var canvas = Canvas(size: terminal.size)
        screen.render(into: &canvas)
        try terminal.present(canvas)
    }
}
