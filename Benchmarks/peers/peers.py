#!/usr/bin/env python3
"""pwtui beside its peers: the everyday commands, timed in one run on one machine (issue 14).

    peers.py PWTUI [--counts 1000,10000] [--runs 30] [--keep DIR] [--peers pass,gopass,age,keepassxc-cli]

Run by hand (`make bench-peers`, which builds the release binary and installs the peers from
Debian), never by the tests. PWTUI is the binary to time, built as users get it.

The peers, and what stands for each of their commands:
  pass 1.7          a gpg file per entry, `pass show NAME`
  gopass (Debian)   the same store, `gopass show NAME`
  age 1.1           passage's data path: an age file per entry, `age -d -i KEY FILE`
  keepassxc-cli 2.7 one KDBX database, unlocked by every command (it has no agent)
  tree              pass's `pass ls` without the bash around it: the floor for listing

Every tool gets the same deterministic data set: COUNT credentials over about 0.8 x COUNT
domains (every fifth domain has several accounts), notes on every seventh, passwords of 20
characters. Each tool is filled through its own import or insert path, and every tool must print
the right password for a sample of entries before anything is timed.

Secrets never travel in argv, for any tool: passwords reach every command on stdin or from a
0600 file the command reads, and the data set is written under a 0700 temporary directory.

Workloads, each timed by hyperfine (warm cache, fresh processes):
  find      the password for a domain (pwtui: `get DOMAIN` through the unlocked agent; the path
            stores: the first entry under the domain's folder, decrypted; keepassxc: search, then
            show)
  id        the password of one entry by its name or id
  list      every credential's name (pwtui: `list` from the identity store, no unlock)
  suggest   (pwtui only) what would be offered for a domain, locked
  add       one new credential, including every fsync of each tool's own save
  worst     (pwtui only) `get` for a URL that every credential shares a site with
  floor     `pwtui --version`, the process start alone

The table gives each pwtui figure, the best peer's, and the ratio against the goals of issue 14.
`--peers` names the peers to time (all by default); at 100,000 entries keepassxc-cli takes seconds
a command and pass's `pass ls` is tree's, so `--counts 100000 --peers gopass,age` is what a run at
that size needs (gopass still reads pass's store, filled either way).
"""
import argparse
import concurrent.futures
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import uuid

TLDS = ["com", "org", "net", "io", "de", "co.uk"]
PASSWORD_ALPHABET = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789-_.!@#%^*+="
MASTER = "bench-master-password"


def dataset(count, seed=14):
    """The same credentials for every tool: (domain, username, password, notes)."""
    rng = random.Random(seed)
    entries = []
    domain_index = 0
    while len(entries) < count:
        domain = f"shop{domain_index}.{TLDS[domain_index % len(TLDS)]}"
        accounts = rng.randint(2, 4) if domain_index % 5 == 0 else 1
        for account in range(accounts):
            if len(entries) == count:
                break
            number = len(entries)
            password = "".join(rng.choice(PASSWORD_ALPHABET) for _ in range(20))
            notes = f"recovery codes in the safe\nentry {number}" if number % 7 == 0 else ""
            entries.append((domain, f"user{account}.{number}@mail.example", password, notes))
        domain_index += 1
    return entries


