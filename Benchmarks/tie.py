#!/usr/bin/env python3
"""A two-way tie against a single match through the unlocked agent (issue 26, item 10): a vault of
COUNT credentials, two accounts (work and personal) on every site but one, which has a single
account; `get` of a tied site and of the single one, interleaved, each as a fresh process. Run by
hand (`make bench-tie`), never by the tests; the goal is a tie within 1.2x a single match.

    tie.py PWTUI [COUNT] [RUNS]

Everything lives in a temporary directory with its own XDG directories; the vault is filled
through pwtui's own Chrome CSV import; the agent is stopped at the end.
"""
import csv
import os
import statistics
import subprocess
import sys
import tempfile
import time

PASSWORD = b"orbit velvet tiger lamp\n"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    pwtui = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    with tempfile.TemporaryDirectory(prefix="pwtui-tie-") as root:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PWTUI_", "XDG_"))}
        for name in ("data", "config", "state", "runtime"):
            os.makedirs(f"{root}/{name}", mode=0o700)
        env.update(PWTUI_VAULT=f"{root}/data/vault.pwtui", XDG_DATA_HOME=f"{root}/data", XDG_CONFIG_HOME=f"{root}/config",
                   XDG_STATE_HOME=f"{root}/state", XDG_RUNTIME_DIR=f"{root}/runtime")
        with open(f"{root}/export.csv", "w", newline="") as f:
            rows = csv.writer(f)
            rows.writerow(["name", "url", "username", "password", "note"])
            for site in range(count // 2 - 1):
                for who in ("work", "personal"):
                    rows.writerow([f"Site {site} ({who})", f"https://site{site}.com/", f"{who}{site}", f"pw-{who}-{site}", ""])
            rows.writerow(["Solo", "https://solo.com/", "solo", "pw-solo", ""])

        def run(*args, password=False, check=True):
            return subprocess.run([pwtui, *args] + (["--master-password-fd", "0"] if password else []),
                                  input=PASSWORD if password else None, env=env, capture_output=True, check=check)

        run("init", "--kdf", "interactive", password=True)
        run("import", f"{root}/export.csv", password=True)
        run("agent", "start")
        try:
            run("unlock", password=True)
            times = {"tie": [], "single": [], "--version": []}
            for _ in range(runs):
                for label, args in (("tie", ["get", "site77.com"]), ("single", ["get", "solo.com"]),
                                    ("--version", ["--version"])):
                    start = time.perf_counter()
                    result = subprocess.run([pwtui, *args], env=env, stdin=subprocess.DEVNULL, capture_output=True)
                    times[label].append((time.perf_counter() - start) * 1000)
                    if result.returncode != 0:
                        sys.exit(f"{label}: exit {result.returncode}: {result.stderr.decode()}")
            medians = {label: statistics.median(values) for label, values in times.items()}
            print(f"{count} credentials, {runs} runs each, {pwtui}")
            for label, median in medians.items():
                print(f"  get {label:<10} median {median:6.2f} ms   min {min(times[label]):6.2f}")
            print(f"  tie / single: {medians['tie'] / medians['single']:.2f}x (goal: at most 1.2x)")
        finally:
            run("agent", "stop", check=False)


if __name__ == "__main__":
    main()
