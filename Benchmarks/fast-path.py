#!/usr/bin/env python3
"""Times the real pwtui binary on the paths that must feel instant (issue 5): `get` through an
unlocked agent, `suggest` from the identity store, and a locked `get --no-interaction`, each as a
fresh process, with 10,000 credentials. Run by hand (`make bench-fast-path`), never by the tests.

    fast-path.py PWTUI PWTUI_BENCH [COUNT] [RUNS]

PWTUI is the binary to time (build it as users get it: `make release`); PWTUI_BENCH makes the
vault (`pwtui-bench make-vault`, master password "bench"). Everything lives in a temporary
directory with its own XDG directories; the agent is stopped at the end.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    pwtui, bench = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 10_000
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 40
    with tempfile.TemporaryDirectory(prefix="pwtui-fast-path-") as root:
        env = dict(os.environ)
        for key in [k for k in env if k.startswith("PWTUI_") or k.startswith("XDG_")]:
            del env[key]
        for name in ("data", "config", "state", "runtime"):
            os.makedirs(f"{root}/{name}", mode=0o700)
        vault = f"{root}/data/vault.pwtui"
        env.update(PWTUI_VAULT=vault, XDG_DATA_HOME=f"{root}/data", XDG_CONFIG_HOME=f"{root}/config",
                   XDG_STATE_HOME=f"{root}/state", XDG_RUNTIME_DIR=f"{root}/runtime")
        subprocess.run([bench, "make-vault", vault, str(count)], check=True, env=env, stdout=subprocess.DEVNULL)

        def pwtui_run(*args, password=False):
            return subprocess.run([pwtui, *args] + (["--master-password-fd", "0"] if password else []),
                                  input=b"bench\n" if password else None, env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)

        def timed(label, *args, expect):
            times = []
            for _ in range(runs):
                start = time.perf_counter()
                result = subprocess.run([pwtui, *args], env=env, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                times.append((time.perf_counter() - start) * 1000)
                if result.returncode != expect:
                    sys.exit(f"{label}: exit {result.returncode}, expected {expect}")
            print(f"{label:<52} median {statistics.median(times):6.1f} ms   min {min(times):6.1f}   max {max(times):6.1f}")

        pwtui_run("list", password=True)  # builds the identity store
        pwtui_run("agent", "start")
        try:
            print(f"{count} credentials, {runs} runs each, {pwtui}")
            timed("pwtui --version (process start alone)", "--version", expect=0)
            timed("suggest site42.com (locked, identity store)", "suggest", "site42.com", expect=0)
            timed("get site42.com --no-interaction (agent locked)", "get", "site42.com", "--no-interaction", expect=75)
            pwtui_run("unlock", password=True)
            timed("get site42.com (agent unlocked)", "get", "site42.com", expect=0)
            timed("get https://login.site42.example.com/ (all same site)", "get", "https://login.site42.example.com/", expect=0)
        finally:
            pwtui_run("agent", "stop")


if __name__ == "__main__":
    main()
