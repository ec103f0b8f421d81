#!/usr/bin/env python3
"""Bulk import timing (issue 15): `pwtui import` of 10,000 entries in each big format.

Run by hand: `make bench-import` (or `python3 Benchmarks/import/import.py .build/release/pwtui`).
Every run imports into a fresh copy of the same empty vault (init once, `--kdf interactive`),
so each one pays one key derivation, the reading, the plan, and one save of the whole vault.
The key derivation is measured alone (`pwtui export` of that empty vault: an unlock and
nothing else to do) and subtracted: the goal is 10,000 entries in under 2 s, KDF excluded. The data is
deterministic (a seeded generator), written 0600 in a temporary directory, and checked after
each import (the count, and one password read back). Secrets never travel in argv.
"""
import argparse
import base64
import csv
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

MASTER = "bench import master"


def entries(count, seed=15):
    rng = random.Random(seed)
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
    result = []
    for number in range(count):
        domain = f"site{number // 3}.example{'' if number % 5 else '.co.uk'}"
        username = f"user{number}@mail.example"
        password = "".join(rng.choice(alphabet + "!\"#,;") for _ in range(20))
        notes = f"note {number}\nwith a second line, and \"quotes\"" if number % 7 == 0 else ""
        result.append((domain, username, password, notes))
    return result


def private_file(path):
    return os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w", newline="", encoding="utf-8")


def write_chrome(path, rows):
    with private_file(path) as file:
        writer = csv.writer(file)
        writer.writerow(["name", "url", "username", "password", "note"])
        for domain, username, password, notes in rows:
            writer.writerow([domain, f"https://{domain}/login", username, password, notes])


def write_bitwarden_json(path, rows):
    items = [{"id": str(uuid.UUID(int=n + 1)), "type": 1, "name": domain, "notes": notes or None, "favorite": False,
              "login": {"uris": [{"match": None, "uri": f"https://{domain}/"}], "username": username,
                        "password": password, "totp": None},
              "revisionDate": "2024-01-01T00:00:00.000Z", "creationDate": "2023-01-01T00:00:00.000Z"}
             for n, (domain, username, password, notes) in enumerate(rows)]
    with private_file(path) as file:
        json.dump({"encrypted": False, "folders": [], "items": items}, file, indent=2)


def write_keepass_xml(path, rows):
    with private_file(path) as file:
        file.write('<?xml version="1.0" encoding="utf-8"?>\n<KeePassFile><Meta><Generator>bench</Generator></Meta><Root><Group>'
                   f"<UUID>{base64.b64encode(uuid.UUID(int=0).bytes).decode()}</UUID><Name>Root</Name>\n")
        for n, (domain, username, password, notes) in enumerate(rows):
            fields = [("Title", domain), ("UserName", username), ("Password", password), ("URL", f"https://{domain}/"), ("Notes", notes)]
            file.write(f"<Entry><UUID>{base64.b64encode(uuid.UUID(int=n + 1).bytes).decode()}</UUID>"
                       "<Times><CreationTime>2023-01-01T00:00:00Z</CreationTime><LastModificationTime>2024-01-01T00:00:00Z"
                       "</LastModificationTime></Times>"
                       + "".join(f"<String><Key>{k}</Key><Value>{escape(v)}</Value></String>" for k, v in fields) + "</Entry>\n")
        file.write("</Group></Root></KeePassFile>\n")


