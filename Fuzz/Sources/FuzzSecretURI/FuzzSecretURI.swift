import FuzzTargets

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSecretURI(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzEntry.secretURI.run(UnsafeRawBufferPointer(start: start, count: count))
    return 0
}
