import FuzzTargets

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAgentMessage(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzEntry.agentMessage.run(UnsafeRawBufferPointer(start: start, count: count))
    return 0
}
