import Testing
@testable import Interchange

/// The error every reader throws: where, and why, never what the field held.
struct ImportFailureTests {
    @Test func describesItsPlace() {
        let failure = ImportFailure(line: 3, column: 7, "an unbalanced quote").inFile("export.csv")
        #expect(failure.description == "export.csv:line 3, column 7: an unbalanced quote")
        #expect(ImportFailure("the file is empty").description == "the file is empty")
    }
}
