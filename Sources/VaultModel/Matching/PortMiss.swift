import ServiceMatching

/// A request that matched nothing only because of the port (issue 38): `https://nas.local` when
/// the credential is saved for `https://nas.local:5001`. "No credential" alone sends the person
/// looking for a typo; the message names the saved services whose host is the one asked for, so
/// the port that would match is in front of them. Computed only after a miss: one pass over the
/// credentials, nothing on the path of an answer.
public enum PortMiss {
    /// At most this many saved services are named; more would hide the message's point.
    static let shownServices = 3

    /// "no credential matches REQUESTS", and when saved services miss them only by port, which.
    public static func noMatchMessage(for requests: [ServiceIdentifier], among credentials: [Credential]) -> String {
        "no credential matches \(requests.map(\.text).joined(separator: " "))"
            + suffix(for: requests, among: credentials)
    }

    /// The part that names the saved services (with its leading "; "), or "" when there are none.
    public static func suffix(for requests: [ServiceIdentifier], among credentials: [Credential]) -> String {
        var saved: [String] = []
        for credential in credentials {
            for stored in credential.services
            where !saved.contains(stored.text)
                && requests.contains(where: { ServiceMatch.missesOnlyByPort(stored: stored, request: $0) })
            {
                saved.append(stored.text)
            }
        }
        guard !saved.isEmpty else { return "" }
        let shown = saved.prefix(shownServices).joined(separator: ", ") + (saved.count > shownServices ? ", …" : "")
        return "; saved for that host on another port: \(shown) (ask for that port, or for the bare host)"
    }
}
