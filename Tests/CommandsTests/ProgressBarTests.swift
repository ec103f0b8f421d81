import Foundation
import Platform
@testable import Commands
import Testing

@Suite("progress bar")
struct ProgressBarTests {
    /// What a bar draws for `steps` updates of `total`, into a pipe it takes for a terminal or not.
    func drawn(total: Int, terminal: Bool?) throws -> String {
        let pipe = Pipe()
        let bar = ProgressBar(
            label: "Decrypting", output: FileDescriptor(rawValue: pipe.fileHandleForWriting.fileDescriptor),
            isTerminal: terminal)
        for done in 0 ... total { bar.update(done, of: total) }
        try pipe.fileHandleForWriting.close()
        return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    @Test("on a terminal: drawn once per percent, cleared at the end")
    func terminal() throws {
        let written = try drawn(total: 400, terminal: true)
        #expect(written.hasPrefix("\rDecrypting [------------------------------] 0/400"))
        #expect(written.contains("\rDecrypting [###############---------------] 200/400"))
        #expect(written.components(separatedBy: "\rDecrypting").count - 1 == 100, "one draw per percent")
        #expect(written.hasSuffix("\r\u{1B}[K"))
    }

    @Test("not on a terminal (a pipe, asked of the descriptor), or too little work: nothing at all")
    func silent() throws {
        #expect(try drawn(total: 400, terminal: nil).isEmpty)
        #expect(try drawn(total: 10, terminal: true).isEmpty)
    }
}
