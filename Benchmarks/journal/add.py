#!/usr/bin/env python3
"""A change costs what it changes (issue 37): `pwtui add` through the unlocked agent at several
vault sizes, beside `pwtui --version` (a process start and nothing else). Run by hand, never by
the tests.

    add.py PWTUI PWTUI_BENCH [--counts 1000,10000,100000] [--runs 40]

PWTUI is the binary as users get it (`make release`); PWTUI_BENCH the benchmark tool
(`cd Benchmarks && swift build -c release`), whose `make-vault` writes a vault of COUNT sample
credentials (master password `bench`) in one snapshot. Each add is a fresh process, its secret on
stdin; each answer is checked. Targets: add at 100,000 at most 1.5x add at 1,000, and at most 5x
`--version`.
"""
import argparse
import os
import statistics
import subprocess
import tempfile
import time


def timed(arguments, env, stdin=None):
    start = time.perf_counter()
    result = subprocess.run(arguments, input=stdin, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    elapsed = (time.perf_counter() - start) * 1000
    if result.returncode != 0:
        raise RuntimeError(f"{arguments} exited {result.returncode}: {result.stderr.decode()}")
    return elapsed


def summary(values):
    ordered = sorted(values)
    return statistics.median(ordered), ordered[int(0.9 * (len(ordered) - 1))]


def run(pwtui, bench, count, runs):
    with tempfile.TemporaryDirectory(prefix="pwtui-journal-") as root:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PWTUI_", "XDG_"))}
        for name in ("data", "config", "state", "runtime"):
            os.makedirs(f"{root}/{name}", mode=0o700)
        vault = f"{root}/data/vault.pwtui"
        env.update(PWTUI_VAULT=vault, XDG_DATA_HOME=f"{root}/data", XDG_CONFIG_HOME=f"{root}/config",
                   XDG_STATE_HOME=f"{root}/state", XDG_RUNTIME_DIR=f"{root}/runtime", NO_COLOR="1")
        subprocess.run([bench, "make-vault", vault, str(count)], check=True)
        subprocess.run([pwtui, "agent", "start"], env=env, check=True, stdout=subprocess.DEVNULL)
        try:
            read, write = os.pipe()
            os.write(write, b"bench\n")
            os.close(write)
            subprocess.run([pwtui, "unlock", "--master-password-fd", "3"], env=env, check=True,
                           pass_fds=(3,), preexec_fn=lambda: os.dup2(read, 3))
            os.close(read)
            version = [timed([pwtui, "--version"], env) for _ in range(runs)]
            adds = []
            for index in range(runs + 3):
                elapsed = timed([pwtui, "add", f"added{index}.example", "--username", "new"], env, b"a-new-password\n")
                if index >= 3:  # the first adds warm the page cache and the agent
                    adds.append(elapsed)
            got = subprocess.run([pwtui, "get", f"added{runs}.example", "--no-interaction"], env=env,
                                 stdout=subprocess.PIPE, check=True).stdout
            if got != b"a-new-password\n":
                raise RuntimeError(f"the last add did not land: {got!r}")
            size = os.path.getsize(vault)
        finally:
            subprocess.run([pwtui, "agent", "stop"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return summary(version), summary(adds), size


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("pwtui")
    parser.add_argument("bench")
    parser.add_argument("--counts", default="1000,10000,100000")
    parser.add_argument("--runs", type=int, default=40)
    arguments = parser.parse_args()
    rows = []
    for count in (int(c) for c in arguments.counts.split(",")):
        (version, _), (add, add90), size = run(arguments.pwtui, arguments.bench, count, arguments.runs)
        rows.append((count, version, add, add90, size))
    print("| credentials | vault file | --version | add median | add p90 | add / --version |")
    print("|---|---|---|---|---|---|")
    for count, version, add, add90, size in rows:
        print(f"| {count:,} | {size / 1e6:.1f} MB | {version:.2f} ms | {add:.2f} ms | {add90:.2f} ms | {add / version:.2f}x |")
    first = rows[0][2]
    for count, _, add, _, _ in rows[1:]:
        print(f"add at {count:,} / add at {rows[0][0]:,}: {add / first:.2f}x")


if __name__ == "__main__":
    main()
