import FuzzTargets

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSSHAgentMessage(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzEntry.sshAgentMessage.run(UnsafeRawBufferPointer(start: start, count: count))
    return 0
}
