/// A location as an export wrote it, made safe to show or to keep: a URL's userinfo
/// (`https://alice:hunter2@host/`) is where people paste passwords, so no message repeats it and
/// the notes never keep it.
///
/// Chrome's Android app links are the exception: in `android://HASH@com.example.app/` the part
/// before '@' is the app's signing-certificate hash, public and what tells two apps apart.
enum LocationText {
    /// For messages: the userinfo replaced by '…'.
    static func shown(_ location: String) -> String {
        replacingUserinfo(of: location, with: "…@")
    }

    /// For the notes: the userinfo left out.
    static func kept(_ location: String) -> String {
        replacingUserinfo(of: location, with: "")
    }

    /// Whether `location` has a userinfo a message or the notes must not repeat.
    static func hasUserinfo(_ location: String) -> Bool {
        userinfo(in: location) != nil
    }

    private static func replacingUserinfo(of location: String, with replacement: String) -> String {
        guard let range = userinfo(in: location) else { return location }
        return String(location[..<range.lowerBound]) + replacement + String(location[range.upperBound...])
    }

    /// The userinfo with its '@', between the scheme's "://" and the host, if any.
    private static func userinfo(in location: String) -> Range<String.Index>? {
        guard let separator = schemeSeparator(in: location) else { return nil }
        let scheme = location[..<separator.lowerBound].lowercased()
        guard scheme != "android" else { return nil }
        let authorityEnd =
            location[separator.upperBound...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? location.endIndex
        let authority = location[separator.upperBound ..< authorityEnd]
        guard let at = authority.lastIndex(of: "@") else { return nil }
        return separator.upperBound ..< location.index(after: at)
    }

    /// Where the first "://" is.
    private static func schemeSeparator(in location: String) -> Range<String.Index>? {
        var index = location.startIndex
        while index < location.endIndex {
            if location[index...].hasPrefix("://") { return index ..< location.index(index, offsetBy: 3) }
            index = location.index(after: index)
        }
        return nil
    }
}
