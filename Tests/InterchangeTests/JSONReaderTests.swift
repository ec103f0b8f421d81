import Testing
@testable import Interchange
import VaultModel

struct JSONReaderTests {
    let reader: Reader<JSONValue> = JSONReader.value

    /// A test's view of a value: strings read back from the arena.
    indirect enum Plain: Equatable {
        case object([Member]), array([Plain]), string(String), number(String), bool(Bool), null
        struct Member: Equatable { let key: String; let value: Plain }
    }

    func plain(_ value: JSONValue, _ arena: SecretArena) -> Plain {
        switch value {
        case .object(let members): .object(members.map { Plain.Member(key: $0.key, value: plain($0.value, arena)) })
        case .array(let elements): .array(elements.map { plain($0, arena) })
        case .string(let reference): .string(arena.text(reference))
        case .number(let text): .number(text)
        case .bool(let flag): .bool(flag)
        case .null: .null
        }
    }

    func parse(_ bytes: [UInt8]) throws -> Plain {
        let (value, arena) = try read(bytes, with: reader)
        return plain(value, arena)
    }

    func parse(_ text: String) throws -> Plain {
        try parse(Array(text.utf8))
    }

    // MARK: What real exports contain

    @Test func aBitwardenLikeExport() throws {
        let input = """
            {
              "encrypted": false,
              "folders": [],
              "items": [
                {"id": "1f0c", "type": 1, "name": "Mail", "favorite": true, "notes": null,
                 "login": {"username": "ann", "password": "hunter2", "totp": null,
                           "uris": [{"uri": "https://mail.example", "match": null}]}}
              ]
            }
            """
        let (value, arena) = try read(input, with: reader)
        guard case .array(let items)? = value["items"], let item = items.first else {
            Issue.record("no items")
            return
        }
        guard case .string(let password)? = item["login"]?["password"] else {
            Issue.record("no password")
            return
        }
        #expect(arena.text(password) == "hunter2")
        #expect(plain(item["type"] ?? .null, arena) == .number("1"))
        #expect(plain(item["favorite"] ?? .null, arena) == .bool(true))
        #expect(plain(item["notes"] ?? .bool(false), arena) == .null)
        #expect(plain(value["encrypted"] ?? .null, arena) == .bool(false))
        #expect(value["missing"] == nil)
        #expect(items[0]["login"]?["uris"]?["uri"] == nil)  // not an object
    }

    @Test func byteOrderMarkAndWhitespace() throws {
        #expect(try parse(bom + Array(" \r\n\t[ 1 , \"a\" ]\n\n".utf8)) == .array([.number("1"), .string("a")]))
    }

    @Test func scalarsAtTheTop() throws {
        #expect(try parse("\"only\"") == .string("only"))
        #expect(try parse("null") == .null)
        #expect(try parse(" 3 ") == .number("3"))
    }

