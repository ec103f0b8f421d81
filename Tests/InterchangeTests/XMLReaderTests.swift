import Testing
@testable import Interchange
import VaultModel

struct XMLReaderTests {
    let reader: Reader<XMLElement> = XMLReader.document

    /// A KeePass 2 XML export as KeePassXC writes it, cut down to one entry.
    static let keePass = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <!-- exported -->
        <KeePassFile>
        \t<Meta>
        \t\t<Generator>KeePassXC</Generator>
        \t</Meta>
        \t<Root>
        \t\t<Group>
        \t\t\t<Name>Root</Name>
        \t\t\t<Entry>
        \t\t\t\t<UUID>q2Qk3Y9dTZ6ZK1bnDq9o1g==</UUID>
        \t\t\t\t<String>
        \t\t\t\t\t<Key>Password</Key>
        \t\t\t\t\t<Value ProtectInMemory="True">hunter2 &amp; &lt;more&gt;</Value>
        \t\t\t\t</String>
        \t\t\t\t<String><Key>Title</Key><Value>Mail</Value></String>
        \t\t\t\t<String><Key>Notes</Key><Value/></String>
        \t\t\t</Entry>
        \t\t</Group>
        \t</Root>
        </KeePassFile>

        """

    @Test func aKeePassExport() throws {
        let (root, arena) = try read(Self.keePass, with: reader)
        #expect(root.name == "KeePassFile")
        #expect(root.line == 3)
        #expect(root.child("Meta")?.child("Generator").map { arena.text($0.text) } == "KeePassXC")
        guard let entry = root.child("Root")?.child("Group")?.child("Entry") else {
            Issue.record("no entry")
            return
        }
        #expect(entry.line == 10)
        let strings = entry.children("String")
        #expect(strings.count == 3)
        #expect(strings.map { $0.child("Key").map { arena.text($0.text) } } == ["Password", "Title", "Notes"])
        let password = strings[0].child("Value")
        #expect(password?.attributes == ["ProtectInMemory": "True"])
        #expect(password.map { arena.text($0.text) } == "hunter2 & <more>")
        #expect(password?.line == 14)
        #expect(strings[2].child("Value").map { arena.text($0.text) } == "")
        #expect(strings[2].child("Value")?.children.isEmpty == true)
        #expect(entry.child("Missing") == nil)
        // Whitespace between elements is kept, for the mapper to trim.
        #expect(arena.text(entry.text) == "\n\t\t\t\t\n\t\t\t\t\n\t\t\t\t\n\t\t\t\t\n\t\t\t")
    }

    @Test func byteOrderMarkAndNoDeclaration() throws {
        let (root, arena) = try read(bom + Array("<a>x</a>".utf8), with: reader)
        #expect(root.name == "a")
        #expect(arena.text(root.text) == "x")
    }

    @Test func entitiesAndCharacterReferences() throws {
        let (root, arena) = try read("<v>&lt;&gt;&amp;&quot;&apos; &#65;&#x42;&#x65E5;&#128273;</v>", with: reader)
        #expect(arena.text(root.text) == "<>&\"' AB日🔑")
    }

    @Test func cdataIsVerbatim() throws {
        let (root, arena) = try read("<v>a<![CDATA[<b>&amp;]]]]><![CDATA[>]]>c</v>", with: reader)
        #expect(arena.text(root.text) == "a<b>&amp;]]>c")
    }

    @Test func textAroundChildrenIsTheElementsOwn() throws {
        let (root, arena) = try read("<p>one<b>two</b>three<i/>four</p>", with: reader)
        #expect(arena.text(root.text) == "onethreefour")
        #expect(root.children.map(\.name) == ["b", "i"])
        #expect(root.child("b").map { arena.text($0.text) } == "two")
    }

    @Test func attributes() throws {
        let (root, _) = try read(
            "<e a='1' b = \"two &amp; 'three'\" c=\"x&#10;y\tz\r\nw\" d:e-f.g=\"\"/>", with: reader)
        #expect(root.attributes == ["a": "1", "b": "two & 'three'", "c": "x\ny z w", "d:e-f.g": ""])
    }

    @Test func lineEndsAreNormalised() throws {
        let (root, arena) = try read("<v>a\r\nb\rc\nd<![CDATA[\r\n]]></v>", with: reader)
        #expect(arena.text(root.text) == "a\nb\nc\nd\n")
    }

    @Test func commentsProcessingInstructionsAndADoctype() throws {
        let input =
            "<?xml version=\"1.0\"?>\n<!DOCTYPE KeePassFile SYSTEM \"a>b.dtd\">\n<!-- c --><?pi x?>\n"
            + "<r><!-- <x> --><?pi <y>?>t</r>\n<!-- after -->\n"
        let (root, arena) = try read(input, with: reader)
        #expect(root.line == 4)
        #expect(root.children.isEmpty)
        #expect(arena.text(root.text) == "t")
    }

    @Test func nestingUpTo256Levels() throws {
        let deep = String(repeating: "<a>", count: 256) + String(repeating: "</a>", count: 256)
        #expect(throws: Never.self) { try read(deep, with: reader) }
        try expectFailure(
            String(repeating: "<a>", count: 257) + String(repeating: "</a>", count: 257), with: reader,
            line: 1, column: 256 * 3 + 1, "nested deeper than 256 levels")
    }

    // MARK: What is refused, and where

    @Test func anInternalSubsetIsRefused() throws {
        let laughs = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n]>\n<lolz>&lol;</lolz>"
        try expectFailure(laughs, with: reader, line: 2, column: 16, "a DOCTYPE with an internal subset")
    }

    @Test func references() throws {
        try expectFailure(
            "<v>\n hunter2&foo;</v>", with: reader, line: 2, column: 9, "an unknown entity reference",
            notQuoting: "hunter2")
        try expectFailure("<v>a & b</v>", with: reader, line: 1, column: 6, "a '&' that does not start a reference")
        try expectFailure("<v>&#0;</v>", with: reader, line: 1, column: 4, "a code point that XML does not allow")
        try expectFailure("<v>&#x1F;</v>", with: reader, line: 1, column: 4, "a code point that XML does not allow")
        try expectFailure("<v>&#xD800;</v>", with: reader, line: 1, column: 4, "a code point that XML does not allow")
        try expectFailure("<v>&#xFFFE;</v>", with: reader, line: 1, column: 4, "a code point that XML does not allow")
        try expectFailure("<v>&#x110000;</v>", with: reader, line: 1, column: 4, "a code point that XML does not allow")
        try expectFailure(
            "<v>&#99999999999;</v>", with: reader, line: 1, column: 4, "a code point that XML does not allow")
        try expectFailure("<v>&#x;</v>", with: reader, line: 1, column: 4, "a malformed character reference")
        try expectFailure("<v>&#12a;</v>", with: reader, line: 1, column: 4, "a malformed character reference")
        try expectFailure("<v a=\"&bogus;\"/>", with: reader, line: 1, column: 7, "an unknown entity reference")
    }

    @Test func mismatchedTagsNameTheElementAndItsLine() throws {
        try expectFailure(
            "<a>\n <b>\n </a>", with: reader, line: 3, column: 2,
            "the end tag </a> does not match <b> opened on line 2")
        try expectFailure(
            "<a>\n <b>hunter2", with: reader, line: 2, column: 2,
            "the element <b> opened on line 2 is never closed", notQuoting: "hunter2")
        try expectFailure("<a>\n<b x=\"1\"", with: reader, line: 2, column: 1, "the start tag of <b> is never closed")
        try expectFailure("<a></a\n", with: reader, line: 2, column: 1, "expected '>' to end the end tag </a>")
    }

    /// A 5 MB element name must not make a 5 MB message: names are echoed cut to 200 characters
    /// with their full length (PrintableText.echoed).
    @Test func aHugeElementNameIsCutInTheMessage() throws {
        let name = String(repeating: "n", count: 5_000_000)
        let failed = try #require(try failure(Array("<a>\n <\(name)>x".utf8), with: reader))
        #expect(failed.description.utf8.count < 1_000, "\(failed.description.utf8.count) bytes")
        #expect(
            failed.reason.contains(
                "<" + String(repeating: "n", count: 200)
                    + "… (5000000 characters in all)> opened on line 2 is never closed"))
    }

    @Test func malformedTags() throws {
        try expectFailure(
            "<a b=\"1\"c=\"2\"/>", with: reader, line: 1, column: 9, "expected whitespace before an attribute")
        try expectFailure("<a b/>", with: reader, line: 1, column: 5, "expected '=' after the attribute b")
        try expectFailure("<a b=1/>", with: reader, line: 1, column: 6, "expected a quoted attribute value")
        try expectFailure("<a b=\"1\" b='2'/>", with: reader, line: 1, column: 10, "the attribute b appears twice")
        try expectFailure("<a b=\"<\"/>", with: reader, line: 1, column: 7, "a '<' inside an attribute value")
        try expectFailure("<a b=\"x/>", with: reader, line: 1, column: 6, "an attribute value that is never closed")
        try expectFailure("<a/ >", with: reader, line: 1, column: 3, "expected '>' after '/'")
        try expectFailure("<1a/>", with: reader, line: 1, column: 2, "expected an element name")
        try expectFailure(
            "<a><!ELEMENT x></a>", with: reader, line: 1, column: 4, "a markup declaration inside an element")
    }

    @Test func unclosedConstructs() throws {
        try expectFailure("<a><!-- x </a>", with: reader, line: 1, column: 4, "a comment that is never closed")
        try expectFailure(
            "<a><![CDATA[hunter2</a>", with: reader, line: 1, column: 4, "a CDATA section that is never closed",
            notQuoting: "hunter2")
        try expectFailure(
            "<?xml version=\"1.0\"", with: reader, line: 1, column: 1, "a processing instruction that is never closed")
        try expectFailure("<!DOCTYPE a", with: reader, line: 1, column: 1, "a DOCTYPE that is never closed")
    }

    @Test func outsideTheRoot() throws {
        try expectFailure("<a/>\n<b/>", with: reader, line: 2, column: 1, "content after the root element")
        try expectFailure("<a/>x", with: reader, line: 1, column: 5, "content after the root element")
        try expectFailure("\n  text", with: reader, line: 2, column: 3, "expected the root element")
        try expectFailure("<!DOCTYPE a>\n<!DOCTYPE a><a/>", with: reader, line: 2, column: 1, "a second DOCTYPE")
    }

    @Test func controlCharacters() throws {
        try expectFailure(
            [0x3C, 0x61, 0x3E, 0x78, 0x01, 0x3C, 0x2F, 0x61, 0x3E], with: reader, line: 1, column: 5,
            "a control character that XML does not allow")
        try expectFailure(
            Array("<a b=\"".utf8) + [0x00] + Array("\"/>".utf8), with: reader, line: 1, column: 7,
            "a control character that XML does not allow")
    }

    @Test func invalidUTF8() throws {
        try expectFailure(
            Array("<a>\n<b>caf".utf8) + [0xE9] + Array("</b></a>".utf8), with: reader,
            line: 2, column: 7, "invalid UTF-8 (byte 0xE9)")
    }

    @Test func emptyFile() throws {
        try expectFailure("", with: reader, line: nil, column: nil, "the file is empty")
        try expectFailure(
            "<?xml version=\"1.0\"?>\n<!-- nothing -->\n", with: reader, line: nil, column: nil, "the file is empty")
    }
}
