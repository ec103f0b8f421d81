// `ProcessChain`: who asks, read from a /proc tree. A fake tree (status, cmdline, an exe link)
// stands for processes this test cannot make: one whose exe link is unreadable, one of another
// user, a parent loop. The real /proc is read once, for this process and its parent.

import Foundation
import Platform
import Testing

@Suite("the asking process's chain, from /proc")
struct ProcessChainTests {
    final class FakeProc {
        let root = NSTemporaryDirectory() + "pwtui-proc-" + UUID().uuidString

        /// A process: its status (Name, PPid, Uid), its argv, and its exe link (nil: none, as
        /// for a process that is not dumpable, whose link another process cannot read).
        func add(_ pid: Int32, parent: Int32, uid: UInt32 = 1000, name: String, argv: [String], exe: String?) throws {
            let directory = "\(root)/\(pid)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try
                "Name:\t\(name)\nUmask:\t0022\nState:\tS (sleeping)\nPPid:\t\(parent)\nUid:\t\(uid)\t\(uid)\t\(uid)\t\(uid)\n"
                .write(toFile: directory + "/status", atomically: false, encoding: .utf8)
            try Data(argv.flatMap { Array($0.utf8) + [0] }).write(to: URL(fileURLWithPath: directory + "/cmdline"))
            if let exe {
                try FileManager.default.createSymbolicLink(atPath: directory + "/exe", withDestinationPath: exe)
            }
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }
    }

    @Test(
        "named by executable, asking process first, up to pid 1; pwtui's entry point where the exe link is unreadable")
    func namedByExecutable() throws {
        let proc = FakeProc()
        try proc.add(300, parent: 200, name: "pwtui", argv: ["git-credential-pwtui", "get"], exe: nil)
        try proc.add(
            200, parent: 100, name: "git", argv: ["git", "credential-pwtui", "get"], exe: "/usr/lib/git-core/git")
        // argv[0] says "innocent": the exe link, which the process cannot change, names it.
        try proc.add(100, parent: 1, name: "bash", argv: ["innocent"], exe: "/usr/bin/bash")
        let chain = ProcessChain.of(300, procRoot: proc.root, ownExecutable: "/opt/pwtui")
        #expect(chain.names == ["git-credential-pwtui", "git", "bash"])
        #expect(chain.members.map(\.id) == [300, 200, 100])
        #expect(chain.members[1].commandLine == ["git", "credential-pwtui", "get"])
        #expect(chain.description == "git-credential-pwtui ← git ← bash")
    }

    @Test("pwtui's own binary is named as it was started, even where its exe link is readable (as root)")
    func ownBinaryByEntryPoint() throws {
        let proc = FakeProc()
        try proc.add(
            50, parent: 40, name: "pwtui", argv: ["/home/kim/.local/bin/docker-credential-pwtui", "get"],
            exe: "/opt/pwtui")
        try proc.add(40, parent: 1, name: "podman", argv: ["podman", "login"], exe: "/usr/bin/podman")
        #expect(
            ProcessChain.of(50, procRoot: proc.root, ownExecutable: "/opt/pwtui").names == [
                "docker-credential-pwtui", "podman",
            ])
        // Another binary's argv[0] is not believed.
        #expect(ProcessChain.of(50, procRoot: proc.root, ownExecutable: "/usr/bin/other").names == ["pwtui", "podman"])
    }

    @Test("argv[0] is no evidence: pwtui started as git is pwtui, and an unreadable executable named git is nobody")
    func argumentZeroIsNoEvidence() throws {
        let proc = FakeProc()
        // `exec -a git pwtui get X`, as root reads it (the exe link readable): pwtui's binary,
        // started under a name that is not one of its own.
        try proc.add(60, parent: 59, name: "pwtui", argv: ["git", "get", "X"], exe: "/opt/pwtui")
        try proc.add(59, parent: 1, name: "bash", argv: ["bash"], exe: "/usr/bin/bash")
        let asRoot = ProcessChain.of(60, procRoot: proc.root, ownExecutable: "/opt/pwtui")
        #expect(asRoot.names == ["pwtui", "bash"])
        // The same as its user reads it: pwtui is not dumpable, its link unreadable. A name that
        // is no entry point of pwtui's is shown, marked, and matched by no binding.
        try proc.add(70, parent: 59, name: "pwtui", argv: ["/usr/bin/git", "get", "X"], exe: nil)
        let asUser = ProcessChain.of(70, procRoot: proc.root, ownExecutable: "/opt/pwtui")
        #expect(asUser.names == ["bash"])
        #expect(asUser.members.first?.isVerified == false)
        #expect(asUser.description == "git? ← bash")
        // askpass started as ssh or sudo is no more ssh or sudo than git is.
        try proc.add(80, parent: 59, name: "pwtui", argv: ["/usr/bin/sudo", "[sudo] password"], exe: nil)
        #expect(ProcessChain.of(80, procRoot: proc.root, ownExecutable: "/opt/pwtui").names == ["bash"])
        // pwtui's entry points stand where the link is unreadable: any process of the user could
        // run that entry point itself, so the name gives it nothing more.
        try proc.add(90, parent: 59, name: "pwtui", argv: ["pwtui-askpass", "Password:"], exe: nil)
        #expect(
            ProcessChain.of(90, procRoot: proc.root, ownExecutable: "/opt/pwtui").names == ["pwtui-askpass", "bash"])
    }

    @Test("the walk stops at another user's process, at a loop, at a vanished parent and at the depth limit")
    func walkStops() throws {
        let proc = FakeProc()
        try proc.add(30, parent: 20, name: "bash", argv: ["bash"], exe: "/usr/bin/bash")
        try proc.add(20, parent: 10, uid: 0, name: "sudo", argv: ["sudo", "-s"], exe: "/usr/bin/sudo")
        try proc.add(10, parent: 1, name: "bash", argv: ["bash"], exe: "/usr/bin/bash")
        #expect(
            ProcessChain.of(30, procRoot: proc.root).names == ["bash"], "beyond sudo the request is not this user's")

        try proc.add(7, parent: 8, name: "a", argv: ["a"], exe: "/bin/a")
        try proc.add(8, parent: 7, name: "b", argv: ["b"], exe: "/bin/b (deleted)")
        #expect(
            ProcessChain.of(7, procRoot: proc.root).names == ["a", "b"], "a loop is walked once; (deleted) is no name")

        try proc.add(5, parent: 4, name: "orphan", argv: ["orphan"], exe: "/bin/orphan")
        #expect(ProcessChain.of(5, procRoot: proc.root).names == ["orphan"])
        #expect(ProcessChain.of(999, procRoot: proc.root).members.isEmpty)
        #expect(ProcessChain.of(999, procRoot: proc.root).description == "an unknown process")

        for pid in Int32(1000) ..< 1100 {
            try proc.add(pid, parent: pid + 1, name: "p", argv: ["p"], exe: "/bin/p")
        }
        #expect(ProcessChain.of(1000, procRoot: proc.root).members.count == ProcessChain.maximumDepth)
    }

    @Test("the real /proc: this process is named by its executable, and its parent follows")
    func realProc() {
        let chain = ProcessChain.of(CurrentProcess.id, ownExecutable: nil)
        #expect(chain.members.first?.id == CurrentProcess.id)
        #expect(chain.members.first?.executable == CurrentProcess.executablePath)
        #expect(chain.members.first?.name == CurrentProcess.executablePath.split(separator: "/").last.map(String.init))
        #expect(chain.members.count >= 2, "the test runner's parent: \(chain)")
        #expect(chain.members.dropFirst().first?.id == getppid())
    }
}
