import FuzzTargets

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServiceIdentifier(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzEntry.serviceIdentifier.run(UnsafeRawBufferPointer(start: start, count: count))
    return 0
}
