import ServiceMatching

/// The fields of a credential that a reconciliation merges one by one (see `VaultReconcile`):
/// the one place that lists them. The secret and its history are merged apart (they live in an
/// arena, and a losing password is kept, not dropped); the id, created and modified times are
/// the credential's identity and stamp.
///
/// A field added to `Credential` gets a line in `all`: how to tell two values apart, order them
/// (only to break a tie between changes stamped the same millisecond, so any total order that
/// is the same on every machine will do), and copy one in. Each value comes with the arena of its
/// copy, so a field held in the arena (a TOTP secret, say) compares its bytes and copies them into
/// the result's arena, as the merge does for the password.
struct CredentialFieldRule: Sendable {
    typealias Side = CredentialCopy
    let name: String
    let equal: @Sendable (Side, Side) -> Bool
    /// Negative, zero or positive, like memcmp.
    let compare: @Sendable (Side, Side) -> Int
    /// Sets the field of the first credential (whose secrets are in the arena given) to the side's.
    let take: @Sendable (inout Credential, Side, SecretArena) throws -> Void

    static let all: [CredentialFieldRule] = [
        value("title", \.title),
        value("username", \.username),
        value("notes", \.notes),
        value("rank", \.rank),
        CredentialFieldRule(
            name: "imported secret set",
            equal: { $0.credential.importedSecretSet == $1.credential.importedSecretSet },
            compare: {
                order(
                    $0.credential.importedSecretSet?.millisecondsSince1970 ?? .min,
                    $1.credential.importedSecretSet?.millisecondsSince1970 ?? .min)
            },
            take: { credential, side, _ in credential.importedSecretSet = side.credential.importedSecretSet }),
        CredentialFieldRule(
            name: "programs",
            equal: { $0.credential.allowedPrograms == $1.credential.allowedPrograms },
            compare: {
                order(
                    $0.credential.allowedPrograms.joined(separator: "\n"),
                    $1.credential.allowedPrograms.joined(separator: "\n"))
            },
            take: { credential, side, _ in credential.allowedPrograms = side.credential.allowedPrograms }),
        CredentialFieldRule(
            name: "services",
            equal: { $0.credential.services.map(\.text) == $1.credential.services.map(\.text) },
            compare: {
                order(
                    $0.credential.services.map(\.text).joined(separator: "\n"),
                    $1.credential.services.map(\.text).joined(separator: "\n"))
            },
            take: { credential, side, _ in credential.services = side.credential.services }),
        CredentialFieldRule(
            name: "totp",
            equal: { oneTimeOrder($0, $1) == 0 },
            compare: { oneTimeOrder($0, $1) },
            take: { credential, side, arena in
                credential.totp = try side.credential.totp.map { key in
                    OneTimeKey(
                        parameters: key.parameters, key: try side.arena.withBytes(of: key.key) { try arena.store($0) })
                }
            }),
        // Named fields as one value: the later side's list, its secrets and their histories
        // copied. (Per name would be finer; one list keeps the merge a function of the states.)
        CredentialFieldRule(
            name: "fields",
            equal: { namedFieldsOrder($0, $1) == 0 },
            compare: { namedFieldsOrder($0, $1) },
            take: { credential, side, arena in
                credential.fields = try NamedField.copied(side.credential.fields, from: side.arena, into: arena)
            }),
    ]

    /// Named fields: by count, then field by field (name, kind, value bytes, history).
    private static func namedFieldsOrder(_ a: Side, _ b: Side) -> Int {
        let (x, y) = (a.credential.fields, b.credential.fields)
        if x.count != y.count { return x.count < y.count ? -1 : 1 }
        for (f, g) in zip(x, y) {
            if f.name != g.name { return f.name < g.name ? -1 : 1 }
            if f.isSecret != g.isSecret { return f.isSecret ? 1 : -1 }
            switch (f.value, g.value) {
            case let (.text(p), .text(q)) where p != q: return p < q ? -1 : 1
            case let (.secret(p), .secret(q)):
                let order = bytesOrder(p, a.arena, q, b.arena)
                if order != 0 { return order }
            default: break
            }
            if f.history.count != g.history.count { return f.history.count < g.history.count ? -1 : 1 }
            for (p, q) in zip(f.history, g.history) {
                if p.replaced != q.replaced { return p.replaced < q.replaced ? -1 : 1 }
                let order = bytesOrder(p.secret, a.arena, q.secret, b.arena)
                if order != 0 { return order }
            }
        }
        return 0
    }

    /// Two secrets' bytes in lexicographic order: -1, 0 or 1.
    private static func bytesOrder(
        _ x: SecretReference, _ arenaX: SecretArena, _ y: SecretReference, _ arenaY: SecretArena
    ) -> Int {
        arenaX.withBytes(of: x) { mine in
            arenaY.withBytes(of: y) { theirs in
                mine.lexicographicallyPrecedes(theirs) ? -1 : theirs.lexicographicallyPrecedes(mine) ? 1 : 0
            }
        }
    }

    /// Authenticator keys: none first, then by parameters, then by the key's bytes.
    private static func oneTimeOrder(_ a: Side, _ b: Side) -> Int {
        switch (a.credential.totp, b.credential.totp) {
        case (nil, nil): return 0
        case (nil, _): return -1
        case (_, nil): return 1
        case let (x?, y?):
            let parameters = [
                Int(x.parameters.algorithm.rawValue) - Int(y.parameters.algorithm.rawValue),
                x.parameters.digits - y.parameters.digits, x.parameters.period - y.parameters.period,
            ]
            if let first = parameters.first(where: { $0 != 0 }) { return first < 0 ? -1 : 1 }
            return a.arena.withBytes(of: x.key) { mine in
                b.arena.withBytes(of: y.key) { theirs in
                    mine.lexicographicallyPrecedes(theirs) ? -1 : theirs.lexicographicallyPrecedes(mine) ? 1 : 0
                }
            }
        }
    }

    /// A plain value: compared with `==` and `<`, copied as is.
    static func value<Value: Comparable & Sendable>(
        _ name: String, _ path: WritableKeyPath<Credential, Value> & Sendable
    ) -> CredentialFieldRule {
        CredentialFieldRule(
            name: name,
            equal: { $0.credential[keyPath: path] == $1.credential[keyPath: path] },
            compare: { order($0.credential[keyPath: path], $1.credential[keyPath: path]) },
            take: { credential, side, _ in credential[keyPath: path] = side.credential[keyPath: path] })
    }

    private static func order<Value: Comparable>(_ a: Value, _ b: Value) -> Int {
        a < b ? -1 : a == b ? 0 : 1
    }
}
