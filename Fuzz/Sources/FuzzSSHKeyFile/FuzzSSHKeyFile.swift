import FuzzTargets

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSSHKeyFile(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzEntry.sshKeyFile.run(UnsafeRawBufferPointer(start: start, count: count))
    return 0
}
