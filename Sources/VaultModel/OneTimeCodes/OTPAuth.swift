import FoundationEssentials
import UnicodeText
import VaultCrypto

// Reading an authenticator key as sites hand it out: an `otpauth://totp/` URI (Google's Key Uri
// Format, what a QR code holds: `otpauth://totp/Example:alice?secret=JBSW...&issuer=Example&
// algorithm=SHA256&digits=8&period=60`) or the bare base32 secret shown beside the QR code
// ("jbsw y3dp ehpk 3pxp", lower case, spaced, unpadded).
//
// The text is a secret: it is read from protected memory, the key is decoded into protected
// memory, and nothing of it reaches a String or an error message; only the other parameters
// (algorithm, digits, period), which are not secret, become Strings. `otpauth://hotp/`
// (counter-based codes) is refused: a counter must be saved back after every use, and sites
// that use HOTP are rare enough that a wrong counter is the likelier outcome.

public enum OTPAuth {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static func parse(_ text: UnsafeRawBufferPointer) throws(Failure) -> ParsedOneTimeKey {
        var start = text.startIndex, end = text.endIndex
        while start < end, isSpace(text[start]) { start += 1 }
        while end > start, isSpace(text[end - 1]) { end -= 1 }
        let trimmed = UnsafeRawBufferPointer(rebasing: text[start ..< end])
        guard !trimmed.isEmpty else { throw Failure(description: "the authenticator key is empty") }
        let scheme = Array("otpauth://".utf8)
        guard trimmed.count >= scheme.count, zip(trimmed, scheme).allSatisfy({ lower($0) == $1 }) else {
            return ParsedOneTimeKey(parameters: .standard, key: try base32(trimmed, what: "the key"))
        }
        let rest = UnsafeRawBufferPointer(rebasing: trimmed[(trimmed.startIndex + scheme.count)...])
        let type = String(
            decoding: rest.prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") }.map(lower), as: UTF8.self)
        guard type == "totp" else {
            throw Failure(
                description: type == "hotp"
                    ? "otpauth://hotp (counter-based codes) is not supported; only otpauth://totp (time-based)"
                    : "an otpauth URI is otpauth://totp/...; this one is otpauth://\(type.prefix(10))/...")
        }
        guard let question = rest.firstIndex(of: UInt8(ascii: "?")) else {
            throw Failure(description: "the otpauth URI has no parameters, so no secret=")
        }
        var parameters = OneTimeParameters.standard
        var secret: UnsafeRawBufferPointer?
        for pair in UnsafeRawBufferPointer(rebasing: rest[(question + 1)...]).split(separator: UInt8(ascii: "&")) {
            let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
            let name = String(decoding: pair[..<equals].map(lower), as: UTF8.self)
            let value = UnsafeRawBufferPointer(rebasing: pair[(equals < pair.endIndex ? equals + 1 : equals)...])
            switch name {
            case "secret":
                guard secret == nil else { throw Failure(description: "the otpauth URI has secret= twice") }
                secret = value
            case "algorithm":
                switch String(decoding: value.map(lower), as: UTF8.self) {
                case "sha1": parameters.algorithm = .sha1
                case "sha256": parameters.algorithm = .sha256
                case "sha512": parameters.algorithm = .sha512
                case let other:
                    throw Failure(description: "algorithm=\(other.prefix(10)) is not SHA1, SHA256 or SHA512")
                }
            case "digits":
                guard let digits = Int(String(decoding: value, as: UTF8.self)), OneTimeCode.digitRange.contains(digits)
                else {
                    throw Failure(description: "digits= must be 6, 7 or 8")
                }
                parameters.digits = digits
            case "period":
                guard let period = Int(String(decoding: value, as: UTF8.self)),
                    OneTimeParameters.periodRange.contains(period)
                else {
                    throw Failure(description: "period= must be a number of seconds from 1 to 86400")
                }
                parameters.period = period
            default:
                continue  // issuer, image, and whatever else apps add: not needed to make codes
            }
        }
        guard let secret else { throw Failure(description: "the otpauth URI has no secret=") }
        return ParsedOneTimeKey(parameters: parameters, key: try base32(secret, what: "secret="))
    }

