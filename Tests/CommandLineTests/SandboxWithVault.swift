import Testing

/// One credential for `Sandbox.withVault`: what `pwtui add SERVICES --username USER` stores.
struct Login {
    let services: [String]
    let username: String
    let secret: String

    init(_ services: [String], username: String, secret: String) {
        self.services = services
        self.username = username
        self.secret = secret
    }
}

extension Sandbox {
    /// The opening of most tests: a sandbox whose vault exists (`initVault`) and holds `logins`,
    /// added in order through the binary (`add`).
    static func withVault(_ logins: Login..., sourceLocation: SourceLocation = #_sourceLocation) throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.initVault(sourceLocation: sourceLocation)
        for login in logins {
            try sandbox.add(
                login.services, username: login.username, secret: login.secret, sourceLocation: sourceLocation)
        }
        return sandbox
    }
}
