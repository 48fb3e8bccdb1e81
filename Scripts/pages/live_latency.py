#!/usr/bin/env python3
"""How soon an open published page hears of a change: a release `praykit serve` with a SQLite sync store,
one mosque published through the CLI (as Scripts/pages/load.sh makes it), a reader holding
`/m/elm/events` and another `/m/elm/display/events` (the published screen's stream), and CHANGES iqama
changes made by the mosque's editor with `praykit mosque set …` (which saves the change and pushes it
at once when the device is logged in). For each change it records when the command started and when
each stream said `version` (the page) or `model` (the screen), and prints the median and the largest
delay between them, and how long the command itself took.

Usage: Scripts/pages/live_latency.py [--praykit BINARY] [--changes 20]
(default binary: .build/release/praykit; build it with Scripts/release-flags.sh's flags).
"""

import argparse
import os
import re
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.request


def reader(url, kind, events, stop):
    """Appends (monotonic time, line) for each `event:` line of the stream at url."""
    with urllib.request.urlopen(url, timeout=120) as stream:
        for raw in stream:
            if stop.is_set():
                return
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                events.append((time.monotonic(), kind, line[7:]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--praykit", default=".build/release/praykit")
    parser.add_argument("--changes", type=int, default=20)
    args = parser.parse_args()
    praykit = os.path.abspath(args.praykit)
    work = tempfile.mkdtemp(prefix="praykit-live-latency.")
    store = f"sqlite:{work}/server/sync.sqlite"
    server = subprocess.Popen(
        [praykit, "serve", "--port", "0", "--threads", "2", "--sync-store", store],
        env={**os.environ, "PRAYKIT_DATABASE": f"{work}/server.sqlite"},
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        url = None
        for line in server.stdout:
            match = re.match(r"^Listening on (http:\S+)$", line.strip())
            if match:
                url = match.group(1)
                break
        assert url, "the server did not start"
        users = subprocess.run([praykit, "serve", "sync", "users", "add", "amina", "--sync-store", store],
                               capture_output=True, text=True, check=True).stdout
        code = re.search(r"[A-Z0-9]{5}-[A-Z0-9]{5}", users).group(0)
        with open(f"{work}/machine-id", "w") as handle:
            handle.write(f"live-latency-{os.getpid()}\n")
        home = {**os.environ, "PRAYKIT_DATABASE": f"{work}/home.sqlite", "HOME": work,
                "PRAYKIT_MACHINE_ID_FILE": f"{work}/machine-id"}

        def cli(*words):
            subprocess.run([praykit, *words], env=home, check=True, stdout=subprocess.DEVNULL)

        cli("config", "set", "city", "London")
        cli("sync", "login", "--server", url, "--code", code, "--device-name", "editor")
        cli("mosque", "create", "East London Mosque")
        cli("mosque", "set", "East London Mosque", "--iqama", "fajr=+20,dhuhr=13:30,asr=+10,maghrib=+5,isha=+15")
        cli("mosque", "publish", "East London Mosque", "--slug", "elm")
        events, stop = [], threading.Event()
        for path, kind in (("/m/elm/events", "version"), ("/m/elm/display/events", "model")):
            threading.Thread(target=reader, args=(url + path, kind, events, stop), daemon=True).start()
        while len({kind for _, kind, _ in events}) < 2:
            time.sleep(0.05)
        delays = {"version": [], "model": []}
        commands = []
        for change in range(args.changes):
            seen = len(events)
            started = time.monotonic()
            cli("mosque", "set", "East London Mosque", "--iqama", f"isha=+{16 + change}")
            commands.append(time.monotonic() - started)
            deadline = started + 30
            while time.monotonic() < deadline:
                arrived = {kind: at for at, kind, name in events[seen:] if name == kind}
                if len(arrived) == 2:
                    break
                time.sleep(0.005)
            for kind in delays:
                at = arrived.get(kind)
                delays[kind].append(None if at is None else at - started)
            time.sleep(0.3)
        stop.set()
        print(f"`mosque set` (start-up, save, push, pull): median {statistics.median(commands) * 1000:.0f} ms")
        for kind, name in (("version", "/m/elm/events (the page)"), ("model", "/m/elm/display/events (the screen)")):
            values = [value for value in delays[kind] if value is not None]
            missed = len(delays[kind]) - len(values)
            print(f"{name}: {len(values)} of {args.changes} changes heard, from the command's start: "
                  f"median {statistics.median(values) * 1000:.0f} ms, largest {max(values) * 1000:.0f} ms"
                  + (f", {missed} not within 30 s" if missed else ""))
    finally:
        server.terminate()
        server.wait()
        subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    main()