def run(command, *, env, stdin=None, check=True):
    result = subprocess.run(command, env=env, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and result.returncode != 0:
        sys.exit(f"{' '.join(command)}: exit {result.returncode}\n{result.stderr.decode(errors='replace')}")
    return result


def write_secret_file(path, text):
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as file:
        file.write(text)


class Tool:
    """One peer or pwtui: how it is filled, and the shell command of each workload."""
    name = ""

    def __init__(self, root, env, entries):
        self.root, self.env, self.entries = root, env, entries

    def commands(self, domain, name):
        return {}


class Pwtui(Tool):
    name = "pwtui"

    def __init__(self, root, env, entries, binary):
        super().__init__(root, env, entries)
        self.binary = binary
        self.home = f"{root}/pwtui"
        for folder in ("data", "config", "state", "runtime"):
            os.makedirs(f"{self.home}/{folder}", mode=0o700)
        self.env = dict(env, PWTUI_VAULT=f"{self.home}/data/vault.pwtui", XDG_DATA_HOME=f"{self.home}/data",
                        XDG_CONFIG_HOME=f"{self.home}/config", XDG_STATE_HOME=f"{self.home}/state",
                        XDG_RUNTIME_DIR=f"{self.home}/runtime")
        self.master = f"{root}/master"
        write_secret_file(self.master, MASTER + "\n")

    def pwtui(self, *arguments, stdin=None, check=True):
        return run([self.binary, *arguments], env=self.env, stdin=stdin, check=check)

    def fill(self):
        master = (MASTER + "\n").encode()
        self.pwtui("init", "--master-password-fd", "0", stdin=master)
        self.pwtui("agent", "start")
        self.pwtui("unlock", "--master-password-fd", "0", stdin=master)
        has_import = self.pwtui("import", "--help", check=False).returncode == 0
        start = time.perf_counter()
        if has_import:
            export = f"{self.root}/pwtui-import.csv"
            write_bitwarden_csv(export, self.entries)
            # import unlocks here, not through the agent: one save of everything, the vault's job.
            self.pwtui("import", export, "--master-password-fd", "0", stdin=master)
            os.unlink(export)
        else:
            for domain, username, password, notes in self.entries:
                self.pwtui("add", domain, "--username", username, "--notes", notes, stdin=(password + "\n").encode())
        elapsed = time.perf_counter() - start
        self.pwtui("list")  # the identity store, for `list` and `suggest` without unlocking
        listed = json.loads(self.pwtui("list", "--format", "json").stdout)
        self.ids = {(item["username"]): item["id"] for item in listed}
        return elapsed, "import" if has_import else "add, one per credential"

    def check(self, domain, username, password):
        printed = self.pwtui("get", "--id", self.ids[username]).stdout.decode().rstrip("\n")
        return printed == password

    def stop(self):
        self.pwtui("agent", "stop", check=False)

    def commands(self, domain, username):
        pwtui, counter = self.binary, f"{self.root}/pwtui-add-counter"
        write_secret_file(counter, "0\n")
        write_secret_file(f"{self.root}/pwtui-new-password", "a-new-password-for-the-add\n")
        return {
            "find": f"{pwtui} get {domain}",
            "id": f"{pwtui} get --id {self.ids[username]}",
            "list": f"{pwtui} list",
            "suggest": f"{pwtui} suggest {domain}",
            "add": (f"read n < {counter}; {pwtui} add added$n.example --username new < {self.root}/pwtui-new-password",
                    f"read n < {counter}; echo $((n+1)) > {counter}"),
            "floor": f"{pwtui} --version",
        }


class PasswordStore(Tool):
    """pass's store, shared by gopass: `DOMAIN/USERNAME.gpg`, the password on the first line."""
    name = "pass"

    def __init__(self, root, env, entries):
        super().__init__(root, env, entries)
        gnupg = f"{root}/gnupg"
        os.makedirs(gnupg, mode=0o700)
        self.store = f"{root}/password-store"
        self.env = dict(env, GNUPGHOME=gnupg, PASSWORD_STORE_DIR=self.store)
        run(["gpg", "--batch", "--passphrase", "", "--quick-gen-key", "bench <bench@example>",
             "future-default", "default", "never"], env=self.env)
        listed = run(["gpg", "--list-keys", "--with-colons"], env=self.env).stdout.decode()
        self.key = next(line.split(":")[9] for line in listed.splitlines() if line.startswith("fpr"))
        run(["pass", "init", self.key], env=self.env)

    def fill(self):
        # pass has no import: its insert, once per entry, is the way in. Above 2,000 entries the
        # rest are encrypted by gpg directly, which is what `pass insert` runs (minus its bash),
        # or filling 10,000 would take minutes; the fill time reported is for the inserts.
        inserted = self.entries[:2000]
        start = time.perf_counter()
        for domain, username, password, notes in inserted:
            content = password + "\n" + (f"login: {username}\n") + (notes + "\n" if notes else "")
            run(["pass", "insert", "-m", "-f", f"{domain}/{username}"], env=self.env, stdin=content.encode())
        elapsed = time.perf_counter() - start
        # The rest by one gpg for a thousand files at a time (--encrypt-files writes NAME.gpg beside
        # each): a gpg process each took most of an hour for 100,000. The plaintext lies in the
        # 0700 temporary directory for that moment, as the data set itself does.
        rest = self.entries[len(inserted):]
        for first in range(0, len(rest), 1000):
            plain = []
            for domain, username, password, notes in rest[first:first + 1000]:
                os.makedirs(f"{self.store}/{domain}", exist_ok=True)
                content = password + "\n" + (f"login: {username}\n") + (notes + "\n" if notes else "")
                write_secret_file(f"{self.store}/{domain}/{username}", content)
                plain.append(f"{self.store}/{domain}/{username}")
            run(["gpg", "--batch", "--yes", "-q", "-r", self.key, "--encrypt-files", *plain], env=self.env)
            for path in plain:
                os.unlink(path)
        return elapsed * len(self.entries) / len(inserted), f"pass insert ({len(inserted)} timed, scaled)"

    def check(self, domain, username, password):
        return run(["pass", "show", f"{domain}/{username}"], env=self.env).stdout.decode().split("\n")[0] == password

    def commands(self, domain, username):
        new = f"{self.root}/pass-new-entry"
        counter = f"{self.root}/pass-add-counter"
        write_secret_file(new, "a-new-password-for-the-add\n")
        write_secret_file(counter, "0\n")
        return {
            "find": f"pass show \"$(cd {self.store} && ls -d {domain}/* | head -1 | sed 's/.gpg$//')\" | head -1",
            "id": f"pass show {domain}/{username}",
            "list": "pass ls",
            "add": (f"read n < {counter}; pass insert -m -f added$n.example/new < {new}",
                    f"read n < {counter}; echo $((n+1)) > {counter}"),
        }


class Gopass(Tool):
    """Debian's gopass, a pass implementation in Go, over pass's store."""
    name = "gopass"

    def __init__(self, root, env, entries, store):
        super().__init__(root, env, entries)
        self.store = store
        self.env = store.env
        # gopass's insert -m takes the entry from $EDITOR; this editor copies a prepared file.
        self.editor = f"{root}/gopass-editor"
        with open(self.editor, "w") as file:
            file.write(f"#!/bin/sh\ncat {root}/gopass-new-entry > \"$1\"\n")
        os.chmod(self.editor, 0o700)
        self.env = dict(self.env, EDITOR=self.editor)

    def fill(self):
        return None, "pass's store"

    def check(self, domain, username, password):
        return run(["gopass", "show", f"{domain}/{username}"], env=self.env).stdout.decode().split("\n")[0] == password

    def commands(self, domain, username):
        counter = f"{self.root}/gopass-add-counter"
        write_secret_file(f"{self.root}/gopass-new-entry", "a-new-password-for-the-add\n")
        write_secret_file(counter, "0\n")
        store = self.store.store
        return {
            "find": f"gopass show \"$(cd {store} && ls -d {domain}/* | head -1 | sed 's/.gpg$//')\" | head -1",
            "id": f"gopass show {domain}/{username}",
            "list": "gopass ls",
            # gopass 1.5 does not create the entry's folder itself.
            "add": (f"read n < {counter}; gopass insert -m -f gadded$n.example/new",
                    f"read n < {counter}; n=$((n+1)); echo $n > {counter}; mkdir -p {store}/gadded$n.example"),
        }


class Age(Tool):
    """passage's data path: `DOMAIN/USERNAME.age`, encrypted to one age identity."""
    name = "age"

    def __init__(self, root, env, entries):
        super().__init__(root, env, entries)
        self.store = f"{root}/age-store"
        self.identity = f"{root}/age-identity"
        run(["age-keygen", "-o", self.identity], env=env)
        self.recipient = run(["age-keygen", "-y", self.identity], env=env).stdout.decode().strip()

    def fill(self):
        def encrypt(entry):
            domain, username, password, notes = entry
            content = password + "\n" + f"login: {username}\n" + (notes + "\n" if notes else "")
            run(["age", "-r", self.recipient, "-o", f"{self.store}/{domain}/{username}.age"], env=self.env,
                stdin=content.encode())

        for domain in {entry[0] for entry in self.entries}:
            os.makedirs(f"{self.store}/{domain}", exist_ok=True)
        start = time.perf_counter()
        # One age process per entry, as many at once as there are cores (100,000 took minutes).
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count()) as pool:
            list(pool.map(encrypt, self.entries))
        return time.perf_counter() - start, f"age -e per entry, {os.cpu_count()} at once"

    def check(self, domain, username, password):
        printed = run(["age", "-d", "-i", self.identity, f"{self.store}/{domain}/{username}.age"], env=self.env)
        return printed.stdout.decode().split("\n")[0] == password

    def commands(self, domain, username):
        counter = f"{self.root}/age-add-counter"
        write_secret_file(f"{self.root}/age-new-entry", "a-new-password-for-the-add\n")
        write_secret_file(counter, "0\n")
        return {
            "find": f"age -d -i {self.identity} \"$(ls -d {self.store}/{domain}/* | head -1)\" | head -1",
            "id": f"age -d -i {self.identity} {self.store}/{domain}/{username}.age",
            "list": f"tree {self.store}",
            "add": (f"read n < {counter}; age -r {self.recipient} -o {self.store}/added$n.age < {self.root}/age-new-entry",
                    f"read n < {counter}; echo $((n+1)) > {counter}"),
        }