    @Test func escapes() throws {
        let input = #"["\"\\\/\b\f\n\r\t", "\u00e9\u00E9 \u65e5 \ud83d\udd11", "\u0000", "plain"]"#
        #expect(
            try parse(input)
                == .array([
                    .string("\"\\/\u{8}\u{C}\n\r\t"), .string("éé 日 🔑"), .string("\u{0}"), .string("plain"),
                ]))
    }

    @Test func keysAreUnescapedToo() throws {
        #expect(
            try parse(#"{"pass\u0077ord": "x", "a\"b": "y"}"#)
                == .object([.init(key: "password", value: .string("x")), .init(key: "a\"b", value: .string("y"))]))
    }

    @Test func numbersKeepTheirText() throws {
        #expect(
            try parse("[0, -0, 12, -3.25, 1e9, 1.5E+10, 0.25e-3, 1712345678901]")
                == .array([
                    .number("0"), .number("-0"), .number("12"), .number("-3.25"), .number("1e9"),
                    .number("1.5E+10"), .number("0.25e-3"), .number("1712345678901"),
                ]))
    }

    @Test func duplicateKeysKeepOrderAndTheSubscriptTakesTheFirst() throws {
        let (value, arena) = try read(#"{"a": "1", "b": {}, "a": "2"}"#, with: reader)
        guard case .string(let first)? = value["a"], case .object(let members) = value else {
            Issue.record("not read")
            return
        }
        #expect(arena.text(first) == "1")
        #expect(members.map(\.key) == ["a", "b", "a"])
    }

    @Test func unicodeInStrings() throws {
        #expect(try parse("{\"日本\": \"pässwörd 🔑\"}") == .object([.init(key: "日本", value: .string("pässwörd 🔑"))]))
    }

    @Test func nestingUpTo256Levels() throws {
        let deep = String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
        #expect(throws: Never.self) { try parse(deep) }
        try expectFailure(
            "\n" + String(repeating: "[", count: 257) + String(repeating: "]", count: 257), with: reader,
            line: 2, column: 257, "nesting deeper than 256 levels")
        try expectFailure(
            String(repeating: "{\"a\":", count: 257) + "1" + String(repeating: "}", count: 257), with: reader,
            line: 1, column: 256 * 5 + 1, "nesting deeper than 256 levels")
    }

    // MARK: What is refused, and where

    @Test func surrogates() throws {
        try expectFailure(#"["ok", "x\udd11"]"#, with: reader, line: 1, column: 10, "a lone surrogate")
        try expectFailure(#"["\ud83d"]"#, with: reader, line: 1, column: 3, "a lone surrogate")
        try expectFailure(#"["\ud83dx"]"#, with: reader, line: 1, column: 3, "a lone surrogate")
        try expectFailure(#"["\ud83d\u0041"]"#, with: reader, line: 1, column: 3, "a lone surrogate")
        try expectFailure(#"["\ud83d\ud83d"]"#, with: reader, line: 1, column: 3, "a lone surrogate")
    }

    @Test func badEscapes() throws {
        try expectFailure(
            #"{"p": "hunter\x2"}"#, with: reader, line: 1, column: 14, "an unknown escape", notQuoting: "hunter")
        try expectFailure(#"["\u12g4"]"#, with: reader, line: 1, column: 3, "four hexadecimal digits")
        try expectFailure(#"["\u12"#, with: reader, line: 1, column: 3, "four hexadecimal digits")
        try expectFailure(#"["\"#, with: reader, line: 1, column: 3, "end of file in an escape")
    }

    @Test func strings() throws {
        try expectFailure(
            "{\"a\": \"hunter2\n\"}", with: reader, line: 1, column: 15, "a control character in a string",
            notQuoting: "hunter2")
        try expectFailure(
            "[\n  \"hunter2", with: reader, line: 2, column: 3, "a string that is never closed",
            notQuoting: "hunter2")
        try expectFailure("['a']", with: reader, line: 1, column: 2, "expected a value")
    }

    @Test func structure() throws {
        try expectFailure("[1, 2,]", with: reader, line: 1, column: 7, "expected a value")
        try expectFailure("{\"a\": 1,}", with: reader, line: 1, column: 9, "expected a member name")
        try expectFailure("{\"a\" 1}", with: reader, line: 1, column: 6, "expected ':'")
        try expectFailure("{a: 1}", with: reader, line: 1, column: 2, "expected a member name")
        try expectFailure("[1 2]", with: reader, line: 1, column: 4, "expected ',' or ']'")
        try expectFailure("{\"a\": 1\n \"b\": 2}", with: reader, line: 2, column: 2, "expected ',' or '}'")
        try expectFailure("[1, 2", with: reader, line: 1, column: 6, "end of file in an array")
        try expectFailure("{\"a\": ", with: reader, line: 1, column: 7, "expected a value")
        try expectFailure("[tru]", with: reader, line: 1, column: 2, "expected a value")
        try expectFailure("[nulll]", with: reader, line: 1, column: 6, "expected ',' or ']'")
    }

    @Test func numbers() throws {
        try expectFailure("[01]", with: reader, line: 1, column: 3, "a leading zero")
        try expectFailure("[-]", with: reader, line: 1, column: 3, "a number without digits")
        try expectFailure("[1.]", with: reader, line: 1, column: 4, "after its '.'")
        try expectFailure("[1e+]", with: reader, line: 1, column: 5, "in its exponent")
        try expectFailure("[.5]", with: reader, line: 1, column: 2, "expected a value")
        try expectFailure("[+1]", with: reader, line: 1, column: 2, "expected a value")
    }

    @Test func trailingGarbage() throws {
        try expectFailure(
            "{\"a\": \"b\"}\n\n  x", with: reader, line: 3, column: 3, "unexpected data after the JSON value")
        try expectFailure("[] []", with: reader, line: 1, column: 4, "unexpected data after the JSON value")
    }

    @Test func invalidUTF8() throws {
        try expectFailure(
            Array("{\"p\":\n \"".utf8) + [0xC3, 0x28, 0x22, 0x7D], with: reader,
            line: 2, column: 3, "invalid UTF-8 (byte 0xC3)")
    }

    @Test func emptyFile() throws {
        try expectFailure("", with: reader, line: nil, column: nil, "the file is empty")
        try expectFailure(bom + Array(" \n ".utf8), with: reader, line: nil, column: nil, "the file is empty")
    }
}
