import Testing
@testable import ServiceMatching

/// App links (format 1.3): services of their own kind, as Chrome, Bitwarden and iOS managers
/// write them, matched only by a request for the same app.
@Suite("App links")
struct AppLinkTests {
    let context = RankingContext(suffixes: NoPublicSuffixList())

    @Test(
        "Chrome's android://HASH@package/, Bitwarden's androidapp://package and iosapp://id are app links, kept as written",
        arguments: [
            ("android://dGVzdGhhc2g=@com.example.app/", "com.example.app", "android"),
            ("androidapp://com.Example.app", "com.example.app", "android"),
            ("iosapp://com.example.ios", "com.example.ios", "ios"),
        ])
    func parsed(_ text: String, _ host: String, _ platform: String) throws {
        let link = try ServiceIdentifier(text)
        #expect(link.form == .app && link.host == host && link.appPlatform == platform)
        #expect(link.text == text)
        #expect(try ServiceIdentifier(stored: text) == link)
    }

    @Test(
        "an app link matches the same app only, exactly; never a web host of the same name, nor another platform's app")
    func matching() throws {
        let chrome = try ServiceIdentifier("android://dGVzdGhhc2g=@com.example.app/")
        #expect(
            ServiceMatch.tier(
                stored: chrome, request: try ServiceIdentifier("androidapp://com.example.app"), context: context)
                == .exactURL)
        #expect(
            ServiceMatch.tier(stored: chrome, request: try ServiceIdentifier("com.example.app"), context: context)
                == nil)
        #expect(
            ServiceMatch.tier(stored: try ServiceIdentifier("example.app"), request: chrome, context: context) == nil)
        #expect(
            ServiceMatch.tier(
                stored: chrome, request: try ServiceIdentifier("iosapp://com.example.app"), context: context) == nil)
        #expect(try ServiceIdentifier("androidapp://com.example.app") != ServiceIdentifier("iosapp://com.example.app"))
    }

    @Test(
        "what is not a package is refused",
        arguments: ["androidapp://", "android://hash@/", "androidapp://com.ex ample", "iosapp://a/b"])
    func refused(_ text: String) {
        #expect(throws: InvalidServiceIdentifier.self) { try ServiceIdentifier(text) }
    }
}
