import Foundation
import FuzzTargets

/// fuzz-seeds DIRECTORY: writes the seed corpus into DIRECTORY/<entry>/.
@main
struct SeedCorpusTool {
    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count == 2 else {
            FileHandle.standardError.write(Data("usage: fuzz-seeds DIRECTORY\n".utf8))
            exit(64)
        }
        do {
            try SeedCorpus.write(to: arguments[1])
        } catch {
            FileHandle.standardError.write(Data("fuzz-seeds: \(error)\n".utf8))
            exit(1)
        }
    }
}
