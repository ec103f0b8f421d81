import FoundationEssentials
import UnicodeText

// Punycode (RFC 3492) and the ToASCII step of IDNA for host names: `bücher.example` and
// `xn--bcher-kva.example` are one host, and a credential saved under either form must match a
// request in the other. Hosts are compared in their ASCII form; decoding serves the picker's typed
// filter only, so that `mün` finds `xn--mnchen-3ya.de` as a reader sees it.
//
// The algorithm writes the label's ASCII characters first, then encodes each non-ASCII code
// point, smallest first, as a "delta": how many positions (times code point steps) the decoder
// must advance to insert it. Deltas are written as variable-length base-36 integers whose digit
// thresholds adapt ("bias") to the sizes seen so far, which keeps typical labels short.
enum Punycode {
    private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700
    private static let initialBias = 72, initialN = 128

    /// The Punycode form of one label (without the `xn--` prefix), or nil on overflow.
    static func encode(_ label: String) -> String? {
        let input = label.unicodeScalars.map { Int($0.value) }
        var output = input.filter { $0 < 0x80 }.map { Character(UnicodeScalar(UInt8($0))) }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append("-") }
        var n = initialN, delta = 0, bias = initialBias
        while handled < input.count {
            guard let next = input.filter({ $0 >= n }).min() else { return nil }
            let (product, overflow) = (next - n).multipliedReportingOverflow(by: handled + 1)
            guard !overflow else { return nil }
            delta += product
            n = next
            for codePoint in input {
                if codePoint < n { delta += 1 }
                guard codePoint == n else { continue }
                var q = delta
                var k = base
                while true {
                    let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                    if q < t { break }
                    output.append(digit(t + (q - t) % (base - t)))
                    q = (q - t) / (base - t)
                    k += base
                }
                output.append(digit(q))
                bias = adapt(delta, points: handled + 1, first: handled == basicCount)
                delta = 0
                handled += 1
            }
            delta += 1
            n += 1
        }
        return String(output)
    }

    /// The label a Punycode form (without `xn--`) stands for, or nil for one that is not valid
    /// Punycode: the encoder run backwards (RFC 3492, section 6.2), each delta read and the code
    /// point inserted where it says.
    static func decode(_ encoded: String) -> String? {
        let input = Array(encoded.utf8)
        guard input.count <= 63 else { return nil }
        let split = input.lastIndex(of: UInt8(ascii: "-")) ?? 0
        var output: [Int] = input[..<split].map(Int.init)
        guard output.allSatisfy({ $0 < 0x80 }) else { return nil }
        var n = initialN, i = 0, bias = initialBias
        var position = split > 0 ? split + 1 : 0
        while position < input.count {
            let oldI = i
            var w = 1
            var k = base
            while true {
                guard position < input.count, let value = digitValue(input[position]) else { return nil }
                position += 1
                let (step, overflow) = value.multipliedReportingOverflow(by: w)
                guard !overflow, i <= Int(UInt32.max) - step else { return nil }
                i += step
                let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                if value < t { break }
                w *= base - t
                k += base
            }
            bias = adapt(i - oldI, points: output.count + 1, first: oldI == 0)
            n += i / (output.count + 1)
            i %= output.count + 1
            guard n <= 0x10FFFF, !(0xD800 ... 0xDFFF).contains(n) else { return nil }
            output.insert(n, at: i)
            i += 1
        }
        var scalars = String.UnicodeScalarView()
        for codePoint in output {
            guard let scalar = Unicode.Scalar(codePoint) else { return nil }
            scalars.append(scalar)
        }
        return String(scalars)
    }

    /// A host as a reader writes it: each `xn--` label decoded (one that does not decode kept).
    static func toUnicode(_ host: String) -> String {
        guard host.contains("xn--") else { return host }
        return host.split(separator: ".", omittingEmptySubsequences: false).map { label in
            label.hasPrefix("xn--") ? decode(String(label.dropFirst(4))) ?? String(label) : String(label)
        }.joined(separator: ".")
    }

    private static func digitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "a") ... UInt8(ascii: "z"): Int(byte - UInt8(ascii: "a"))
        case UInt8(ascii: "A") ... UInt8(ascii: "Z"): Int(byte - UInt8(ascii: "A"))
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0")) + 26
        default: nil
        }
    }

    /// Why a host has no ASCII form.
    enum Refusal: Error, Equatable {
        /// A label longer than DNS allows (63 octets), found before encoding it.
        case labelTooLong
        /// A name longer than DNS allows (253 octets), found before encoding it.
        case nameTooLong
        /// A code point the encoder cannot express.
        case unencodable
    }

    /// A host name in ASCII: each non-ASCII label lowercased, NFC-normalised and encoded as
    /// `xn--…`.
    ///
    /// Encoding is quadratic in a label's length (each code point rescans the label), so a 40,000-
    /// character label took seconds to refuse afterwards. The lengths are bounded first: a label's
    /// encoding holds at least one character per code point, behind "xn--", so one of more than 59
    /// code points cannot fit DNS's 63 octets; likewise a name of more than 253. What these bounds
    /// refuse, the DNS rules applied to the encoded form would refuse anyway.
    static func toASCII(_ host: String) -> Result<String, Refusal> {
        let labels = host.split(separator: ".", omittingEmptySubsequences: false).map { label in
            label.utf8.allSatisfy { $0 < 0x80 }
                ? (text: String(label), ascii: true)
                : (text: String(label).lowercased().canonicallyComposed, ascii: false)
        }
        guard labels.allSatisfy({ $0.ascii || $0.text.unicodeScalars.count <= 63 - 4 }) else {
            return .failure(.labelTooLong)
        }
        guard host.unicodeScalars.count <= 253 else { return .failure(.nameTooLong) }
        var encoded: [String] = []
        for label in labels {
            if label.ascii {
                encoded.append(label.text)
            } else {
                guard let punycode = encode(label.text) else { return .failure(.unencodable) }
                encoded.append("xn--" + punycode)
            }
        }
        return .success(encoded.joined(separator: "."))
    }

    private static func adapt(_ delta: Int, points: Int, first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / points
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + ((base - tMin + 1) * delta) / (delta + skew)
    }

    private static func digit(_ value: Int) -> Character {
        Character(UnicodeScalar(UInt8(value < 26 ? 97 + value : 22 + value)))
    }
}
