import FuzzTargets

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPayloadCodec(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzEntry.payload.run(UnsafeRawBufferPointer(start: start, count: count))
    return 0
}
