// The picker on a real terminal: tmux runs bash, the test types `x=$(pwtui pick …)` and reads
// the screen. The list is drawn on /dev/tty, so only the chosen secret reaches `$x`. With a
// current identity store the list comes first and the master password is asked only for a
// choice — or not at all when the agent is unlocked.

import Foundation
import Testing

@Suite("Picker under tmux")
struct PickerTmuxTests {
    /// For github.com: "GitHub login" (same host) first, "Gist" (same site) second.
    func context() throws -> (Sandbox, TmuxSession, String) {
        let sandbox = try Sandbox.withVault()
        try sandbox.add(
            ["https://github.com/login"], username: "alice", secret: "first-secret", extra: ["--title", "GitHub login"])
        try sandbox.add(["gist.github.com"], username: "alice", secret: "second-secret", extra: ["--title", "Gist"])
        try sandbox.add(["gitlab.com"], username: "carol", secret: "other-secret", extra: ["--title", "GitLab"])
        let tmux = try TmuxSession.shellReady(sandbox: sandbox)
        let rc = sandbox.scratch + "/pick.rc"
        try pickGitHub(in: tmux, rc: rc)
        for screen in tmux.captures { #expect(!screen.contains("Master password:"), "the list comes first: \(screen)") }
        return (sandbox, tmux, rc)
    }

    /// Runs `x=$(pwtui pick github.com)` with its exit status and `$x` to `rc`, and waits for the list.
    func pickGitHub(in tmux: TmuxSession, rc: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let pwtui = try Binaries.require(Binaries.pwtui, sourceLocation: sourceLocation)
        try tmux.enter("x=$('\(pwtui)' pick github.com); echo \"RC=$? X=$x\" > '\(rc)'")
        try tmux.requirePane(sourceLocation: sourceLocation) { $0.contains("Matches for github.com") }
    }

    /// After a choice: the password screen names the credential; the password unlocks it.
    func unlock(_ tmux: TmuxSession, _ sandbox: Sandbox, for purpose: String) throws {
        try tmux.requirePane { $0.contains("Master password:") && $0.contains("To use \(purpose)") }
        try tmux.enter(sandbox.password)
    }

    @Test("x=$(pwtui pick github.com) with ↓ Enter gives exactly the second match's password")
    func pickSecondMatch() throws {
        let (sandbox, tmux, rc) = try context()
        let list = try #require(tmux.captures.last)
        let githubLine = try #require(list.split(separator: "\n").firstIndex { $0.contains("GitHub login") })
        let gistLine = try #require(list.split(separator: "\n").firstIndex { $0.contains("Gist") })
        #expect(githubLine < gistLine, "ranked: same host before same site\n\(list)")
        #expect(!list.contains("GitLab"), "no show-all before Tab")
        try tmux.press("Down")
        try tmux.press("Enter")
        try tmux.requirePane { $0.contains("To use Gist (alice)") }
        try tmux.press("Escape")
        try tmux.requirePane("Esc on the password screen: back to the list, choice kept") { $0.contains("▸ Gist") }
        try tmux.press("Enter")
        try unlock(tmux, sandbox, for: "Gist (alice)")
        #expect(commandResult(rc) == "RC=0 X=second-secret\n")
        for screen in tmux.captures {
            #expect(!screen.contains("second-secret") && !screen.contains("first-secret"), "\(screen)")
        }
    }

    @Test("Esc cancels: exit 130 and nothing on stdout")
    func escapeCancels() throws {
        let (_, tmux, rc) = try context()
        try tmux.press("Escape")
        #expect(commandResult(rc) == "RC=130 X=\n")
    }

    @Test("Tab shows all; typing filters the sections; a resize redraws")
    func showAllFilterResize() throws {
        let (sandbox, tmux, rc) = try context()
        try tmux.press("Tab")
        let all = try tmux.waitForPane { $0.contains("All other credentials (1)") && $0.contains("GitLab") }
        #expect(all != nil, "\(tmux.captures.last ?? "")")
        try tmux.type("carol")
        #expect(
            try tmux.waitForPane { $0.contains("Filter: carol") && $0.contains("Matches for github.com (0)") } != nil,
            "\(tmux.captures.last ?? "")")
        #expect(
            try tmux.waitForPane { $0.contains("All other credentials (1)") && $0.contains("▸ GitLab") } != nil,
            "\(tmux.captures.last ?? "")")
        try tmux.tmux(["resize-window", "-t", tmux.name, "-x", "30", "-y", "5"])
        #expect(try tmux.waitForPane { $0.contains("Terminal too small") } != nil, "\(tmux.captures.last ?? "")")
        try tmux.tmux(["resize-window", "-t", tmux.name, "-x", "60", "-y", "20"])
        #expect(
            try tmux.waitForPane { $0.contains("▸ GitLab") && !$0.contains("Terminal too small") } != nil,
            "\(tmux.captures.last ?? "")")
        try tmux.press("Enter")
        try unlock(tmux, sandbox, for: "GitLab (carol)")
        #expect(commandResult(rc) == "RC=0 X=other-secret\n")
    }

    @Test("with the agent unlocked the list comes at once and a choice is answered without any password")
    func agentAnswersTheChoice() throws {
        let (sandbox, tmux, rc) = try context()
        try tmux.press("Escape")
        #expect(commandResult(rc) == "RC=130 X=\n")
        try FileManager.default.removeItem(atPath: rc)
        #expect(try sandbox.pwtui(["agent", "start"], password: .none).exitCode == 0)
        defer { _ = try? sandbox.pwtui(["agent", "stop"], password: .none) }
        #expect(try sandbox.pwtui(["unlock"]).exitCode == 0)
        try pickGitHub(in: tmux, rc: rc)
        try tmux.press("Down")
        try tmux.press("Enter")
        #expect(commandResult(rc) == "RC=0 X=second-secret\n")

        // With the identity store off, the unlocked agent lists the identities itself.
        try FileManager.default.removeItem(atPath: rc)
        try sandbox.writeConfig("identity_store = false\n")
        try? FileManager.default.removeItem(atPath: sandbox.root + "/xdg/state/pwtui/identities")
        try pickGitHub(in: tmux, rc: rc)
        try tmux.press("Enter")
        #expect(commandResult(rc) == "RC=0 X=first-secret\n")
        for screen in tmux.captures { #expect(!screen.contains("Master password:"), "\(screen)") }
    }

    @Test("with the agent unlocked → shows the details, r reveals, Enter uses it: no password asked")
    func agentAnswersTheDetails() throws {
        let (sandbox, tmux, rc) = try context()
        try tmux.press("Escape")
        #expect(commandResult(rc) == "RC=130 X=\n")
        try FileManager.default.removeItem(atPath: rc)
        #expect(try sandbox.pwtui(["agent", "start"], password: .none).exitCode == 0)
        defer { _ = try? sandbox.pwtui(["agent", "stop"], password: .none) }
        #expect(try sandbox.pwtui(["unlock"]).exitCode == 0)
        try pickGitHub(in: tmux, rc: rc)
        try tmux.press("Right")
        let masked = try tmux.requirePane { $0.contains("No previous passwords") && $0.contains("Username    alice") }
        #expect(!masked.contains("first-secret"), "masked until r")
        try tmux.press("r")
        try tmux.requirePane { $0.contains("Password    first-secret") }
        try tmux.press("Enter")
        #expect(commandResult(rc) == "RC=0 X=first-secret\n")
        for screen in tmux.captures { #expect(!screen.contains("Master password:"), "\(screen)") }
    }

    /// A sandbox with no vault yet, a shell in tmux, and pwtui's path: where pwtui offers its
    /// demo and its first-run setup.
    func shellWithoutVault() throws -> (Sandbox, TmuxSession, pwtui: String) {
        let sandbox = try Sandbox()
        return (sandbox, try TmuxSession.shellReady(sandbox: sandbox), try Binaries.require(Binaries.pwtui))
    }

    @Test("pwtui demo: a throwaway vault, its password on the password screen, the list for github.com")
    func demo() throws {
        let (sandbox, tmux, pwtui) = try shellWithoutVault()
        let rc = sandbox.scratch + "/demo.rc"
        try tmux.enter("x=$('\(pwtui)' demo); echo \"RC=$? LEN=${#x}\" > '\(rc)'")
        try tmux.requirePane { $0.contains("the master password is: correct horse battery staple") }
        try tmux.enter("correct horse battery staple")
        let list = try tmux.requirePane { $0.contains("Matches for https://github.com/login (4)") }
        #expect(list.contains("github.com (same-host)"), "the tiers are shown")
        try tmux.press("Enter")
        #expect(commandResult(rc) == "RC=0 LEN=20\n", "a generated Safari-style password reached $x")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter {
            $0.hasPrefix("pwtui-demo-")
        }
        #expect(leftovers.isEmpty, "the throwaway vault is deleted: \(leftovers)")
        #expect(
            !FileManager.default.fileExists(atPath: sandbox.root + "/xdg/state/pwtui/identities"),
            "the identity store mirrors the user's vault, never the demo's")
    }

    @Test(
        "configure --use-vault names a vault in the settings (and default names none); what is no vault is refused (issue 26, 1)"
    )
    func configureNamesAVault() throws {
        let sandbox = try Sandbox.withVault(Login(["a.example"], username: "a", secret: "a-pw"))
        let environment = ["PWTUI_VAULT": ""]  // only the settings choose
        let named = try sandbox.pwtui(
            ["configure", "--use-vault", sandbox.vault], password: .none, environment: environment)
        #expect(named.exitCode == 0 && named.err.contains("later commands open \(sandbox.vault)"), "\(named)")
        let doctor = try sandbox.pwtui(["doctor"], password: .none, environment: environment)
        #expect(doctor.out.hasPrefix("vault: \(sandbox.vault) (named by vault = in "), "\(doctor)")
        #expect(try sandbox.pwtui(["get", "a.example"], environment: environment).out == "a-pw\n")

        let notAVault = sandbox.scratch + "/notes.txt"
        try "just text".write(toFile: notAVault, atomically: true, encoding: .utf8)
        let refused = try sandbox.pwtui(
            ["configure", "--use-vault", notAVault], password: .none, environment: environment)
        #expect(refused.exitCode != 0, "\(refused)")
        #expect(try String(contentsOfFile: sandbox.configFile, encoding: .utf8).contains(sandbox.vault), "unchanged")

        let reset = try sandbox.pwtui(
            ["configure", "--use-vault", "default"], password: .none, environment: environment)
        #expect(reset.exitCode == 0, "\(reset)")
        #expect(
            !(try String(contentsOfFile: sandbox.configFile, encoding: .utf8)).contains("vault ="),
            "the settings name no vault")
    }

    @Test(
        "pwtui with no vault runs the first-run wizard; the vault it creates opens with pwtui get; PWTUI_VAULT named it, so the settings do not (issue 26, 1)"
    )
    func firstRunWizard() throws {
        let (sandbox, tmux, pwtui) = try shellWithoutVault()
        let rc = sandbox.scratch + "/wizard.rc"
        try tmux.enter("'\(pwtui)'; echo \"RC=$?\" > '\(rc)'")
        try tmux.requirePane { $0.contains("first-run setup (step 1 of 8)") && $0.contains(sandbox.vault) }
        try tmux.press("Enter")
        let password = "wizard passphrase orbit velvet"
        for _ in 0 ..< 2 { try tmux.enter(password) }  // the password, then again to confirm it
        try tmux.requirePane { $0.contains("How long should unlocking take?") && $0.contains("▸ about") }
        try tmux.press("Enter")  // about 0.5 s
        try tmux.press("Enter")  // theme
        try tmux.press("Enter")  // clipboard
        try tmux.requirePane { $0.contains("keep the vault unlocked?") }
        try tmux.press("Enter")  // agent: as it is
        let summary = try tmux.requirePane { $0.contains("Enter creates the vault.") }
        #expect(summary.contains("named by PWTUI_VAULT: not written to the settings"), "\(summary)")
        try tmux.press("Enter")
        try tmux.requirePane("the list opens after setup", timeout: .seconds(20)) { $0.contains("The vault is empty") }
        try tmux.press("Escape")
        #expect(commandResult(rc) == "RC=130\n")
        for screen in tmux.captures { #expect(!screen.contains(password), "\(screen)") }

        #expect(FileManager.default.fileExists(atPath: sandbox.vault))
        let settings = try String(contentsOfFile: sandbox.configFile, encoding: .utf8)
        #expect(settings.contains("clipboard_timeout = 45"), "\(settings)")
        #expect(
            !settings.contains("vault ="), "a vault PWTUI_VAULT named is not written into the settings: \(settings)")
        let doctor = try sandbox.pwtui(["doctor"], password: .none)
        #expect(doctor.out.hasPrefix("vault: \(sandbox.vault) (named by PWTUI_VAULT)"), "\(doctor)")
        let named = try sandbox.pwtui(["doctor", "--vault", sandbox.vault], password: .none)
        #expect(named.out.hasPrefix("vault: \(sandbox.vault) (named by --vault)"), "\(named)")
        let add = try sandbox.pwtui(
            ["add", "example.com", "--username", "u"], password: .text(password), stdin: "from-wizard")
        #expect(add.exitCode == 0, "\(add)")
        #expect(try sandbox.pwtui(["get", "example.com"], password: .text(password)).out == "from-wizard\n")
        #expect(try sandbox.pwtui(["get", "example.com"]).exitCode == 77)
    }

    @Test(
        "with stdout a terminal the password goes to the clipboard (OSC 52 and wl-copy), never the screen, and is cleared"
    )
    func clipboardHandover() throws {
        let sandbox = try Sandbox.withVault()
        try sandbox.add(["github.com"], username: "alice", secret: "clip-secret-42", extra: ["--title", "GitHub"])
        // A stand-in wl-copy that records what it is given, and a one-second clipboard timeout.
        let bin = sandbox.root + "/bin", clip = sandbox.scratch + "/clipboard"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try "#!/bin/sh\nif [ \"$1\" = --clear ]; then : > '\(clip)'; else cat > '\(clip)'; fi\n"
            .write(toFile: bin + "/wl-copy", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin + "/wl-copy")
        try sandbox.writeConfig("clipboard_timeout = 1\n")

        let tmux = try TmuxSession(sandbox: sandbox)
        try tmux.tmux(["set-option", "-g", "set-clipboard", "on"])
        try tmux.requirePane { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        let pwtui = try Binaries.require(Binaries.pwtui)
        try tmux.enter(
            "export WAYLAND_DISPLAY=test PATH='\(bin)':$PATH; '\(pwtui)' pick github.com --master-password-fd 3 3<<<'\(sandbox.password)'; echo RC=$?"
        )
        try tmux.requirePane { $0.contains("Matches for github.com (1)") }
        try tmux.press("Enter")
        let done = try tmux.waitForPane {
            $0.contains("Copied the password of GitHub (alice) to the clipboard; cleared in 1 s.")
                && $0.contains("RC=0")
        }
        #expect(done != nil, "\(tmux.captures.last ?? "")")
        #expect(try tmux.tmux(["show-buffer"]).out == "clip-secret-42", "the secret reached tmux's clipboard")
        #expect(
            try tmux.tmux(["list-buffers", "-F", "#{buffer_name}"]).out.hasPrefix("pwtui-"),
            "in a buffer of pwtui's own")
        #expect(readBytes(clip) == Array("clip-secret-42".utf8), "wl-copy got it on stdin")
        for screen in tmux.captures { #expect(!screen.contains("clip-secret-42"), "\(screen)") }
        #expect(poll(timeout: .seconds(5)) { readBytes(clip) == [] }, "cleared after the timeout")
        // Issue 9, fix 11: tmux's paste buffer is cleared too, not only the other clipboards.
        let buffers = { (try? self.tmuxBufferContents(tmux)) ?? ["?"] }
        #expect(
            poll(timeout: .seconds(5)) { !buffers().contains { $0.contains("clip-secret-42") } },
            "no tmux buffer holds the secret after the timeout: \(buffers())")
    }

    /// The text of every tmux paste buffer.
    func tmuxBufferContents(_ tmux: TmuxSession) throws -> [String] {
        let names = try tmux.tmux(["list-buffers", "-F", "#{buffer_name}"]).out.split(separator: "\n").map(String.init)
        return try names.map { try tmux.tmux(["show-buffer", "-b", $0]).out }
    }

    @Test("where the clipboard cannot be cleared for sure (OSC 52 to the terminal itself), the confirmation says so")
    func clipboardWithoutTmuxSaysWhatItCannotClear() throws {
        let sandbox = try Sandbox.withVault()
        try sandbox.add(["github.com"], username: "alice", secret: "osc-secret", extra: ["--title", "GitHub"])
        try sandbox.writeConfig("clipboard_timeout = 1\n")
        let tmux = try TmuxSession.shellReady(sandbox: sandbox)
        let pwtui = try Binaries.require(Binaries.pwtui)
        // Without TMUX in its environment pwtui sees a plain terminal: OSC 52 is all it has.
        try tmux.enter(
            "env -u TMUX -u WAYLAND_DISPLAY -u DISPLAY '\(pwtui)' pick github.com --master-password-fd 3 3<<<'\(sandbox.password)'; echo RC=$?"
        )
        try tmux.requirePane { $0.contains("Matches for github.com (1)") }
        try tmux.press("Enter")
        let done = try tmux.waitForPane { $0.contains("RC=0") }
        let joined = done?.replacingOccurrences(of: "\n", with: "")  // the pane wraps long lines
        #expect(
            joined?.contains(
                "cleared in 1 s where the terminal allows (not every terminal clears its clipboard when asked).")
                == true,
            "\(tmux.captures.last ?? "")")

        // Inside tmux, but tmux cannot be run (not on PATH): its paste buffer may keep a copy; say so.
        try tmux.press("C-l")
        try tmux.enter(
            "PATH=/nonexistent '\(pwtui)' pick github.com --master-password-fd 3 3<<<'\(sandbox.password)'; echo RC2=$?"
        )
        try tmux.requirePane { $0.contains("Matches for github.com (1)") }
        try tmux.press("Enter")
        let warned = try tmux.waitForPane { $0.contains("RC2=0") }?.replacingOccurrences(of: "\n", with: "")
        #expect(
            warned?.contains("tmux could not be reached, so a copy may stay in its paste buffers") == true,
            "\(warned ?? "")")
        for screen in tmux.captures { #expect(!screen.contains("osc-secret"), "\(screen)") }
    }

    @Test(
        "pwtui configure on a vault: a new unlock cost re-encrypts it, settings are saved, the password still opens it")
    func configureExistingVault() throws {
        let sandbox = try Sandbox()
        try sandbox.initVaultAtTheFloor()  // 3 passes, 64 MiB
        try sandbox.add(["github.com"], username: "alice", secret: "still-here")
        let tmux = try TmuxSession.shellReady(sandbox: sandbox)
        let pwtui = try Binaries.require(Binaries.pwtui)
        let rc = sandbox.scratch + "/configure.rc"
        try tmux.enter(
            "'\(pwtui)' configure --master-password-fd 3 3<<<'\(sandbox.password)'; echo \"RC=$?\" > '\(rc)'")
        try tmux.requirePane { $0.contains("pwtui — configure (step 1 of 5)") && $0.contains("▸ about") }
        try #require(
            tmux.captures.last?.contains("▸ about") == true && tmux.captures.last?.contains("64 MiB (current)") == true,
            "the current cost is shown and preselected: \(tmux.captures.last ?? "")")
        try tmux.press("Down", "Enter")  // about 0.5 s or more: more than the 64 MiB it has
        try tmux.press("Enter")  // theme
        try tmux.press("C-u")
        try tmux.type("20")
        try tmux.press("Enter")  // clipboard
        try tmux.press("Enter")  // agent
        try tmux.requirePane { $0.contains("Enter applies the changes and re-encrypts the vault.") }
        try tmux.press("Enter")
        #expect(commandResult(rc) == "RC=0\n")
        let bytes = try #require(readBytes(sandbox.vault))
        let memoryKiB = bytes[46 ..< 50].enumerated().reduce(UInt32(0)) {
            $0 | UInt32($1.element) << (8 * UInt32($1.offset))
        }
        #expect(memoryKiB > 64 * 1024, "re-encrypted with the new cost (\(memoryKiB) KiB)")
        let settings = try String(contentsOfFile: sandbox.configFile, encoding: .utf8)
        #expect(settings.contains("clipboard_timeout = 20"), "\(settings)")
        #expect(try sandbox.pwtui(["get", "github.com"]).out == "still-here\n")
    }

    @Test("pwtui configure stepped through without changes leaves the vault byte-identical (issue 9, fix 10)")
    func configureWithoutChangesKeepsTheVault() throws {
        let sandbox = try Sandbox()
        try sandbox.initVaultAtTheFloor()  // what the screen shows as the current cost
        try sandbox.add(["github.com"], username: "alice", secret: "untouched")
        let before = try #require(readBytes(sandbox.vault))
        let tmux = try TmuxSession.shellReady(sandbox: sandbox)
        let pwtui = try Binaries.require(Binaries.pwtui)
        let rc = sandbox.scratch + "/configure-same.rc"
        try tmux.enter(
            "'\(pwtui)' configure --master-password-fd 3 3<<<'\(sandbox.password)'; echo \"RC=$?\" > '\(rc)'")
        try tmux.requirePane { $0.contains("▸ about") && $0.contains("64 MiB (current)") }
        for _ in 0 ..< 4 { try tmux.press("Enter") }  // unlock cost, theme, clipboard, agent: as they are
        let summary = try tmux.requirePane { $0.contains("(the vault is not re-encrypted)") }
        #expect(summary.contains("3 passes, 64 MiB (unchanged)"), "\(summary)")
        try tmux.press("Enter")
        #expect(commandResult(rc) == "RC=0\n")
        #expect(readBytes(sandbox.vault) == before, "not re-encrypted: same bytes")
        #expect(!(tmux.captures.last ?? "").contains("Re-encrypting"))
    }

    @Test("SIGTERM during the picker restores the terminal and exits 143; a closed terminal leaves no picker behind")
    func terminationAndHangup() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s"))
        let pwtui = try Binaries.require(Binaries.pwtui)
        // The sandbox's vault path in the command line tells this test's picker from any other.
        let command =
            "'\(pwtui)' pick github.com --vault '\(sandbox.vault)' --master-password-fd 3 3<<<'\(sandbox.password)'"
        let rc = sandbox.scratch + "/term.rc", modes = sandbox.scratch + "/stty"
        var tmux = try TmuxSession.shellReady(sandbox: sandbox)
        try tmux.enter("\(command); echo \"RC=$?\" > '\(rc)'; stty -a > '\(modes)'")
        try tmux.requirePane { $0.contains("Matches for github.com (1)") }
        _ = try sandbox.run("/usr/bin/env", ["pkill", "-TERM", "-f", "pick github.com --vault \(sandbox.vault)"])
        #expect(commandResult(rc) == "RC=143\n")
        #expect(
            poll(timeout: .seconds(5)) {
                readBytes(modes).map { String(decoding: $0, as: UTF8.self).contains(" echo ") } ?? false
            },
            "echo is back on")

        tmux = try TmuxSession.shellReady(sandbox: sandbox)
        try tmux.enter(command)
        try tmux.requirePane { $0.contains("Matches for github.com (1)") }
        let running = try sandbox.run("/usr/bin/env", ["pgrep", "-f", "pick github[.]com --vault \(sandbox.vault)"])
        try #require(running.exitCode == 0, "the picker is found while it runs, so the check below can fail")
        try tmux.tmux(["kill-session", "-t", tmux.name])
        // "github[.]com": the pattern must not match the command line of pgrep's own wrapper.
        let gone = poll(timeout: .seconds(5)) {
            (try? sandbox.run("/usr/bin/env", ["pgrep", "-f", "pick github[.]com --vault \(sandbox.vault)"]).exitCode)
                == 1
        }
        #expect(gone, "the picker exits when its terminal goes away")
    }

    @Test("get --no-interaction on a terminal exits 75 at once and never prompts")
    func noInteraction() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s"))
        let tmux = try TmuxSession.shellReady(sandbox: sandbox)
        let pwtui = try Binaries.require(Binaries.pwtui)
        let rc = sandbox.scratch + "/nointeraction.rc"
        try tmux.enter("'\(pwtui)' get github.com --no-interaction; echo \"RC=$?\" > '\(rc)'")
        #expect(commandResult(rc) == "RC=75\n")
        for screen in tmux.captures { #expect(!screen.contains("Master password:"), "\(screen)") }
        _ = try tmux.capture()
        #expect(tmux.captures.last?.contains("--no-interaction forbids asking") == true)
    }

    @Test(
        "git-credential get with no host-level match opens the picker on the terminal: Esc answers quit=1, a choice answers it"
    )
    func gitHelperPicker() throws {
        let sandbox = try Sandbox.withVault()
        try sandbox.add(
            ["login.example.com"], username: "carol", secret: "same-site-secret", extra: ["--title", "Example login"])
        let tmux = try TmuxSession.shellReady(sandbox: sandbox)
        let pwtui = try Binaries.require(Binaries.pwtui)
        let out = sandbox.scratch + "/git.out"
        let command =
            "printf 'protocol=https\\nhost=www.example.com\\n\\n' | '\(pwtui)' git-credential get > '\(out)'; echo \"RC=$?\" >> '\(out)'"
        try tmux.enter(command)
        try tmux.requirePane("listed from the identity store") {
            $0.contains("Matches for https://www.example.com") && $0.contains("Example login")
        }
        try tmux.press("Escape")
        #expect(commandResult(out) == "quit=1\nRC=0\n", "a cancel tells git to stop asking")

        try FileManager.default.removeItem(atPath: out)
        try tmux.enter(command)
        try tmux.requirePane { $0.contains("Matches for https://www.example.com") }
        try tmux.press("Enter")
        try unlock(tmux, sandbox, for: "Example login (carol)")
        #expect(
            commandResult(out) == "username=carol\npassword=same-site-secret\nRC=0\n",
            "a person chose it: the same-site credential is given")
    }
}

