import FuzzTargets

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAskpassPrompt(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzEntry.askpassPrompt.run(UnsafeRawBufferPointer(start: start, count: count))
    return 0
}
