import Platform

// Before anything can hold a secret: no core dumps, not dumpable, no crash dump of memory.
ProcessHardening.apply()
CommandRunner.run(Pwtui.self)
