import FuzzTargets

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImportFile(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzEntry.importFile.run(UnsafeRawBufferPointer(start: start, count: count))
    return 0
}
