#!/usr/bin/env python3
"""The agent under load (issue 35): the latency of `get` on the agent's socket with CLIENTS clients
asking at once while a writer (`pwtui add`, one after another) and an audit (`pwtui audit`, one
after another) run, beside one client asking alone. Run by hand, never by the tests.

    load.py PWTUI [COUNT ...] [--clients N] [--requests R] [--without writer|audit]...

PWTUI is the binary (build it as users get it: `make release`). For each COUNT (default 1000 and
10000) a vault of COUNT credentials is imported from a generated CSV, with an RSA-4096 SSH key and
a 20,000-character password (what an audit once stalled on), into a temporary directory with its
own XDG directories and agent. The clients speak the agent's protocol directly (one JSON header
line, docs/agent.md), so what is timed is the agent's answer, not a process start. Target: with
8 clients, the 99th percentile of `get` at most 2x a lone client's median.
"""
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def ask(path, vault, host):
    """One get on a fresh connection, as `pwtui get` makes it; the milliseconds it took."""
    request = {"body": {"get": {"vault": vault, "query": {"services": [host]}, "field": "password"}}, "length": 0}
    start = time.perf_counter()
    with socket.socket(socket.AF_UNIX) as connection:
        connection.connect(path)
        connection.sendall(json.dumps(request).encode() + b"\n")
        received = b""
        while b"\n" not in received:
            chunk = connection.recv(65536)
            if not chunk:
                raise RuntimeError("the agent closed the connection")
            received += chunk
        header = json.loads(received.split(b"\n", 1)[0])
        rest = received.split(b"\n", 1)[1]
        while len(rest) < header["length"]:
            rest += connection.recv(65536)
    if "credential" not in header["body"]:
        raise RuntimeError(f"unexpected reply: {header['body']}")
    return (time.perf_counter() - start) * 1000


def run(pwtui, count, clients, requests, without):
    with tempfile.TemporaryDirectory(prefix="pwtui-load-") as root:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PWTUI_", "XDG_"))}
        for name in ("data", "config", "state", "runtime"):
            os.makedirs(f"{root}/{name}", mode=0o700)
        vault = f"{root}/data/vault.pwtui"
        env.update(PWTUI_VAULT=vault, XDG_DATA_HOME=f"{root}/data", XDG_CONFIG_HOME=f"{root}/config",
                   XDG_STATE_HOME=f"{root}/state", XDG_RUNTIME_DIR=f"{root}/runtime", NO_COLOR="1")
        password = b"correct horse battery staple 42\n"

        def pwtui_run(*args, stdin=None, locally=False):
            arguments = [pwtui, *args] + (["--master-password-fd", "3"] if locally else [])
            read, write = os.pipe()
            os.write(write, password)
            os.close(write)
            try:
                return subprocess.run(arguments, input=stdin, env=env, pass_fds=(3,) if locally else (),
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      preexec_fn=(lambda: os.dup2(read, 3)) if locally else None)
            finally:
                os.close(read)

        pwtui_run("init", "--kdf", "interactive", locally=True)
        csv = f"{root}/logins.csv"
        with open(csv, "w") as out:
            out.write("name,url,username,password\n")
            for index in range(count):
                out.write(f"s{index},https://s{index}.example,user{index},pw-{index}-{os.urandom(9).hex()}\n")
        imported = pwtui_run("import", csv, locally=True)
        if imported.returncode != 0:
            sys.exit(imported.stderr.decode())
        pwtui_run("agent", "start")
        try:
            pwtui_run("unlock", locally=True)
            pwtui_run("ssh", "generate", "--title", "build key", "--type", "rsa", "--bits", "4096",
                      "--confirm", "never")
            pwtui_run("add", "long.example", "--username", "me", stdin=b"x" * 20_000)
            socket_path = f"{root}/runtime/pwtui/agent.sock"
            hosts = [f"s{(index * 7919) % count}.example" for index in range(requests)]

            lone = [ask(socket_path, vault, host) for host in hosts]

            stop = threading.Event()
            background = {"writes": 0, "audits": 0}

            def writer():
                while not stop.is_set():
                    pwtui_run("add", f"w{background['writes']}.example", "--username", "w", stdin=b"written\n")
                    background["writes"] += 1

            def auditor():
                while not stop.is_set():
                    pwtui_run("audit")
                    background["audits"] += 1

            loaded = []
            lock = threading.Lock()

            def client(offset):
                mine = [ask(socket_path, vault, host) for host in hosts[offset:] + hosts[:offset]]
                with lock:
                    loaded.extend(mine)

            helpers = [threading.Thread(target=work) for name, work in (("writer", writer), ("audit", auditor))
                       if name not in without]
            for thread in helpers:
                thread.start()
            time.sleep(0.5)  # both under way before the clients start
            threads = [threading.Thread(target=client, args=(i * 13,)) for i in range(clients)]
            started = time.perf_counter()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            elapsed = time.perf_counter() - started
            stop.set()
            for thread in helpers:
                thread.join()
        finally:
            pwtui_run("agent", "stop")
        median = statistics.median(lone)
        p99 = percentile(loaded, 0.99)
        print(f"{count:>7} credentials | alone: median {median:6.2f} ms, p99 {percentile(lone, 0.99):6.2f} ms | "
              f"{clients} clients + writer + audit: median {statistics.median(loaded):6.2f} ms, "
              f"p99 {p99:6.2f} ms, max {max(loaded):6.2f} ms | p99 / lone median {p99 / median:4.2f} | "
              f"{len(loaded)} gets in {elapsed:4.1f} s beside {background['writes']} adds and "
              f"{background['audits']} audits")


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    clients, requests, without = 8, 200, []
    while "--without" in args:
        index = args.index("--without")
        without.append(args[index + 1])
        del args[index:index + 2]
    if "--clients" in args:
        index = args.index("--clients")
        clients = int(args[index + 1])
        del args[index:index + 2]
    if "--requests" in args:
        index = args.index("--requests")
        requests = int(args[index + 1])
        del args[index:index + 2]
    pwtui, counts = args[0], [int(c) for c in args[1:]] or [1000, 10000]
    for count in counts:
        run(pwtui, count, clients, requests, without)


if __name__ == "__main__":
    main()
