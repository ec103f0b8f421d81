#!/usr/bin/env python3
"""`pwtui run` with ten references against `env` with ten plain values, starting the same child.

Usage: python3 Benchmarks/run/run.py PWTUI_BINARY [RUNS] [CHILD...]

A vault with ten credentials is made in a temporary directory (at the real unlock cost), an agent
holds it unlocked, and each run is one whole process from start to the child's exit:
  A: pwtui run --env V0=pwtui://s0.example ... --env V9=pwtui://s9.example -- CHILD
  B: env V0=value0 ... V9=value9 CHILD
The two alternate (A B A B ...), and the medians and the ratio of medians are printed.
CHILD defaults to /bin/true (pwtui's own cost alone); a real program (python3 -c pass) shows
what a script sees. Masking is on (the default) in A.
"""
import os, statistics, subprocess, sys, tempfile, time

def main():
    binary = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    child = sys.argv[3:] or ["/bin/true"]
    root = tempfile.mkdtemp(prefix="pwtui-run-bench-")
    env = dict(os.environ, HOME=root, XDG_CONFIG_HOME=root + "/config", XDG_DATA_HOME=root + "/data",
               XDG_STATE_HOME=root + "/state", XDG_RUNTIME_DIR=root + "/run", PWTUI_VAULT=root + "/vault.pwtui")
    os.makedirs(root + "/run", mode=0o700)
    password = "benchmark master password 1"
    def pwtui(args, stdin=""):
        r, w = os.pipe()
        os.write(w, (password + "\n").encode()); os.close(w)
        result = subprocess.run([binary] + args + ["--master-password-fd", str(r)], input=stdin.encode(), env=env,
                                pass_fds=(r,), capture_output=True)
        os.close(r)
        if result.returncode != 0:
            sys.exit(f"{args}: {result.stderr.decode()}")
    pwtui(["init", "--kdf", "interactive"])
    for i in range(10):
        pwtui(["add", f"s{i}.example", "--username", f"user{i}"], stdin=f"secret-value-{i}\n")
    subprocess.run([binary, "agent", "start"], env=env, check=True, capture_output=True)
    pwtui(["unlock"])
    a = [binary, "run"] + [x for i in range(10) for x in ("--env", f"V{i}=pwtui://s{i}.example")] + ["--"] + child
    b = ["env"] + [f"V{i}=secret-value-{i}" for i in range(10)] + child
    times = {"pwtui run": [], "env": []}
    try:
        for n in range(runs + 2):
            for name, command in (("pwtui run", a), ("env", b)):
                start = time.perf_counter()
                result = subprocess.run(command, env=env, capture_output=True)
                elapsed = time.perf_counter() - start
                if result.returncode != 0:
                    sys.exit(f"{name}: exit {result.returncode}: {result.stderr.decode()}")
                if n >= 2:  # two warm-ups
                    times[name].append(elapsed)
    finally:
        subprocess.run([binary, "agent", "stop"], env=env, capture_output=True)
    medians = {name: statistics.median(values) * 1000 for name, values in times.items()}
    for name, values in times.items():
        print(f"{name:10s} median {medians[name]:.2f} ms  min {min(values) * 1000:.2f}  max {max(values) * 1000:.2f}  ({len(values)} runs)")
    print(f"ratio (pwtui run / env): {medians['pwtui run'] / medians['env']:.2f}  child: {' '.join(child)}")

main()
