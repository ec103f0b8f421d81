import Foundation
import FuzzTargets
import Testing

/// Every file of the fuzzers' corpus (Fuzz/Corpus/<entry>/: the seeds, and each input a fuzzer
/// found crashing, kept once fixed) through the same entry point the fuzzer calls, in the normal
/// build: a decoder change that brings back an old crash fails here, without libFuzzer.
@Suite struct CorpusReplayTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/Corpus").path

    static func files(of entry: FuzzEntry) -> [String] {
        let folder = corpus + "/" + entry.rawValue
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.sorted().map { folder + "/" + $0 }
    }

    @Test(arguments: FuzzEntry.allCases)
    func replaysCorpus(_ entry: FuzzEntry) throws {
        let files = Self.files(of: entry)
        #expect(files.count >= 3, "Fuzz/Corpus/\(entry.rawValue) should hold seeds (`make fuzz-seeds`)")
        for file in files {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            bytes.withUnsafeBytes { entry.run($0) }
        }
    }
}