class KeePassXC(Tool):
    """keepassxc-cli over one KDBX database; every command unlocks it (the fastest KDF it allows: 100 ms of decryption time)."""
    name = "keepassxc-cli"

    def __init__(self, root, env, entries):
        super().__init__(root, env, entries)
        self.database = f"{root}/keepassxc.kdbx"
        self.master = f"{root}/keepassxc-master"
        write_secret_file(self.master, MASTER + "\n")

    @staticmethod
    def title(domain, username):
        return f"{domain} {username}"

    def fill(self):
        xml = f"{self.root}/keepassxc-import.xml"
        write_keepass_xml(xml, self.entries, self.title)
        start = time.perf_counter()
        run(["keepassxc-cli", "import", "-q", "-p", "-t", "100", xml, self.database], env=self.env,
            stdin=(MASTER + "\n" + MASTER + "\n").encode())
        elapsed = time.perf_counter() - start
        os.unlink(xml)
        return elapsed, "keepassxc-cli import (XML)"

    def check(self, domain, username, password):
        printed = run(["keepassxc-cli", "show", "-q", "-s", "-a", "Password", self.database, self.title(domain, username)],
                      env=self.env, stdin=(MASTER + "\n").encode())
        return printed.stdout.decode().split("\n")[0] == password

    def commands(self, domain, username):
        counter = f"{self.root}/keepassxc-add-counter"
        write_secret_file(counter, "0\n")
        write_secret_file(f"{self.root}/keepassxc-add-input", MASTER + "\na-new-password-for-the-add\n")
        cli = f"keepassxc-cli"
        return {
            "find": f"{cli} show -q -s -a Password {self.database} \"$({cli} search -q {self.database} {domain} "
                    f"< {self.master} | head -1)\" < {self.master}",
            "id": f"{cli} show -q -s -a Password {self.database} '{self.title(domain, username)}' < {self.master}",
            "list": f"{cli} ls -q -R -f {self.database} < {self.master}",
            "add": (f"read n < {counter}; {cli} add -q -p {self.database} added$n < {self.root}/keepassxc-add-input",
                    f"read n < {counter}; echo $((n+1)) > {counter}"),
        }


