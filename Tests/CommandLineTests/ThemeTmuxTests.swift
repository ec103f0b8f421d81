// Themes from a binary run outside the checkout, and warnings while a screen is open (issue 9,
// fix 2): a copy of pwtui anywhere has its built-in themes, and a warning never lands on the
// ncurses screen; it is printed after the screen is given back.

import Foundation
import Testing

@Suite("Themes under tmux")
struct ThemeTmuxTests {
    @Test("a copied binary has its themes; a broken theme's warning waits until the wizard is closed")
    func copiedBinaryAndHeldWarnings() throws {
        let sandbox = try Sandbox.withVault()
        let elsewhere = sandbox.root + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let pwtui = elsewhere + "/pwtui"
        try FileManager.default.copyItem(atPath: try Binaries.require(Binaries.pwtui), toPath: pwtui)
        let themes = sandbox.root + "/xdg/config/pwtui/themes"
        try FileManager.default.createDirectory(atPath: themes, withIntermediateDirectories: true)
        try "normal = red\n".write(toFile: themes + "/broken.theme", atomically: true, encoding: .utf8)

        let tmux = try TmuxSession.shellReady(sandbox: sandbox)
        let rc = sandbox.scratch + "/themes.rc"
        try tmux.enter(
            "unset NO_COLOR; cd /; '\(pwtui)' configure --master-password-fd 3 3<<<'\(sandbox.password)'; echo \"RC=$?\" > '\(rc)'"
        )
        try #require(
            try tmux.waitForPane { $0.contains("▸ about") && $0.contains("(current)") } != nil,
            "\(tmux.captures.last ?? "")")
        try tmux.press("Enter")
        let list = try tmux.waitForPane { $0.contains("Theme") && $0.contains("broken") }
        try #require(list != nil, "\(tmux.captures.last ?? "")")
        #expect(list?.contains("high-contrast") == true, "\(list ?? "")")
        try tmux.press("Down")  // high-contrast, previewed: found inside the binary
        try #require(try tmux.waitForPane { $0.contains("▸ high-contrast") } != nil, "\(tmux.captures.last ?? "")")
        try tmux.press("Down", "Down")  // monochrome, then broken: a warning is due
        try #require(try tmux.waitForPane { $0.contains("▸ broken") } != nil, "\(tmux.captures.last ?? "")")
        Thread.sleep(forTimeInterval: 0.3)
        _ = try tmux.capture()
        for screen in tmux.captures {
            #expect(
                !screen.contains("broken.theme") && !screen.contains("no theme named"),
                "nothing written over the screen: \(screen)")
        }
        try tmux.press("Up", "Up", "Enter", "Enter", "Enter", "Enter")  // back to high-contrast; clipboard; agent; summary
        #expect(commandResult(rc) == "RC=0\n")
        let after = try tmux.waitForPane { $0.contains("broken.theme:1: expected two colours") }
        #expect(after != nil, "the warning comes after the screen: \(tmux.captures.last ?? "")")
        #expect(after?.contains("no theme named") == false, "the built-in themes were found: \(after ?? "")")
        let settings = try String(contentsOfFile: sandbox.root + "/xdg/config/pwtui/config.toml", encoding: .utf8)
        #expect(settings.contains("theme = \"high-contrast\""), "\(settings)")
    }
}
