#!/usr/bin/env python3
"""pwtui audit against a large Have I Been Pwned ordered-hash file, cold and warm page cache,
beside keepassxc-cli analyze --hibp on the same file (issue 29). Run by hand, never by make test:

    make release
    python3 Benchmarks/audit/audit.py .build/release/pwtui [--size-gb 2] [--count 1000] [--runs 5]

It writes (once, kept in --work for later runs) an ordered-hash file of about --size-gb GB:
`HASH:COUNT` lines with CRLF, upper case, as HIBP publishes it, uniformly spread SHA-1 values
with the SHA-1 of --breached of the vault's passwords among them. The vault has --count
credentials (deterministic; random 16-character passwords, so none is weak or reused), filled
by `pwtui import`; keepassxc-cli gets the same entries in a KDBX through its own import.

Cold: `echo 3 > /proc/sys/vm/drop_caches` before each run when root may (it says which), else
posix_fadvise(DONTNEED) on the breach file; `fincore` confirms what is cached before each run.
pwtui is timed through its unlocked agent (what a user has running; the unlock's Argon2id is
the user's chosen cost, not the audit's), and also unlocking itself with --master-password-fd.
Secrets never travel in argv.
"""

import argparse
import base64
import csv
import hashlib
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from xml.sax.saxutils import escape

MASTER = "bench-master-password-audit"


def entries(count, seed=29):
    generator = random.Random(seed)
    alphabet = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789-_!"
    return [(f"site{n}.example", f"user{n}", "".join(generator.choice(alphabet) for _ in range(16)))
            for n in range(count)]


def write_breach_file(path, size_bytes, known, seed=7):
    """About size_bytes of ordered `HASH:COUNT` CRLF lines; the digests in `known` among them."""
    generator = random.Random(seed)
    lines = size_bytes // 46
    stride_bits = 160 - lines.bit_length()  # each line's value: its stratum plus random low bits
    known = sorted(int(digest, 16) for digest in known)
    position = 0
    temporary = path + ".partial"
    with open(temporary, "w", newline="") as file:
        chunk = []
        for index in range(lines):
            value = (index << 160) // lines + generator.getrandbits(stride_bits)
            while position < len(known) and known[position] <= value:
                if known[position] != value:
                    chunk.append(f"{known[position]:040X}:{generator.randint(1, 50000)}\r\n")
                position += 1
            chunk.append(f"{value:040X}:{generator.randint(1, 9999)}\r\n")
            if len(chunk) >= 100000:
                file.write("".join(chunk))
                chunk = []
        chunk += [f"{digest:040X}:3\r\n" for digest in known[position:]]
        file.write("".join(chunk))
    os.rename(temporary, path)


