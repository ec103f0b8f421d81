#!/usr/bin/env python3
"""Writes the link order of the release binary (Resources/pwtui.order): every function the short
commands run, in the order callgrind first lists them, for lld's --symbol-ordering-file.

    generate-order.py PWTUI > Resources/pwtui.order

PWTUI is a release build (`make release`); run by hand, with valgrind installed, after the code
the short commands run has changed much. A stale order costs memory, never correctness: what it
names and the binary lacks is skipped, and what it misses is placed after it.

Why: a fresh process reads its code through the page cache, and the kernel maps 64 kB around
each page it faults in. What `get` ran lay spread over 16 MB of text, so its peak resident set
counted some 8 MB of code it never ran (docs/speed.md, "A fresh get's peak memory").

The commands traced, in a temporary home with an unlocked agent: `--version` (what every command
starts with), `get` of a site, by id and of a field, git's credential helper, `suggest`, `list`,
`totp` and `add`.
"""
import os
import re
import subprocess
import sys
import tempfile

MASTER = b"order-master-password\n"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    pwtui = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="pwtui-order-") as root:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PWTUI_", "XDG_"))}
        for name in ("data", "config", "state", "runtime"):
            os.makedirs(f"{root}/{name}", mode=0o700)
        env.update(PWTUI_VAULT=f"{root}/data/vault.pwtui", XDG_DATA_HOME=f"{root}/data",
                   XDG_CONFIG_HOME=f"{root}/config", XDG_STATE_HOME=f"{root}/state",
                   XDG_RUNTIME_DIR=f"{root}/runtime")

        def pwtui_run(*arguments, stdin=None):
            return subprocess.run([pwtui, *arguments], env=env, input=stdin, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, check=True)

        pwtui_run("init", "--master-password-fd", "0", stdin=MASTER)
        pwtui_run("agent", "start")
        try:
            pwtui_run("unlock", "--master-password-fd", "0", stdin=MASTER)
            for number in range(20):
                pwtui_run("add", f"shop{number}.example", "--username", f"user{number}",
                          stdin=f"password-{number}\n".encode())
            pwtui_run("list")  # the identity store, which suggest and list read
            identifier = pwtui_run("list", "--format", "json").stdout
            identifier = re.search(rb'"id"\s*:\s*"([0-9a-f-]+)"', identifier).group(1).decode()
            traces = [
                (["--version"], None),
                (["get", "shop1.example"], None),
                (["get", "--id", identifier], None),
                (["get", "shop2.example", "--field", "username"], None),
                (["git-credential", "get"], b"protocol=https\nhost=shop3.example\n\n"),
                (["suggest", "shop4.example"], None),
                (["list"], None),
                (["totp", "shop5.example"], None),  # no key: its error path is still what runs
                (["add", "added.example", "--username", "new"], b"a-new-password\n"),
            ]
            names = []
            for index, (arguments, stdin) in enumerate(traces):
                output = f"{root}/callgrind.{index}"
                subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={output}", "--demangle=no",
                                "--compress-strings=no", pwtui, *arguments],
                               env=env, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                with open(output) as trace:
                    for line in trace:
                        match = re.match(r"c?fn=(?:\(\d+\) )?(.+)$", line)
                        # Recursion marks ('2) name the same function; bare addresses name none.
                        if match and not match.group(1).startswith("0x"):
                            names.append(re.sub(r"'\d+$", "", match.group(1)))
        finally:
            subprocess.run([pwtui, "agent", "stop"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    print("\n".join(dict.fromkeys(names)))


if __name__ == "__main__":
    main()
