import FuzzTargets

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKnownHosts(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzEntry.knownHosts.run(UnsafeRawBufferPointer(start: start, count: count))
    return 0
}
