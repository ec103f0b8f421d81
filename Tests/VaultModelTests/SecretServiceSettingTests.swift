import Foundation
import PwtuiTestSupport
import Testing
@testable import VaultModel

/// `secret_service` in the settings file (issue 40): the agent serves the Secret Service.
@Suite("The secret_service setting")
struct SecretServiceSettingTests {
    let temporary = TemporaryDirectory()

    func load(_ text: String) throws -> Settings {
        let path = try temporary.freshPath("config.toml")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        return try Settings.load(from: path)
    }

    @Test("off unless set; true and false read; anything else refused with the line; written only when on")
    func readAndWritten() throws {
        #expect(try load("").secretService == false)
        #expect(try load("secret_service = true\n").secretService)
        #expect(try load("secret_service = false\n").secretService == false)
        #expect(throws: Settings.LoadError.self) { try load("secret_service = \"yes\"\n") }
        var settings = Settings()
        #expect(!settings.text.contains("secret_service"))
        settings.secretService = true
        #expect(settings.text.contains("secret_service = true\n"))
        #expect(try load(settings.text) == settings)
    }
}