    /// RFC 4648 base32, as apps show it: any case, spaces and hyphens between groups, padding
    /// optional (also percent-encoded, `%3D`, as some URIs carry it).
    static func base32(_ text: UnsafeRawBufferPointer, what: String) throws(Failure) -> SecureBytes {
        do {
            var key = try SecureBytes(capacity: text.count * 5 / 8 + 1)
            var buffer: UInt32 = 0, bits = 0, padding = false
            var index = text.startIndex
            while index < text.endIndex {
                var byte = text[index]
                index += 1
                if byte == UInt8(ascii: "%"), index + 1 < text.endIndex, text[index] == UInt8(ascii: "3"),
                    lower(text[index + 1]) == UInt8(ascii: "d")
                {
                    index += 2
                    byte = UInt8(ascii: "=")
                }
                if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "-") { continue }
                if byte == UInt8(ascii: "=") { padding = true; continue }
                let value: UInt32
                switch lower(byte) {
                case UInt8(ascii: "a") ... UInt8(ascii: "z"): value = UInt32(lower(byte) - UInt8(ascii: "a"))
                case UInt8(ascii: "2") ... UInt8(ascii: "7"): value = UInt32(byte - UInt8(ascii: "2")) + 26
                default:
                    throw Failure(
                        description: "\(what) is not base32: character \(index - text.startIndex) is not A–Z or 2–7")
                }
                guard !padding else { throw Failure(description: "\(what) is not base32: text after its '=' padding") }
                buffer = buffer << 5 | value
                bits += 5
                if bits >= 8 {
                    bits -= 8
                    try key.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
                    buffer &= (1 << UInt32(bits)) - 1
                }
            }
            buffer = 0
            guard !key.isEmpty else { throw Failure(description: "\(what) holds no key") }
            return key
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "protected memory for the key: \(error)")
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
    private static func lower(_ byte: UInt8) -> UInt8 { (0x41 ... 0x5A).contains(byte) ? byte | 0x20 : byte }
}

extension OTPAuth {
    /// The `otpauth://totp/` URI of a key, as `parse` reads it back: what an export writes so that
    /// any authenticator or manager takes the key. Built in protected memory. `label` names the
    /// account in apps that show it (percent-encoded here).
    public static func uri(key: UnsafeRawBufferPointer, parameters: OneTimeParameters, label: String) throws
        -> SecureBytes
    {
        var uri = try SecureBytes(capacity: 64 + key.count * 2 + label.utf8.count * 3)
        let encodedLabel = label.percentEncodingAllButAlphanumerics
        try uri.append(utf8: "otpauth://totp/\(encodedLabel)?secret=")
        // RFC 4648 base32 without padding: five bits at a time, most significant first.
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)
        var buffer: UInt32 = 0
        var bits = 0
        for byte in key {
            buffer = buffer << 8 | UInt32(byte)
            bits += 8
            while bits >= 5 {
                try uri.append(alphabet[Int(buffer >> UInt32(bits - 5) & 31)])
                bits -= 5
            }
        }
        if bits > 0 { try uri.append(alphabet[Int(buffer << UInt32(5 - bits) & 31)]) }
        buffer = 0
        let algorithm = ["SHA1", "SHA256", "SHA512"][Int(parameters.algorithm.rawValue) - 1]
        try uri.append(utf8: "&algorithm=\(algorithm)&digits=\(parameters.digits)&period=\(parameters.period)")
        return uri
    }

}

extension OTPAuth.Failure: ExitStatusReporting {
    /// An authenticator key or otpauth URI the user gave that is not one.
    public var exitStatus: ExitStatus { .usage }
}