def write_bitwarden_csv(path, entries):
    import csv
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(["folder", "favorite", "type", "name", "notes", "fields", "reprompt", "login_uri",
                         "login_username", "login_password", "login_totp"])
        for domain, username, password, notes in entries:
            writer.writerow(["", "", "login", domain, notes, "", "0", f"https://{domain}/", username, password, ""])


def write_keepass_xml(path, entries, title):
    from xml.sax.saxutils import escape
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    import base64
    with os.fdopen(descriptor, "w") as file:
        file.write('<?xml version="1.0" encoding="UTF-8"?>\n<KeePassFile><Meta><Generator>peers.py</Generator></Meta>'
                   "<Root><Group><UUID>" + base64.b64encode(uuid.UUID(int=1).bytes).decode() + "</UUID><Name>Root</Name>\n")
        for number, (domain, username, password, notes) in enumerate(entries):
            fields = [("Title", title(domain, username)), ("UserName", username), ("Password", password),
                      ("URL", f"https://{domain}/"), ("Notes", notes)]
            file.write("<Entry><UUID>" + base64.b64encode(uuid.UUID(int=number + 2).bytes).decode() + "</UUID>"
                       + "".join(f"<String><Key>{key}</Key><Value>{escape(value)}</Value></String>" for key, value in fields)
                       + "</Entry>\n")
        file.write("</Group></Root></KeePassFile>\n")


