import FuzzTargets

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDotEnvFile(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzEntry.dotEnv.run(UnsafeRawBufferPointer(start: start, count: count))
    return 0
}