def run(command, env, stdin=None, check=True):
    result = subprocess.run(command, env=env, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and result.returncode != 0:
        sys.exit(f"{' '.join(command)} exited {result.returncode}: {result.stderr.decode(errors='replace')}")
    return result


def cached_pages(path):
    """fincore's RES column for the file (e.g. '0B', '2G')."""
    result = subprocess.run(["fincore", "--noheadings", "--output", "RES", path], stdout=subprocess.PIPE, text=True)
    return result.stdout.strip() or "?"


def make_cold(path, drop_caches):
    if drop_caches:
        subprocess.run(["sync"])
        with open("/proc/sys/vm/drop_caches", "w") as control:
            control.write("3\n")
    else:
        descriptor = os.open(path, os.O_RDONLY)
        os.posix_fadvise(descriptor, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(descriptor)


def can_drop_caches():
    try:
        with open("/proc/sys/vm/drop_caches", "w") as control:
            control.write("3\n")
        return True
    except OSError:
        return False


def timed(command, env, stdin=None, expect=None):
    start = time.perf_counter()
    result = subprocess.run(command, env=env, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if expect is not None and result.returncode not in expect:
        sys.exit(f"{' '.join(command)} exited {result.returncode}: {result.stderr.decode(errors='replace')}")
    return elapsed, result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--size-gb", type=float, default=2.0)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--breached", type=int, default=100)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keepass-runs", type=int, default=3)
    parser.add_argument("--work", default="/var/tmp/pwtui-audit-bench")
    parser.add_argument("--no-drop-caches", action="store_true", help="posix_fadvise DONTNEED only")
    arguments = parser.parse_args()
    binary = os.path.abspath(arguments.binary)

    os.makedirs(arguments.work, exist_ok=True)
    data = entries(arguments.count)
    breached = [hashlib.sha1(password.encode()).hexdigest().upper() for _, _, password in data[:arguments.breached]]
    size = int(arguments.size_gb * 1e9)
    breach_file = f"{arguments.work}/pwned-{arguments.size_gb:g}gb-{arguments.count}-{arguments.breached}.txt"
    if not os.path.exists(breach_file):
        start = time.perf_counter()
        write_breach_file(breach_file, size, breached)
        print(f"wrote {breach_file} ({os.path.getsize(breach_file) / 1e9:.2f} GB) in {time.perf_counter() - start:.0f} s")
    print(f"breach file: {breach_file}, {os.path.getsize(breach_file):,} bytes")

    root = tempfile.mkdtemp(prefix="pwtui-audit-bench-")
    home = f"{root}/pwtui"
    for folder in ("data", "config", "state", "runtime"):
        os.makedirs(f"{home}/{folder}", mode=0o700)
    env = dict(os.environ, PWTUI_VAULT=f"{home}/data/vault.pwtui", XDG_DATA_HOME=f"{home}/data",
               XDG_CONFIG_HOME=f"{home}/config", XDG_STATE_HOME=f"{home}/state", XDG_RUNTIME_DIR=f"{home}/runtime",
               HOME=root)
    master = (MASTER + "\n").encode()
    try:
        pwtui = [binary]
        run(pwtui + ["init", "--master-password-fd", "0"], env, stdin=master)
        export = f"{root}/import.csv"
        descriptor = os.open(export, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", newline="") as file:
            writer = csv.writer(file)
            writer.writerow(["folder", "favorite", "type", "name", "notes", "fields", "reprompt", "login_uri",
                             "login_username", "login_password", "login_totp"])
            for domain, username, password in data:
                writer.writerow(["", "", "login", domain, "", "", "0", f"https://{domain}/", username, password, ""])
        run(pwtui + ["import", export, "--master-password-fd", "0"], env, stdin=master)
        run(pwtui + ["agent", "start"], env)
        run(pwtui + ["unlock", "--master-password-fd", "0"], env, stdin=master)

        drop = not arguments.no_drop_caches and can_drop_caches()
        how = "echo 3 > /proc/sys/vm/drop_caches" if drop else "posix_fadvise(POSIX_FADV_DONTNEED) on the file"
        print(f"cold cache by: {how}")

        # The report is checked once: every planted password found, nothing else.
        _, result = timed(pwtui + ["audit", "--hibp", breach_file, "--format", "json"], env, expect=(3,))
        report = json.loads(result.stdout)
        found = sum(1 for credential in report["credentials"]
                    for finding in credential["findings"] if finding["kind"] == "breached")
        if report["audited"] != arguments.count or found != arguments.breached:
            sys.exit(f"wrong report: audited {report['audited']}, breached {found}")
        print(f"checked: {report['audited']} audited, {found} breached, as planted")

        results = {}

        def measure(label, command, stdin=None, expect=(3,), runs=arguments.runs, cold=False):
            times = []
            for _ in range(runs):
                if cold:
                    make_cold(breach_file, drop)
                resident = cached_pages(breach_file)
                elapsed, _ = timed(command, env, stdin=stdin, expect=expect)
                times.append(elapsed)
                print(f"  {label}: {elapsed * 1000:.0f} ms (file cached before: {resident})", flush=True)
            results[label] = (statistics.median(times), min(times), max(times))

        audit = pwtui + ["audit", "--hibp", breach_file]
        measure("pwtui audit, agent, no --hibp (strength + reuse only)", pwtui + ["audit"], expect=(0, 3))
        measure("pwtui audit --hibp, agent, warm", audit)
        measure("pwtui audit --hibp, agent, cold", audit, cold=True)
        run(pwtui + ["agent", "stop"], env)
        measure("pwtui audit --hibp, unlocking (Argon2id included), warm",
                audit + ["--master-password-fd", "0"], stdin=master)

        keepass = shutil.which("keepassxc-cli")
        if keepass and arguments.keepass_runs > 0:
            database = f"{root}/keepassxc.kdbx"
            xml = f"{root}/keepassxc.xml"
            descriptor = os.open(xml, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "w") as file:
                file.write('<?xml version="1.0" encoding="UTF-8"?>\n<KeePassFile><Meta><Generator>audit.py</Generator>'
                           "</Meta><Root><Group><UUID>" + base64.b64encode(uuid.UUID(int=1).bytes).decode()
                           + "</UUID><Name>Root</Name>\n")
                for number, (domain, username, password) in enumerate(data):
                    fields = [("Title", f"{domain} {username}"), ("UserName", username), ("Password", password),
                              ("URL", f"https://{domain}/")]
                    file.write("<Entry><UUID>" + base64.b64encode(uuid.UUID(int=number + 2).bytes).decode()
                               + "</UUID>" + "".join(f"<String><Key>{key}</Key><Value>{escape(value)}</Value></String>"
                                                     for key, value in fields) + "</Entry>\n")
                file.write("</Group></Root></KeePassFile>\n")
            run([keepass, "import", "-q", "-p", "-t", "100", xml, database], env,
                stdin=(MASTER + "\n" + MASTER + "\n").encode())
            os.unlink(xml)
            analyze = [keepass, "analyze", "-q", "--hibp", breach_file, database]
            _, result = timed(analyze, env, stdin=master)
            # "Password for 'site1.example user1' has been leaked 17 times!", one line per entry.
            listed = result.stdout.decode(errors="replace").count("has been leaked")
            print(f"keepassxc-cli analyze reported {listed} leaked passwords (exit {result.returncode})")
            if listed != arguments.breached:
                sys.exit(f"keepassxc-cli found {listed} of the {arguments.breached} planted: not comparable")
            version = run([keepass, "--version"], env).stdout.decode().strip()
            measure(f"keepassxc-cli {version} analyze --hibp, warm", analyze, stdin=master, expect=None,
                    runs=arguments.keepass_runs)
            measure(f"keepassxc-cli {version} analyze --hibp, cold", analyze, stdin=master, expect=None,
                    runs=arguments.keepass_runs, cold=True)

        print(f"\n{arguments.count} credentials, {os.path.getsize(breach_file) / 1e9:.2f} GB ordered-hash file, "
              f"cold by {how}; seconds (median, min, max of the runs):\n")
        print("| run | median | min | max |")
        print("|---|---|---|---|")
        for label, (median, low, high) in results.items():
            print(f"| {label} | {median:.3f} | {low:.3f} | {high:.3f} |")
    finally:
        subprocess.run([binary, "agent", "stop"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