@Suite("the picker's choices, as a person makes them", .serialized)
struct PickerChoiceTmuxTests {
    /// A stand-in wl-copy recording what it is given, so the clipboard can be read back.
    static func recordingClipboard(_ sandbox: Sandbox) throws -> (bin: String, clip: String) {
        let bin = sandbox.root + "/bin", clip = sandbox.scratch + "/clipboard"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try "#!/bin/sh\nif [ \"$1\" = --clear ]; then : > '\(clip)'; else cat > '\(clip)'; fi\n"
            .write(toFile: bin + "/wl-copy", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin + "/wl-copy")
        return (bin, clip)
    }

    @Test("^T on a terminal hands over the one-time code, not the password, and says it was the code (issue 26, 3)")
    func controlTCopiesTheCode() throws {
        let sandbox = try Sandbox.withVault()
        let add = try sandbox.pwtui(
            ["add", "aws.amazon.com", "--username", "root", "--title", "AWS console", "--totp"],
            stdin: "aws-password-7\n\(TotpCommandTests.uri)\n")
        try #require(add.exitCode == 0, "\(add)")
        let (bin, clip) = try Self.recordingClipboard(sandbox)
        let tmux = try TmuxSession.shellReady(sandbox: sandbox)
        let pwtui = try Binaries.require(Binaries.pwtui)
        try tmux.enter(
            "export WAYLAND_DISPLAY=test PATH='\(bin)':$PATH; '\(pwtui)' pick aws.amazon.com --master-password-fd 3 3<<<'\(sandbox.password)'; echo RC=$?"
        )
        try tmux.requirePane { $0.contains("AWS console") }
        try tmux.press("C-t")
        let done = try tmux.waitForPane { $0.range(of: "RC=[0-9]", options: .regularExpression) != nil }
        #expect(
            done?.contains("Copied the one-time code of AWS console (root) to the clipboard") == true, "\(done ?? "")")
        let copied = String(decoding: readBytes(clip) ?? [], as: UTF8.self)
        #expect(
            copied.count == 8 && copied.allSatisfy(\.isNumber),
            "the 8-digit code, not the password: \(copied.debugDescription)")
    }

    @Test("a choice in the picker counts as a use: the next get prefers the account chosen (issue 26, 7)")
    func choiceIsUse() throws {
        let sandbox = try Sandbox.withVault()
        try sandbox.add(["github.com"], username: "alice", secret: "alice-pw", extra: ["--title", "A"])
        try sandbox.add(["github.com"], username: "bob", secret: "bob-pw", extra: ["--title", "B"])
        #expect(try sandbox.pwtui(["get", "github.com"]).out == "alice-pw\n", "by title, before any use")
        let tmux = try TmuxSession.shellReady(sandbox: sandbox)
        let pwtui = try Binaries.require(Binaries.pwtui)
        let out = sandbox.scratch + "/picked"
        try tmux.enter(
            "'\(pwtui)' pick github.com --master-password-fd 3 3<<<'\(sandbox.password)' > '\(out)'; echo RC=$?")
        try tmux.requirePane { $0.contains("Matches for github.com (2)") }
        try tmux.press("Down")
        try tmux.press("Enter")
        #expect(try tmux.waitForPane { $0.contains("RC=0") } != nil, "\(tmux.captures.last ?? "")")
        #expect(readBytes(out) == Array("bob-pw".utf8) || readBytes(out) == Array("bob-pw\n".utf8))
        let get = try sandbox.pwtui(["get", "github.com"])
        #expect(get.out == "bob-pw\n", "bob was chosen last: \(get)")
    }
}
