#!/usr/bin/env python3
"""Issue 40's benchmark: ITEMS items created one by one, then read back one by one (a search by
their attributes, then the secret over secretstorage's DH session), through Python's
secretstorage, against pwtui's Secret Service and against gnome-keyring, side by side in one run,
each on a private session bus of its own (dbus-run-session) with a new, empty keyring:

- pwtui: a new vault (`pwtui init`, the default key derivation) in a home of its own, an agent
  (`pwtui agent start`, `pwtui unlock`), and `pwtui-secret-service` from BIN_DIR serving it;
- gnome-keyring: `gnome-keyring-daemon --foreground --components=secrets --unlock`, the login
  keyring's password on its stdin, in a home of its own.

The two alternate, ROUNDS times each; it prints every round's per-item milliseconds and the
medians, and the issue's targets (create in at most half of gnome-keyring's time, read in no
more than its time). Run it with a Python that has secretstorage (the tests' environment:
`make python-tests`), as `make bench-secret-service` does:

    .build/python-tests/venv/bin/python3 Benchmarks/secret-service/secret-service.py BIN_DIR [--items 300] [--rounds 3]
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, time

PASSWORD = b"correct horse battery staple\n"


def wait_for_name(connection):
    from jeepney import message_bus
    for _ in range(400):
        if connection.send_and_get_reply(message_bus.NameHasOwner("org.freedesktop.secrets")).body[0]:
            return
        time.sleep(0.05)
    sys.exit("org.freedesktop.secrets was never owned")


def start_pwtui(bin_dir, home):
    """The vault, an unlocked agent, and pwtui-secret-service; what to stop afterwards."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("PWTUI_", "XDG_"))}
    for name, sub in [("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"), ("XDG_STATE_HOME", "state"),
                      ("XDG_RUNTIME_DIR", "runtime")]:
        environment[name] = os.path.join(home, sub)
        os.makedirs(environment[name], mode=0o700)
    os.makedirs(os.path.join(home, "config", "pwtui"))
    with open(os.path.join(home, "config", "pwtui", "config.toml"), "w") as f:
        f.write('agent = "off"\n')
    environment["PWTUI_VAULT"] = os.path.join(home, "vault", "vault.pwtui")
    pwtui = os.path.join(bin_dir, "pwtui")

    def run(*arguments, password=False):
        read, write = os.pipe()
        os.write(write, PASSWORD)
        os.close(write)
        extra = ["--master-password-fd", str(read)] if password else []
        subprocess.run([pwtui, *arguments, *extra], env=environment, pass_fds=(read,), check=True,
                       stdout=subprocess.DEVNULL)
        os.close(read)

    run("init", password=True)
    run("agent", "start", "--idle-timeout", "1h")
    run("unlock", password=True)
    service = subprocess.Popen([os.path.join(bin_dir, "pwtui-secret-service")], env=environment)

    def stop():
        service.terminate()
        service.wait()
        subprocess.run([pwtui, "agent", "stop"], env=environment, stdout=subprocess.DEVNULL)
    return stop


def start_gnome_keyring(home):
    environment = dict(os.environ, HOME=home, XDG_DATA_HOME=os.path.join(home, "data"),
                       XDG_RUNTIME_DIR=os.path.join(home, "runtime"))
    os.makedirs(environment["XDG_RUNTIME_DIR"], mode=0o700)
    daemon = subprocess.Popen(["gnome-keyring-daemon", "--foreground", "--components=secrets", "--unlock"],
                              stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, env=environment)
    daemon.stdin.write(PASSWORD)
    daemon.stdin.close()

    def stop():
        daemon.terminate()
        daemon.wait()
    return stop


def inner(service, bin_dir, items):
    """On the private bus: start the service, time the creates and the reads, print JSON."""
    import secretstorage
    home = tempfile.mkdtemp(prefix="pwtui-bench-secret-service-")
    try:
        stop = start_pwtui(bin_dir, home) if service == "pwtui" else start_gnome_keyring(home)
        try:
            connection = secretstorage.dbus_init()
            wait_for_name(connection)
            collection = secretstorage.get_default_collection(connection)
            collection.ensure_not_locked()
            secrets = [os.urandom(24).hex().encode() for _ in range(items)]
            started = time.perf_counter()
            for i, secret in enumerate(secrets):
                collection.create_item("Benchmark item %d" % i, {"bench": "secret-service", "n": str(i)}, secret)
            created = time.perf_counter() - started
            started = time.perf_counter()
            for i, secret in enumerate(secrets):
                found = list(collection.search_items({"bench": "secret-service", "n": str(i)}))
                if len(found) != 1 or found[0].get_secret() != secret:
                    sys.exit("%s: item %d read back wrong" % (service, i))
            read = time.perf_counter() - started
            print(json.dumps({"create": created / items * 1000, "read": read / items * 1000}))
        finally:
            stop()
    finally:
        shutil.rmtree(home, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bin_dir")
    parser.add_argument("--items", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--inner", choices=["pwtui", "gnome-keyring"], help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.inner:
        return inner(arguments.inner, arguments.bin_dir, arguments.items)
    results = {"pwtui": [], "gnome-keyring": []}
    for round in range(arguments.rounds):
        for service in results:
            run = subprocess.run(["dbus-run-session", "--", sys.executable, os.path.abspath(__file__),
                                  arguments.bin_dir, "--items", str(arguments.items), "--inner", service],
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL if service == "gnome-keyring" else None,
                                 check=True)
            result = json.loads(run.stdout.decode().strip().splitlines()[-1])
            results[service].append(result)
            print("round %d  %-13s create %6.2f ms/item  read %6.2f ms/item" % (
                round + 1, service, result["create"], result["read"]), flush=True)
    medians = {s: {k: statistics.median(r[k] for r in rs) for k in ("create", "read")} for s, rs in results.items()}
    print("\n%d items, median of %d rounds, per item:" % (arguments.items, arguments.rounds))
    print("%-13s %10s %10s" % ("", "create", "read"))
    for service, median in medians.items():
        print("%-13s %7.2f ms %7.2f ms" % (service, median["create"], median["read"]))
    create = medians["pwtui"]["create"] / medians["gnome-keyring"]["create"]
    read = medians["pwtui"]["read"] / medians["gnome-keyring"]["read"]
    print("pwtui / gnome-keyring: create %.2fx (target <= 0.5x: %s), read %.2fx (target <= 1x: %s)" % (
        create, "met" if create <= 0.5 else "NOT met", read, "met" if read <= 1 else "NOT met"))


if __name__ == "__main__":
    main()
