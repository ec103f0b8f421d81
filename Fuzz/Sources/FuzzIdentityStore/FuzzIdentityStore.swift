import FuzzTargets

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIdentityStore(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzEntry.identityStore.run(UnsafeRawBufferPointer(start: start, count: count))
    return 0
}