class Bench:
    def __init__(self, binary, root):
        self.binary = binary
        self.root = root
        self.master = f"{root}/master"
        with private_file(self.master) as file:
            file.write(MASTER + "\n")
        self.empty = f"{root}/empty.pwtui"
        self.env = dict(os.environ, XDG_DATA_HOME=f"{root}/data", XDG_CONFIG_HOME=f"{root}/config",
                        XDG_STATE_HOME=f"{root}/state", XDG_RUNTIME_DIR=f"{root}/runtime")
        self.env = {k: v for k, v in self.env.items() if not k.startswith("PWTUI_")}
        for folder in ("data", "config", "state", "runtime"):
            os.makedirs(f"{root}/{folder}", mode=0o700, exist_ok=True)
        self.pwtui(["init", "--kdf", "interactive", "--vault", self.empty])

    def pwtui(self, arguments, check=True):
        with open(self.master, "rb") as master:
            done = subprocess.run([self.binary, *arguments, "--master-password-fd", "0"], stdin=master, env=self.env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if check and done.returncode != 0:
            sys.exit(f"pwtui {' '.join(arguments)} failed ({done.returncode}): {done.stderr.decode()}")
        return done

    def timed(self, arguments, vault):
        shutil.copyfile(self.empty, vault)
        os.chmod(vault, 0o600)
        start = time.perf_counter()
        done = self.pwtui(arguments + ["--vault", vault])
        return time.perf_counter() - start, done


def write_large_chrome(path, megabytes):
    """A Chrome CSV of about `megabytes` MB that one vault can hold (128 MiB of payload): 100,000
    logins per 100 MB, 1 kB each (a long note), so that the file, not the count, is what is large."""
    rng = random.Random(23)
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
    count = max(1, megabytes * 1000)
    filler = " ".join(f"word{n}" for n in range(200))
    with private_file(path) as file:
        writer = csv.writer(file)
        writer.writerow(["name", "url", "username", "password", "note"])
        for number in range(count):
            domain = f"site{number}.example"
            password = "".join(rng.choice(alphabet + "!\"#,;") for _ in range(20))
            note = f"note {number}, \"quoted\"\n" + filler[: 880 + number % 50]
            writer.writerow([domain, f"https://{domain}/login", f"user{number}@mail.example", password, note])
    return count


def memory(binary, megabytes):
    """Peak memory of one import of a large Chrome CSV (issue 23: at most 4x the file), measured
    with GNU time's maximum resident set size, with the unlock's alone (an export of the empty
    vault) beside it."""
    with tempfile.TemporaryDirectory(prefix="pwtui-bench-import-memory-") as root:
        bench = Bench(binary, root)
        export = f"{root}/large.csv"
        count = write_large_chrome(export, megabytes)
        size = os.path.getsize(export)
        vault = f"{root}/vault.pwtui"

        def peak(arguments):
            shutil.copyfile(bench.empty, vault)
            with open(bench.master, "rb") as master:
                done = subprocess.run(["/usr/bin/time", "-f", "%M %e", binary, *arguments, "--vault", vault,
                                       "--master-password-fd", "0"], stdin=master, env=bench.env,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            if done.returncode != 0:
                sys.exit(f"pwtui {' '.join(arguments)} failed ({done.returncode}): {done.stderr.decode()[-2000:]}")
            kib, seconds = done.stderr.decode().strip().splitlines()[-1].split()
            return int(kib) * 1024, float(seconds)

        unlock, _ = peak(["export", "--format", "csv"])
        imported, seconds = peak(["import", export])
        listed = json.loads(bench.pwtui(["list", "--format", "json", "--vault", vault]).stdout)
        assert len(listed) == count, f"{len(listed)} credentials, not {count}"
        print(f"| file | entries | peak RSS (import) | × file | unlock alone | time |")
        print("|---|---|---|---|---|---|")
        print(f"| {size / 1e6:.1f} MB | {count:,} | {imported / 1e6:.0f} MB | {imported / size:.2f} | {unlock / 1e6:.0f} MB | {seconds:.1f} s |")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--memory", type=int, metavar="MB",
                        help="instead: the peak memory of importing a Chrome CSV of about MB megabytes (100 for issue 23)")
    options = parser.parse_args()
    binary = os.path.abspath(options.binary)
    if options.memory:
        return memory(binary, options.memory)
    rows = entries(options.count)
    with tempfile.TemporaryDirectory(prefix="pwtui-bench-import-") as root:
        bench = Bench(binary, root)
        vault = f"{root}/vault.pwtui"
        unlock = []
        for _ in range(options.runs):
            shutil.copyfile(bench.empty, vault)
            start = time.perf_counter()
            bench.pwtui(["export", "--format", "csv", "--vault", vault])
            unlock.append(time.perf_counter() - start)
        kdf = statistics.median(unlock)
        print(f"{options.count:,} entries, {options.runs} runs each, medians; unlock alone (KDF + process): {kdf * 1000:.0f} ms\n")
        print("| format | file | import | KDF excluded | goal ≤ 2 s |")
        print("|---|---|---|---|---|")
        for name, writer, extension in (("Chrome CSV", write_chrome, "csv"), ("Bitwarden JSON", write_bitwarden_json, "json"),
                                        ("KeePass 2 XML", write_keepass_xml, "xml")):
            export = f"{root}/export.{extension}"
            writer(export, rows)
            times = []
            for _ in range(options.runs):
                elapsed, done = bench.timed(["import", export], vault)
                times.append(elapsed)
            listed = json.loads(bench.pwtui(["list", "--format", "json", "--vault", vault]).stdout)
            assert len(listed) == options.count, f"{name}: {len(listed)} credentials, not {options.count}"
            domain, username, password, _ = rows[123]
            identifier = next(item["id"] for item in listed if item["username"] == username)
            got = bench.pwtui(["get", "--id", identifier, "--vault", vault]).stdout.decode().rstrip("\n")
            assert got == password, f"{name}: a wrong password read back"
            median = statistics.median(times)
            size = os.path.getsize(export)
            verdict = "✓" if median - kdf <= 2 else "✗"
            print(f"| {name} | {size / 1e6:.1f} MB | {median * 1000:.0f} ms | {(median - kdf) * 1000:.0f} ms | {verdict} |")
            os.unlink(export)


if __name__ == "__main__":
    main()