def peak_memory_kib(command, env):
    """The peak resident set of one fresh process, by GNU time. (ru_maxrss read from Python counts
    Python's own 14 MB: the high-water mark survives the fork and exec.)"""
    result = run(["/usr/bin/time", "-f", "%M", *command], env=env)
    return int(result.stderr.decode().strip().splitlines()[-1])


def hyperfine(label, command, env, runs, prepare=None):
    """Median and minimum in ms of one shell command over `runs` fresh processes."""
    with tempfile.NamedTemporaryFile(suffix=".json") as output:
        arguments = ["hyperfine", "--style", "none", "--warmup", "3", "--runs", str(runs), "--export-json", output.name]
        if prepare:
            arguments += ["--prepare", prepare]
        result = subprocess.run(arguments + ["--command-name", label, command], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if result.returncode != 0:
            sys.exit(f"hyperfine {label}: {result.stderr.decode(errors='replace')}")
        measured = json.load(open(output.name))["results"][0]
        return measured["median"] * 1000, measured["min"] * 1000


GOALS = {
    # workload: (what pwtui is compared with, allowed ratio)
    "find": ("age", 1.5),
    "id": ("age", 1.5),
    "list": ("tree", 1.5),
    "add": ("gopass", 0.5),  # issue 37: a change costs what it changes
}


def bench(count, runs, binary, root, peers):
    env = dict(os.environ)
    for key in [k for k in env if k.startswith(("PWTUI_", "XDG_", "GNUPGHOME", "PASSWORD_STORE", "EDITOR"))]:
        del env[key]
    entries = dataset(count)
    pwtui = Pwtui(root, env, entries, binary)
    store = PasswordStore(root, env, entries)
    tools = [pwtui, store, Gopass(root, env, entries, store), Age(root, env, entries), KeePassXC(root, env, entries)]
    # pass's store is filled whenever gopass is timed: gopass reads it.
    filled = [tool for tool in tools if tool is pwtui or tool.name in peers or (tool is store and "gopass" in peers)]
    tools = [tool for tool in tools if tool is pwtui or tool.name in peers]
    fills = {}
    try:
        for tool in filled:
            fills[tool.name] = tool.fill()
        # The domain asked for has several accounts (the first domain of each group of five).
        sample = [entries[0], entries[len(entries) // 2], entries[-1]]
        for tool in tools:
            for domain, username, password, _ in sample:
                if not tool.check(domain, username, password):
                    sys.exit(f"{tool.name} does not return the right password for {domain}/{username}: not timing")
        domain, username = entries[len(entries) // 2][0], entries[len(entries) // 2][1]
        table = {}
        for tool in tools:
            for workload, command in tool.commands(domain, username).items():
                command, prepare = command if isinstance(command, tuple) else (command, None)
                table[(tool.name, workload)] = hyperfine(f"{tool.name} {workload}", command, tool.env, runs, prepare)
        table[("tree", "list")] = hyperfine("tree", f"tree {store.store}", env, runs)
        # The worst case: a URL of a site that every credential is put on, in a vault of its own.
        table[("pwtui", "worst")] = worst_case(root, env, binary, count, runs)
        memory = peak_memory_kib([binary, "get", domain], pwtui.env)
    finally:
        pwtui.stop()
    return fills, table, memory


def worst_case(root, env, binary, count, runs):
    """`get` for a host of a site that all `count` credentials share (ranking cannot stop early)."""
    worst_root = f"{root}/worst"
    os.makedirs(worst_root)
    entries = [("login.example.com" if number % 2 else "example.com", username, password, notes)
               for number, (_, username, password, notes) in enumerate(dataset(count))]
    tool = Pwtui(worst_root, env, entries, binary)
    try:
        tool.fill()
        return hyperfine("pwtui worst", f"{binary} get https://www.example.com/login", tool.env, runs)
    finally:
        tool.stop()


def report(count, fills, table, memory):
    print(f"\n## {count:,} credentials\n")
    print("| workload | pwtui | pass | gopass | age | keepassxc-cli | tree | goal | met |")
    print("|---|---|---|---|---|---|---|---|---|")
    for workload in ("find", "id", "list", "add"):
        cells = []
        for name in ("pwtui", "pass", "gopass", "age", "keepassxc-cli", "tree"):
            measured = table.get((name, workload))
            cells.append(f"{measured[0]:.1f}" if measured else "")
        against, allowed = GOALS[workload]
        if (against, workload) not in table:
            print(f"| {workload} | " + " | ".join(cells) + f" | ≤ {allowed}× {against} | ({against} not timed) |")
            continue
        ratio = table[("pwtui", workload)][0] / table[(against, workload)][0]
        print(f"| {workload} | " + " | ".join(cells) + f" | ≤ {allowed}× {against} | {ratio:.2f}× {'yes' if ratio <= allowed else 'no'} |")
    floor = table[("pwtui", "floor")][0]
    for workload in ("find", "id"):
        ratio = table[("pwtui", workload)][0] / floor
        print(f"| {workload} vs `pwtui --version` ({floor:.1f}) | {table[('pwtui', workload)][0]:.1f} |||||| ≤ 2× | "
              f"{ratio:.2f}× {'yes' if ratio <= 2 else 'no'} |")
    suggest = table[("pwtui", "suggest")][0]
    ratio = suggest / table[("tree", "list")][0]
    print(f"| suggest | {suggest:.1f} |||||| ≤ 1.5× tree | {ratio:.2f}× {'yes' if ratio <= 1.5 else 'no'} |")
    worst = table[("pwtui", "worst")][0]
    ratio = worst / table[("pwtui", "find")][0]
    print(f"| worst case (one site) | {worst:.1f} |||||| ≤ 3× find | {ratio:.2f}× {'yes' if ratio <= 3 else 'no'} |")
    print(f"| peak memory, fresh `get` | {memory / 1024:.1f} MiB |||||| ≤ 10 MB | {'yes' if memory * 1024 <= 10_000_000 else 'no'} |")
    print("\nMedians in ms (hyperfine). Fill, once each:")
    for name, (seconds, how) in fills.items():
        if seconds is not None:
            print(f"- {name}: {seconds:.2f} s ({how})")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pwtui")
    parser.add_argument("--counts", default="1000,10000")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--keep", help="build the data sets under DIR and leave them there")
    parser.add_argument("--peers", default="pass,gopass,age,keepassxc-cli", help="the peers to time, by name")
    arguments = parser.parse_args()
    for tool in ("pass", "gopass", "age", "keepassxc-cli", "hyperfine", "tree", "gpg", "/usr/bin/time"):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} is not installed: `make bench-peers` installs the peers from Debian")
    binary = os.path.abspath(arguments.pwtui)
    print(f"pwtui beside its peers, {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, {binary}")
    for count in (int(text) for text in arguments.counts.split(",")):
        root = tempfile.mkdtemp(prefix=f"pwtui-peers-{count}-", dir=arguments.keep)
        os.chmod(root, 0o700)
        try:
            report(count, *bench(count, arguments.runs, binary, root, set(arguments.peers.split(","))))
        finally:
            if not arguments.keep:
                shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
