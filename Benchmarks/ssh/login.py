#!/usr/bin/env python3
"""An ssh login with the key in pwtui's agent against the same key in OpenSSH's ssh-agent.

Usage (as root: sshd needs it): python3 Benchmarks/ssh/login.py PWTUI_BINARY [TYPE] [RUNS]
TYPE is ed25519 (the default), rsa (3072 bits) or ecdsa (P-256).

In a temporary directory: a vault (at the real unlock cost), an agent holding it unlocked, a key
made by ssh-keygen and imported with `pwtui ssh import --confirm never`, the same key file added
to an ssh-agent, and an sshd on 127.0.0.1 with its own host key that authorizes that key only.
Each run is a whole `ssh -p PORT USER@127.0.0.1 true`, from ssh's start to its exit, through one
agent or the other (`IdentityAgent`), alternated (A B A B ...) after two warm-ups; the medians and
their ratio are printed. The host key is in the known_hosts the agent reads, so pwtui's agent
also checks ssh's session binding on every login, as it would for a real host.
"""
import getpass, os, socket, statistics, subprocess, sys, tempfile, time

def main():
    binary = sys.argv[1]
    key_type = sys.argv[2] if len(sys.argv) > 2 else "ed25519"
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    if os.geteuid() != 0:
        sys.exit("run as root: sshd's privilege separation needs it")
    root = tempfile.mkdtemp(prefix="pwtui-ssh-bench-")
    os.chmod(root, 0o755)
    env = dict(os.environ, HOME=root, XDG_CONFIG_HOME=root + "/config", XDG_DATA_HOME=root + "/data",
               XDG_STATE_HOME=root + "/state", XDG_RUNTIME_DIR=root + "/run", PWTUI_VAULT=root + "/vault.pwtui")
    os.makedirs(root + "/run", mode=0o700)
    password = "benchmark master password 1"

    def run(command, **options):
        options.setdefault("env", env)
        result = subprocess.run(command, capture_output=True, **options)
        if result.returncode != 0:
            sys.exit(f"{command[0]} {command[1:3]}: exit {result.returncode}: {result.stderr.decode()}")
        return result.stdout.decode()

    def pwtui(args):
        r, w = os.pipe()
        os.write(w, (password + "\n").encode()); os.close(w)
        try:
            return run([binary] + args + ["--master-password-fd", str(r)], pass_fds=(r,))
        finally:
            os.close(r)

    pwtui(["init", "--kdf", "interactive"])
    run([binary, "agent", "start"])
    pwtui(["unlock"])
    key = root + "/id_bench"
    bits = ["-b", "3072"] if key_type == "rsa" else []
    run(["ssh-keygen", "-q", "-t", key_type, *bits, "-N", "", "-C", "bench key", "-f", key])
    pwtui(["ssh", "import", key, "--title", "bench key", "--confirm", "never"])
    pwtui_socket = run([binary, "ssh", "socket"]).strip()

    openssh_socket = root + "/openssh-agent.sock"
    openssh_agent = subprocess.Popen(["ssh-agent", "-D", "-a", openssh_socket], env=env,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    sshd = None
    try:
        for _ in range(100):
            if os.path.exists(openssh_socket): break
            time.sleep(0.05)
        run(["ssh-add", "-q", key], env=dict(env, SSH_AUTH_SOCK=openssh_socket))

        run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", root + "/host"])
        with open(key + ".pub") as public, open(root + "/authorized_keys", "w") as authorized:
            authorized.write(public.read())
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0)); port = probe.getsockname()[1]
        with open(root + "/sshd_config", "w") as config:
            config.write(f"ListenAddress 127.0.0.1\nPort {port}\nHostKey {root}/host\nPidFile none\n"
                         f"AuthorizedKeysFile {root}/authorized_keys\nStrictModes no\nUsePAM no\n"
                         "PasswordAuthentication no\nKbdInteractiveAuthentication no\nPermitRootLogin prohibit-password\n")
        os.makedirs("/run/sshd", exist_ok=True)
        sshd = subprocess.Popen(["/usr/sbin/sshd", "-D", "-e", "-f", root + "/sshd_config"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0: break
            time.sleep(0.05)
        os.makedirs(root + "/.ssh", exist_ok=True)
        with open(root + "/host.pub") as host, open(root + "/.ssh/known_hosts", "w") as known:
            kind, blob = host.read().split()[:2]
            known.write(f"[127.0.0.1]:{port} {kind} {blob}\n")

        def login(agent):
            return ["ssh", "-F", "/dev/null", "-p", str(port), "-o", f"UserKnownHostsFile={root}/.ssh/known_hosts",
                    "-o", "StrictHostKeyChecking=yes", "-o", f"IdentityAgent={agent}", "-o", "IdentitiesOnly=no",
                    "-o", "PasswordAuthentication=no", "-o", "BatchMode=yes", f"{getpass.getuser()}@127.0.0.1", "true"]
        commands = {"pwtui agent": login(pwtui_socket), "ssh-agent": login(openssh_socket)}
        times = {name: [] for name in commands}
        for n in range(runs + 2):
            for name, command in commands.items():
                start = time.perf_counter()
                run(command)
                if n >= 2:
                    times[name].append(time.perf_counter() - start)
    finally:
        if sshd: sshd.kill()
        openssh_agent.kill()
        subprocess.run([binary, "agent", "stop"], env=env, capture_output=True)
    medians = {name: statistics.median(values) * 1000 for name, values in times.items()}
    for name, values in times.items():
        print(f"{name:12s} median {medians[name]:.1f} ms  min {min(values) * 1000:.1f}  max {max(values) * 1000:.1f}"
              f"  ({len(values)} runs, {key_type})")
    print(f"ratio (pwtui / ssh-agent): {medians['pwtui agent'] / medians['ssh-agent']:.2f}")

main()
