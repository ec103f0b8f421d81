#!/usr/bin/env python3
"""The agent under load (issue 35): the latency of `get` on the agent's socket with CLIENTS clients
asking at once while a writer (`pwtui add`, one after another) and an audit (`pwtui audit`, one
after another) run, beside one client asking alone. Run by hand, never by the tests.

    load.py PWTUI [COUNT ...] [--clients N] [--requests R] [--without writer|audit]... [--threads]

PWTUI is the binary (build it as users get it: `make release`). For each COUNT (default 1000 and
10000) a vault of COUNT credentials is imported from a generated CSV, with an RSA-4096 SSH key and
a 20,000-character password (what an audit once stalled on), into a temporary directory with its
own XDG directories and agent. The clients speak the agent's protocol directly (one JSON header
line, docs/agent.md), so what is timed is the agent's answer, not a process start. Target: with
8 clients, the 99th percentile of `get` at most 2x a lone client's median.

Each client is a process of its own (forked before the writer and the audit start): eight threads
of one Python process would time each other's Python too, since only one of them runs at a time
(the GIL). Beside the wall figures it prints what the CPU did while the clients asked, from
/proc: the agent's CPU per `get` alone (its utime + stime over the lone gets), the agent's, the
clients', the writer's and audit's processes' and the whole machine's CPU during the loaded phase
(the rest is other work on the machine), and the load average when each run began: on a shared
machine the wall figures mean little without them.
"""
import json
import multiprocessing
import os
import queue
import resource
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


TICKS = os.sysconf("SC_CLK_TCK")


def process_cpu(pid):
    """A process's CPU seconds so far, all its threads, the finished ones included (/proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def machine_cpu():
    """Busy and total CPU seconds of the whole machine so far (/proc/stat), all cores."""
    with open("/proc/stat") as stat:
        values = [int(v) for v in stat.readline().split()[1:]]
    idle = values[3] + values[4]
    return (sum(values[:8]) - idle) / TICKS, sum(values[:8]) / TICKS


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def status(path):
    """The agent's status reply (its pid among it)."""
    with socket.socket(socket.AF_UNIX) as connection:
        connection.connect(path)
        connection.sendall(b'{"body":{"status":{}},"length":0}\n')
        received = b""
        while b"\n" not in received:
            chunk = connection.recv(65536)
            if not chunk:
                break
            received += chunk
    return json.loads(received.split(b"\n", 1)[0])["body"]["status"]["state"]


def client(path, vault, hosts, ready, go, results, who=resource.RUSAGE_SELF):
    """One client process (or thread, `--threads`): its gets, one after another, once every client
    is ready; its latencies and its own CPU seconds back through `results`."""
    ready.wait()
    go.wait()
    latencies = [ask(path, vault, host) for host in hosts]
    usage = resource.getrusage(who)
    results.put((latencies, usage.ru_utime + usage.ru_stime))


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


def run(pwtui, count, clients, requests, without, threads):
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

            agent = status(socket_path)["pid"]
            load = os.getloadavg()

            # Alone: as many gets as all the clients will ask together, for the agent's CPU per get.
            before = process_cpu(agent)
            lone = [ask(socket_path, vault, host) for _ in range(clients) for host in hosts]
            lone_cpu = (process_cpu(agent) - before) / len(lone)

            # The clients exist, connected to nothing yet, before the writer's and the audit's
            # threads do: a fork copies only the thread that forks.
            # `--threads`: the clients as threads of this process, as this benchmark first had them.
            forking = multiprocessing.get_context("fork")
            ready, go, results = forking.Barrier(clients + 1), forking.Event(), forking.Queue()
            make, who = forking.Process, resource.RUSAGE_SELF
            if threads:
                ready, go, results = threading.Barrier(clients + 1), threading.Event(), queue.Queue()
                make, who = threading.Thread, resource.RUSAGE_THREAD
            processes = [make(target=client, args=(socket_path, vault, hosts[i * 13:] + hosts[:i * 13],
                                                   ready, go, results, who)) for i in range(clients)]
            for process in processes:
                process.start()

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

            helpers = [threading.Thread(target=work) for name, work in (("writer", writer), ("audit", auditor))
                       if name not in without]
            for thread in helpers:
                thread.start()
            time.sleep(0.5)  # both under way before the clients start
            ready.wait()
            agent_before, machine_before, children_before = process_cpu(agent), machine_cpu(), children_cpu()
            started = time.perf_counter()
            go.set()
            loaded, clients_cpu = [], 0.0
            for _ in processes:
                latencies, seconds = results.get()
                loaded.extend(latencies)
                clients_cpu += seconds
            elapsed = time.perf_counter() - started
            agent_cpu = process_cpu(agent) - agent_before
            busy, total = (after - before for after, before in zip(machine_cpu(), machine_before))
            stop.set()
            for thread in helpers:
                thread.join()
            for process in processes:
                process.join()
            # The helpers' processes ran past the clients' end; this is their CPU to the end of their last.
            helpers_cpu = children_cpu() - children_before - (0 if threads else clients_cpu)
        finally:
            pwtui_run("agent", "stop")
        median = statistics.median(lone)
        p99 = percentile(loaded, 0.99)
        print(f"{count:>7} credentials | load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the start")
        print(f"  alone:  median {median:6.2f} ms, p99 {percentile(lone, 0.99):6.2f} ms over {len(lone)} gets | "
              f"agent CPU {lone_cpu * 1000:5.3f} ms per get")
        print(f"  {clients} client {'threads' if threads else 'processes'}{'' if 'writer' in without else ' + writer'}{'' if 'audit' in without else ' + audit'}: "
              f"median {statistics.median(loaded):6.2f} ms, p99 {p99:6.2f} ms, max {max(loaded):6.2f} ms | "
              f"p99 / lone median {p99 / median:5.2f} | {len(loaded)} gets in {elapsed:4.2f} s beside "
              f"{background['writes']} adds and {background['audits']} audits")
        print(f"  CPU while they asked ({elapsed:4.2f} s, {total / elapsed:3.1f} cores): machine busy {busy:5.2f} s, "
              f"agent {agent_cpu:5.2f} s ({agent_cpu / len(loaded) * 1000:5.3f} ms per get, audits' and adds' work "
              f"included), clients {clients_cpu:5.2f} s ({clients_cpu / len(loaded) * 1000:5.3f} ms per get), "
              f"adds' and audits' processes {helpers_cpu:5.2f} s (to their end), "
              f"rest {max(0.0, busy - agent_cpu - clients_cpu - helpers_cpu):5.2f} s")


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    clients, requests, without = 8, 200, []
    threads = "--threads" in args
    if threads:
        args.remove("--threads")
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
        run(pwtui, count, clients, requests, without, threads)


if __name__ == "__main__":
    main()
