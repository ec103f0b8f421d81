import FuzzTargets

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVaultHeader(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzEntry.vaultHeader.run(UnsafeRawBufferPointer(start: start, count: count))
    return 0
}
