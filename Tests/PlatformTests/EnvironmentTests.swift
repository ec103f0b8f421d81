import Platform
import Testing

@Suite struct EnvironmentTests {
    @Test func anEmptyVariableCountsAsUnset() {
        let environment = Environment(["NO_COLOR": "", "TERM": "xterm"])
        #expect(environment["NO_COLOR"] == nil)
        #expect(!environment.isSet("NO_COLOR"))
        #expect(environment["TERM"] == "xterm")
        #expect(environment.isSet("TERM"))
        #expect(!environment.isSet("MISSING"))
    }

    @Test func noColorIsSetByAnyNonEmptyValue() {
        // no-color.org: "present and not an empty string", whatever the value, even "0".
        for value in ["1", "0", "false", " "] {
            #expect(Environment(["NO_COLOR": value]).isSet("NO_COLOR"))
        }
    }

    @Test func settingReturnsACopy() {
        let original = Environment(["A": "1"])
        let changed = original.setting("A", to: nil).setting("B", to: "2")
        #expect(original["A"] == "1")
        #expect(changed["A"] == nil)
        #expect(changed["B"] == "2")
    }
}

@Suite struct PathsTests {
    @Test func xdgVariablesArePreferred() {
        let paths = Paths(
            environment: Environment([
                "HOME": "/home/u", "XDG_CONFIG_HOME": "/c", "XDG_DATA_HOME": "/d",
                "XDG_STATE_HOME": "/s", "XDG_RUNTIME_DIR": "/run/user/7",
            ]), userID: 7)
        #expect(paths.settingsFile == "/c/pwtui/config.toml")
        #expect(paths.themesDirectory == "/c/pwtui/themes")
        #expect(paths.defaultVaultFile == "/d/pwtui/vault.pwtui")
        #expect(paths.usageFile == "/s/pwtui/usage")
        #expect(paths.identityStoreDirectory == "/s/pwtui/identities")
        #expect(paths.agentSocket == "/run/user/7/pwtui/agent.sock")
    }

    @Test func missingOrEmptyXdgVariablesFallBackUnderHome() {
        let fallbacks = Paths(environment: Environment(["HOME": "/home/u"]), userID: 1000)
        let emptied = Paths(
            environment: Environment([
                "HOME": "/home/u", "XDG_CONFIG_HOME": "", "XDG_DATA_HOME": "",
                "XDG_STATE_HOME": "", "XDG_RUNTIME_DIR": "",
            ]), userID: 1000)
        #expect(fallbacks == emptied)
        #expect(fallbacks.configDirectory == "/home/u/.config/pwtui")
        #expect(fallbacks.dataDirectory == "/home/u/.local/share/pwtui")
        #expect(fallbacks.stateDirectory == "/home/u/.local/state/pwtui")
        #expect(fallbacks.runtimeDirectory == "/tmp/pwtui-1000")
    }

    @Test func withoutHomeThePathsAreRelativeToTheCurrentDirectory() {
        let paths = Paths(environment: Environment(["HOME": ""]), userID: 5)
        #expect(paths.configDirectory == "./.config/pwtui")
    }

    @Test func theProcessUserNamesTheRuntimeFallback() {
        let paths = Paths(environment: Environment([:]))
        #expect(paths.runtimeDirectory == "/tmp/pwtui-\(CurrentProcess.userID)")
    }

    @Test func aTypedTildeStandsForHomeOnlyAtTheStart() {
        #expect(Paths.expandingTilde(in: "~", home: "/home/u") == "/home/u")
        #expect(Paths.expandingTilde(in: "~/vault.pwtui", home: "/home/u") == "/home/u/vault.pwtui")
        #expect(Paths.expandingTilde(in: "~other/v", home: "/home/u") == "~other/v")  // no user database
        #expect(Paths.expandingTilde(in: "/srv/~/v", home: "/home/u") == "/srv/~/v")
        #expect(Paths.expandingTilde(in: "~/v", home: "") == "~/v")
    }
}
