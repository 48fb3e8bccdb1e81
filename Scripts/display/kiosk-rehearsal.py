#!/usr/bin/env python3
"""A rehearsal of a mosque's screen by the door, set up as docs/display.md says, in a container.

What a Raspberry Pi by the door would run, as close as a machine without systemd as PID 1 and
without an X or Wayland session can come:

- a sync server (`praykit serve --sync-store …`) where the mosque's owner, on a device of their
  own, publishes the mosque's timetable (20 October 2026 to 40 days past today), iqama rules and
  Jumu'ah;
- the screen's machine (a HOME and XDG folders of its own): a saved place (London) with iqama and
  Jumu'ah through `praykit config set`, then the mosque followed with a viewer's code and chosen
  with `config set mosque` (a device with a place of its own keeps it until told);
- the two systemd user units `praykit display units` prints, written to
  ~/.config/systemd/user/ and run from there by a small supervisor of this script that reads their
  `ExecStart=` (systemd's quoting, `%h`, `%%`, `$$`), starts the kiosk after the server (`After=`)
  has said it is ready (`Type=notify`: a `READY=1` datagram to the socket of `$NOTIFY_SOCKET`, sent
  once it listens), and honours `Restart=always` and
  `RestartSec=` (when a unit's main process ends, what is left of its process group is killed, as
  systemd kills the unit's cgroup, and it is started again after `RestartSec`);
- the kiosk is exactly the unit's Chromium line with only what a headless machine needs appended:
  `--headless=new`, `--remote-debugging-port=…` (Playwright connects to the kiosk's own page over
  CDP), `--screen-info={1920x1080}` (a headless screen is 800x600, and in kiosk mode Chromium fills
  the screen, ignoring `--window-size`; a real kiosk takes its screen's size) and, as root only,
  `--no-sandbox` (Chromium refuses to start as root without it).

Four checks, each printing PASS or FAIL with what it read and writing a screenshot:
(a) the screen shows in kiosk mode at 1920×1080; (b) a "reboot": every process of both units killed
with SIGKILL and the supervisor thrown away, then both units started again from their files with
a slow server (started ten seconds late; the kiosk waits for its `READY=1`): the screen comes back
with the same times and no hand; (c) a "network cut": the sync server stopped for good, and the screen's server
killed once so that it starts again with no network: the page recovers by itself and still shows
the mosque's times from the synced copy; (d) a "DST night": the
screen's server started again with libfaketime (a drop-in `Environment=`, the machine's clock read
from a file) at 00:30 BST on 25 October 2026, and Playwright's fake clock installed on the kiosk's
open page at the same instant; both walked a minute at a time to 02:30 GMT: the clock shows the
right local time at every minute (01:00–01:59 twice), the countdown to fajr falls by exactly a
minute at every step (no hour lost, none gained), no prayer is shown twice, no clock warning.

    .build/browser-venv/bin/python Scripts/display/kiosk-rehearsal.py \
        [--praykit .build/debug/praykit] [--chromium /usr/bin/chromium] [--artifacts DIR] [--keep]

Exit status 0 when every check passes, 1 when one fails, 77 when Playwright is missing.
"""

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from datetime import datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

try:
    from playwright.sync_api import sync_playwright
except ImportError:
    print("SKIP playwright is not installed (python3 -m venv .build/browser-venv && .build/browser-venv/bin/pip install playwright)")
    sys.exit(77)

ROOT = Path(__file__).resolve().parent.parent.parent
LONDON = ZoneInfo("Europe/London")
MOSQUE = "East London Mosque"
MOSQUE_IQAMA = "fajr=+20,dhuhr=13:15,asr=+10,maghrib=+5,isha=+10"
MOSQUE_JUMUAH = "13:15,14:00"
# The saved place's own rules (docs/display.md's home screen): a followed mosque's come first.
PLACE_IQAMA = "fajr=+20,dhuhr=13:30,asr=+15,maghrib=+5,isha=+15"
PLACE_JUMUAH = "13:00,13:40,14:20"
FAKETIME_LIBRARY = "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1"
PRAYERS = ["fajr", "sunrise", "dhuhr", "asr", "maghrib", "isha"]


def log(message):
    print(message, flush=True)


def free_port():
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        return listener.getsockname()[1]


class Checks:
    def __init__(self):
        self.results = []

    def record(self, name, passed, read):
        self.results.append((name, passed))
        log(f"{'PASS' if passed else 'FAIL'} {name}: {read}")
        return passed


class Machine:
    """A HOME and XDG folders of its own, a machine identity and a zone: one device."""

    def __init__(self, root, name, praykit):
        self.name = name
        self.praykit = praykit
        self.folder = Path(root) / name
        self.home = self.folder / "home"
        for sub in ["", ".config", ".local/share", ".local/state", ".cache"]:
            (self.home / sub).mkdir(parents=True, exist_ok=True)
        (self.folder / "machine-id").write_text(f"rehearsal-{name}-{os.getpid()}\n")
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(self.home), "USER": os.environ.get("USER", "root"),
            "LANG": "C.UTF-8", "TZ": "Europe/London", "XDG_CONFIG_HOME": str(self.home / ".config"),
            "XDG_DATA_HOME": str(self.home / ".local/share"), "XDG_STATE_HOME": str(self.home / ".local/state"),
            "XDG_CACHE_HOME": str(self.home / ".cache"), "PRAYKIT_MACHINE_ID_FILE": str(self.folder / "machine-id"),
        }

    def run(self, *arguments, check=True):
        result = subprocess.run([self.praykit, *arguments], env=self.env, capture_output=True, text=True, timeout=300)
        if check and result.returncode != 0:
            raise SystemExit(f"{self.name}: praykit {' '.join(arguments)} failed ({result.returncode}): {result.stderr}")
        return result.stdout


# --- systemd units ---------------------------------------------------------------------------


def split_units(text):
    """The units `praykit display units` prints: {file name: unit text}. Each follows its header
    (`# ~/.config/systemd/user/NAME.service`) and ends at the next comment line; a unit has none."""
    units, name = {}, None
    for line in text.splitlines():
        match = re.match(r"^# ~/\.config/systemd/user/(\S+\.service)$", line)
        if match:
            name = match.group(1)
            units[name] = []
        elif line.startswith("#"):
            name = None
        elif name:
            units[name].append(line)
    return {name: "\n".join(lines).strip() + "\n" for name, lines in units.items()}


def parse_unit(text):
    """A unit file's settings: {(section, key): value}, with backslash-newline continuations joined."""
    settings, section, pending = {}, None, ""
    for raw in text.splitlines():
        line = pending + raw
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        pending = ""
        stripped = line.strip()
        if not stripped or stripped[0] in "#;":
            continue
        if stripped.startswith("[") and stripped.endswith("]"):
            section = stripped[1:-1]
            continue
        key, _, value = stripped.partition("=")
        settings[(section, key.strip())] = value.strip()
    return settings


ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'", "s": " ", "a": "\a", "b": "\b", "f": "\f", "r": "\r", "v": "\v"}


def exec_words(value, home, user):
    """`ExecStart=`'s words as systemd reads them: its prefixes (`-@:+!`) dropped, words split on
    whitespace, double and single quotes, C escapes; then per word the specifiers (`%h`, `%u`, `%%`)
    and the environment's `$$`. A `$NAME` or a specifier this rehearsal does not know is refused."""
    value = value.lstrip("-@:+!")
    words, word, quote, index, started = [], "", None, 0, False
    while index < len(value):
        char = value[index]
        if quote is None and char in " \t":
            if started:
                words.append(word)
            word, started = "", False
        elif quote is None and char in "\"'":
            quote, started = char, True
        elif quote is not None and char == quote:
            quote = None
        elif char == "\\" and index + 1 < len(value):
            index += 1
            if value[index] not in ESCAPES:
                raise ValueError(f"an escape this rehearsal does not read: \\{value[index]}")
            word, started = word + ESCAPES[value[index]], True
        else:
            word, started = word + char, True
        index += 1
    if quote is not None:
        raise ValueError(f"an unclosed quote in {value!r}")
    if started:
        words.append(word)

    def specifiers(word):
        def one(match):
            letter = match.group(1)
            if letter == "%":
                return "%"
            if letter == "h":
                return home
            if letter == "u":
                return user
            raise ValueError(f"a specifier this rehearsal does not read: %{letter}")

        return re.sub(r"%(.)", one, word)

    def environment(word):
        if re.search(r"\$(?!\$)[A-Za-z{]", word.replace("$$", "")):
            raise ValueError(f"an environment variable in {word!r}: the units set none")
        return word.replace("$$", "$")

    return [environment(specifiers(word)) for word in words]


class Unit:
    def __init__(self, path, home, user):
        self.name = path.name
        self.settings = parse_unit(path.read_text())
        self.argv = exec_words(self.settings[("Service", "ExecStart")], home, user)
        self.restart = self.settings.get(("Service", "Restart"), "no")
        self.restart_sec = float(self.settings.get(("Service", "RestartSec"), "0.1"))
        self.type = self.settings.get(("Service", "Type"), "simple")
        self.after = self.settings.get(("Unit", "After"), "").split()


class Supervisor:
    """Runs units as systemd would for these two: each in a process group of its own; a unit
    started once the units it comes `After=` are ready (`Type=simple`: started; `Type=notify`: its
    `READY=1` received on the socket named by `$NOTIFY_SOCKET`); started again `RestartSec` after its
    main process ends when `Restart=always`, what is left of its group killed first."""

    def __init__(self, units, env, logs, appended=None, extra_env=None):
        self.units = sorted(units, key=lambda unit: sum(other.name in unit.after for other in units))
        self.env = env
        self.logs = logs
        self.appended = appended or {}
        self.extra_env = extra_env or {}
        self.processes = {}
        self.starts = {unit.name: [] for unit in units}
        self.ready = {unit.name: threading.Event() for unit in units}
        self.readied = {unit.name: [] for unit in units}
        self.stopping = threading.Event()
        self.lock = threading.Lock()
        self.threads = []

    def start(self, delays):
        """Starts every unit once the units it comes `After=` are ready; a unit named in `delays` is
        started that many seconds late (a slow boot)."""
        names = {unit.name for unit in self.units}
        for unit in self.units:
            for before in unit.after:
                if before in names and not self.ready[before].wait(timeout=90):  # systemd's TimeoutStartSec
                    raise RuntimeError(f"{before} was not ready within 90 s: {unit.name} not started")
            thread = threading.Thread(target=self.keep, args=(unit, delays.get(unit.name, 0)), daemon=True)
            thread.start()
            self.threads.append(thread)

    def keep(self, unit, delay):
        if self.stopping.wait(delay):
            return
        notify_folder = Path(tempfile.mkdtemp(prefix="notify-")) if unit.type == "notify" else None
        try:
            while not self.stopping.is_set():
                self.run_once(unit, notify_folder)
                if self.stopping.is_set() or unit.restart != "always":
                    return
                self.stopping.wait(unit.restart_sec)
        finally:
            if notify_folder is not None:
                shutil.rmtree(notify_folder, ignore_errors=True)

    def run_once(self, unit, notify_folder):
        argv = unit.argv + self.appended.get(unit.name, [])
        env = {**self.env, **self.extra_env.get(unit.name, {})}
        listener = None
        if notify_folder is not None:
            path = notify_folder / "notify"
            path.unlink(missing_ok=True)
            listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            listener.bind(str(path))
            env["NOTIFY_SOCKET"] = str(path)
        try:
            with open(self.logs / f"{unit.name}.log", "a") as output:
                output.write(f"--- {datetime.now().isoformat()} start: {' '.join(argv)}\n")
                output.flush()
                process = subprocess.Popen(argv, env=env, stdout=output, stderr=output, stdin=subprocess.DEVNULL,
                                           start_new_session=True)
            with self.lock:
                self.processes[unit.name] = process
                self.starts[unit.name].append(time.monotonic())
            if listener is None:
                self.mark_ready(unit.name)
            else:
                threading.Thread(target=self.await_ready, args=(unit.name, listener, process), daemon=True).start()
            process.wait()
            kill_group(process.pid)
        finally:
            if listener is not None:
                listener.close()

    def mark_ready(self, name):
        with self.lock:
            self.readied[name].append(time.monotonic())
        self.ready[name].set()

    def await_ready(self, name, listener, process):
        """Reads the unit's notifications until `READY=1` (the unit is then ready) or its process
        ends."""
        listener.settimeout(0.5)
        while process.poll() is None and not self.stopping.is_set():
            try:
                message = listener.recv(4096)
            except socket.timeout:
                continue
            except OSError:
                return
            if b"READY=1" in message.split(b"\n"):
                self.mark_ready(name)
                return

    def pid(self, name):
        with self.lock:
            return self.processes[name].pid

    def kill(self, name, sig=signal.SIGKILL):
        """One unit's main process dies (the unit is started again by `Restart=always`)."""
        os.kill(self.pid(name), sig)

    def power_off(self):
        """Every process of every unit killed at once with SIGKILL, as a power cut; this supervisor
        and all it knew are gone."""
        self.stopping.set()
        with self.lock:
            processes = list(self.processes.values())
        for process in processes:
            kill_group(process.pid)
        for thread in self.threads:
            thread.join(timeout=30)


def kill_group(pid):
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


# --- the page ---------------------------------------------------------------------------------

STATE = """() => ({
    phase: document.getElementById('screen').dataset.phase,
    prayer: document.getElementById('screen').dataset.prayer,
    title: document.getElementById('phase-title').textContent,
    countdown: document.getElementById('countdown').textContent,
    clock: document.getElementById('clock').textContent,
    date: document.getElementById('gregorian').textContent,
    name: document.getElementById('name').textContent,
    warning: document.getElementById('warning').hidden ? null : document.getElementById('warning').textContent,
    rows: [...document.querySelectorAll('#rows tr')].map((tr) => ({
        row: tr.dataset.row, tomorrow: tr.classList.contains('tomorrow'),
        adhan: tr.querySelector('.adhan').textContent, iqama: tr.querySelector('.iqama').innerText,
    })),
    width: window.innerWidth, height: window.innerHeight, screen: [screen.width, screen.height],
    kiosk: window.outerWidth === screen.width && window.innerWidth === screen.width
        && window.outerHeight === screen.height && window.innerHeight === screen.height,
    url: location.href,
})"""


def connect(playwright, cdp_port, guard=90):
    """The kiosk's own page (the unit's address), over CDP, once Chromium answers; a hang guard."""
    deadline = time.monotonic() + guard
    while True:
        try:
            browser = playwright.chromium.connect_over_cdp(f"http://127.0.0.1:{cdp_port}", timeout=10000)
            for context in browser.contexts:
                for page in context.pages:
                    if "/display" in page.url or page.url.startswith("chrome-error:"):  # or its error page
                        return browser, page
            browser.close()
        except Exception as error:  # Chromium not up yet, or between restarts
            if time.monotonic() > deadline:
                raise SystemExit(f"the kiosk's page never showed over CDP: {error}")
        if time.monotonic() > deadline:
            raise SystemExit("the kiosk has no /display page")
        time.sleep(0.5)


def wait_drawn(page, guard=120):
    """Until the page shows a model's rows (a hang guard; the screen may be retrying its server)."""
    deadline = time.monotonic() + guard
    while time.monotonic() < deadline:
        try:
            state = page.evaluate(STATE)
            if state["phase"] != "loading" and len(state["rows"]) >= 6:
                return state
        except Exception:
            pass  # an error page, or the page navigating: not drawn yet
        time.sleep(0.5)
    return None


def times_of(state):
    return [(row["row"], row["tomorrow"], row["adhan"], row["iqama"]) for row in state["rows"]]


def expected_rows(timetable, today, state):
    """What the mosque's timetable and iqama rules give each row the page shows (today's, or
    tomorrow's once its iqama has passed)."""
    rules = dict(rule.split("=") for rule in MOSQUE_IQAMA.split(","))
    wrong = []
    for row in state["rows"]:
        if row["row"] not in PRAYERS:
            continue
        day = today + timedelta(days=1) if row["tomorrow"] else today
        adhan = timetable[day.isoformat()][row["row"]]
        if row["adhan"].rstrip("*").strip() != adhan:
            wrong.append(f"{row['row']} adhan {row['adhan']} (timetable {adhan})")
        rule = rules.get(row["row"])
        if rule is None:
            continue
        if rule.startswith("+"):
            hours, minutes = map(int, adhan.split(":"))
            total = hours * 60 + minutes + int(rule[1:])
            iqama = f"{total // 60:02}:{total % 60:02}"
        else:
            iqama = rule
        if iqama not in row["iqama"]:
            wrong.append(f"{row['row']} iqama {row['iqama']!r} (rule {rule}: {iqama})")
    return wrong


def shoot(page, artifacts, name, shots):
    path = artifacts / f"{name}.png"
    page.screenshot(path=str(path))
    shots.append(str(path))
    log(f"  screenshot {path}")


# --- the rehearsal ----------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--praykit", default=str(ROOT / ".build/debug/praykit"))
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--artifacts", default=str(ROOT / ".build/test-artifacts/kiosk-rehearsal"))
    parser.add_argument("--keep", action="store_true", help="keep the throwaway machines' folders")
    options = parser.parse_args()
    praykit = str(Path(options.praykit).resolve())
    artifacts = Path(options.artifacts)
    artifacts.mkdir(parents=True, exist_ok=True)
    root = Path(tempfile.mkdtemp(prefix="praykit-kiosk-rehearsal-"))
    logs = root / "logs"
    logs.mkdir()
    began = time.monotonic()
    checks, shots = Checks(), []
    sync_server = None
    supervisor = None
    log(f"The rehearsal's machines are in {root}; logs in {logs}")
    try:
        # The sync server, and the mosque's owner publishing its times there.
        server_machine = Machine(root, "sync-server", praykit)
        store = f"sqlite:{server_machine.folder / 'sync.sqlite'}"
        sync_port = free_port()
        sync_log = open(logs / "sync-server.log", "w")
        sync_server = subprocess.Popen(
            [praykit, "serve", "--port", str(sync_port), "--sync-store", store], env=server_machine.env,
            stdout=sync_log, stderr=sync_log, start_new_session=True)
        sync_url = f"http://127.0.0.1:{sync_port}"
        wait_listening(sync_port)
        added = server_machine.run("serve", "sync", "users", "add", "owner", "--sync-store", store, "--server", sync_url)
        pairing = re.search(r"[A-Z0-9]{5}-[A-Z0-9]{5}", added).group(0)

        owner = Machine(root, "owner", praykit)
        owner.run("config", "set", "city", "London")
        today = datetime.now(LONDON).date()
        first = datetime(2026, 10, 20).date()
        days = (today - first).days + 40
        calculated = json.loads(owner.run("times", "--city", "London", "--date", first.isoformat(), "--days", str(days),
                                          "--format", "json"))
        timetable = {}
        lines = ["date,fajr,sunrise,dhuhr,asr,maghrib,isha"]
        for day in calculated["days"]:
            timetable[day["date"]] = {prayer: day[prayer][11:16] for prayer in PRAYERS}
            lines.append(",".join([day["date"]] + [timetable[day["date"]][prayer] for prayer in PRAYERS]))
        csv = owner.folder / "elm.csv"
        csv.write_text("\n".join(lines) + "\n")
        owner.run("timetable", "import", str(csv), "--mosque", MOSQUE)
        owner.run("sync", "login", "--server", sync_url, "--code", pairing, "--device-name", "office")
        owner.run("mosque", "create", MOSQUE)
        owner.run("mosque", "set", MOSQUE, "--iqama", MOSQUE_IQAMA, "--jumuah", MOSQUE_JUMUAH)
        owner.run("sync", "now")
        invitation = owner.run("mosque", "invite", MOSQUE, "--role", "viewer")
        code = re.search(r"[A-Z0-9]{5}-[A-Z0-9]{5}", invitation).group(0)
        log(f"The owner published {MOSQUE} ({days} days from {first}, iqama {MOSQUE_IQAMA}, Jumu'ah {MOSQUE_JUMUAH}) "
            f"on {sync_url}; viewer's code {code}")

        # The screen's machine: the docs' home screen, then the mosque followed.
        screen = Machine(root, "screen", praykit)
        screen.run("config", "set", "city", "London")
        screen.run("config", "set", "iqama", PLACE_IQAMA)
        screen.run("config", "set", "jumuah", PLACE_JUMUAH)
        followed = screen.run("mosque", "follow", code, "--server", sync_url, "--device-name", "door")
        # A device with a place of its own is told to choose the mosque (docs/display.md, "Which mosque").
        screen.run("config", "set", "mosque", MOSQUE)
        log(f"The screen: saved place London (iqama {PLACE_IQAMA}); {' '.join(followed.split())}; "
            f"config set mosque {MOSQUE!r}")

        # The two units, from the command, into the user's systemd folder.
        display_port, cdp_port = free_port(), free_port()
        printed = screen.run("display", "units", "--praykit", praykit, "--chromium", options.chromium,
                             "--port", str(display_port))
        units_folder = screen.home / ".config/systemd/user"
        units_folder.mkdir(parents=True, exist_ok=True)
        for name, text in split_units(printed).items():
            (units_folder / name).write_text(text)
        user = os.environ.get("USER") or "root"

        def boot(extra_env=None, delays=None):
            units = [Unit(path, str(screen.home), user) for path in sorted(units_folder.glob("*.service"))]
            kiosk = next(unit for unit in units if unit.argv[0] == options.chromium)
            # A headless Chromium's screen is 800x600 and --kiosk fills the screen (--window-size is
            # not used in kiosk mode): the virtual screen is given the size of the one by the door.
            appended = ["--headless=new", f"--remote-debugging-port={cdp_port}", "--screen-info={1920x1080}"]
            if os.geteuid() == 0:
                appended.append("--no-sandbox")
            machine = Supervisor(units, screen.env, logs, appended={kiosk.name: appended}, extra_env=extra_env)
            machine.start(delays or {})
            return machine, units, kiosk, appended

        supervisor, units, kiosk, appended = boot()
        server_unit = next(unit for unit in units if unit is not kiosk)
        for unit in units:
            log(f"{unit.name}: Type={unit.type} Restart={unit.restart} RestartSec={unit.restart_sec:g} "
                f"After={' '.join(unit.after) or '-'}")
            log(f"  ExecStart words: {unit.argv}")
        log(f"  appended to the kiosk for a headless machine: {appended}")

        with sync_playwright() as playwright:
            # (a) The screen shows, in kiosk mode, at 1920×1080.
            browser, page = connect(playwright, cdp_port)
            state = wait_drawn(page)
            if state is None:
                checks.record("(a) the screen shows", False, "no rows drawn")
                raise SystemExit(1)
            now = datetime.now(LONDON)
            shown_clock = datetime.strptime(state["clock"], "%H:%M:%S").replace(year=now.year, month=now.month, day=now.day,
                                                                                tzinfo=LONDON)
            wrong = expected_rows(timetable, now.date(), state)
            passed = (state["width"], state["height"]) == (1920, 1080) and abs((shown_clock - now).total_seconds()) < 5 \
                and state["prayer"] in PRAYERS and state["countdown"] and not wrong and state["warning"] is None \
                and state["name"] == MOSQUE and "--kiosk" in kiosk.argv and state["kiosk"]
            checks.record(
                "(a) the screen shows in kiosk mode at 1920x1080", passed,
                f"{state['url']} page {state['width']}x{state['height']} on a screen {state['screen']} (kiosk: "
                f"the window fills the screen, no browser frame: {state['kiosk']}), name {state['name']!r}, clock {state['clock']} "
                f"(machine {now:%H:%M:%S}), {state['date']}, {state['title']!r} {state['countdown']}, "
                f"rows {times_of(state)}, warning {state['warning']}, mosque's times {'as published' if not wrong else wrong}")
            shoot(page, artifacts, "a-kiosk-1920x1080", shots)
            before_reboot = times_of(state)
            browser.close()

            # (b) A reboot: both units' processes killed at once, the supervisor thrown away.
            pids = {unit.name: supervisor.pid(unit.name) for unit in units}
            supervisor.power_off()
            alive = [pid for pid in pids.values() if process_alive(pid)]
            supervisor = None
            log(f"Power cut: SIGKILL to {pids}; still alive: {alive or 'none'}")
            # A slow boot: the server starts ten seconds late; the kiosk (After= the server, which is
            # Type=notify) waits for its READY=1 rather than loading an address nobody answers.
            slow = 10
            booted = time.monotonic()
            supervisor, units, kiosk, _ = boot(delays={server_unit.name: slow})
            server_unit = next(unit for unit in units if unit is not kiosk)
            browser, page = connect(playwright, cdp_port)
            state = wait_drawn(page)
            back = time.monotonic() - booted
            ready = supervisor.readied[server_unit.name][0] - booted
            kiosk_started = supervisor.starts[kiosk.name][0] - booted
            passed = state is not None and times_of(state) == before_reboot and state["warning"] is None \
                and state["name"] == MOSQUE and server_unit.type == "notify" and kiosk_started >= ready
            checks.record(
                "(b) after a reboot the screen comes back by itself", passed,
                "nothing drawn" if state is None else
                f"the server started {slow} s late and said READY=1 at {ready:.1f} s; the kiosk started at "
                f"{kiosk_started:.1f} s; drawn at {back:.1f} s "
                f"(kiosk pid {supervisor.pid(kiosk.name)}, {len(supervisor.starts[kiosk.name])} start), "
                f"{state['url']}, clock {state['clock']}, same rows as before: {times_of(state) == before_reboot} "
                f"{times_of(state)}")
            if state is not None:
                shoot(page, artifacts, "b-after-reboot", shots)

            # (c) A network cut: the sync server gone; the screen's server dies once meanwhile.
            requests = []
            page.on("response", lambda response: requests.append((time.monotonic(), response.url, response.status)))
            sync_server.terminate()
            sync_server.wait(timeout=60)
            sync_server = None
            restarts = len(supervisor.starts[server_unit.name])
            old = supervisor.pid(server_unit.name)
            killed = time.monotonic()
            supervisor.kill(server_unit.name)
            deadline = time.monotonic() + 120
            while len(supervisor.starts[server_unit.name]) == restarts and time.monotonic() < deadline:
                page.wait_for_timeout(100)
            restarted = supervisor.starts[server_unit.name][-1] if len(supervisor.starts[server_unit.name]) > restarts else None
            recovered = None
            while restarted is not None and time.monotonic() < deadline:
                ok = [t for t, url, status in requests if t > restarted and status == 200
                      and (url.endswith("/display/events") or "/display.json" in url)]
                if ok:
                    recovered = ok[0]
                    break
                page.wait_for_timeout(200)
            state = page.evaluate(STATE)
            direct = json.load(urllib.request.urlopen(f"http://127.0.0.1:{display_port}/display.json", timeout=30))
            wrong = expected_rows(timetable, datetime.now(LONDON).date(), state)
            seen = [(round(t - killed, 1), url.rsplit("/", 1)[-1], status) for t, url, status in requests]
            passed = restarted is not None and recovered is not None and not wrong and state["warning"] is None \
                and direct.get("days", [{}])[0].get("source") == f"mosque:{MOSQUE}" and state["name"] == MOSQUE
            parts = [f"server pid {old} killed with SIGKILL"]
            parts.append(f"started again {restarted - killed:.1f} s later (RestartSec={server_unit.restart_sec:g})"
                         if restarted else "never started again")
            parts.append(f"the page's first answer from the new server {recovered - killed:.1f} s after the kill"
                         if recovered else "no answer from the new server")
            parts.append(f"requests seen (s after the kill, path, status) {seen}")
            parts.append(f"model source {direct.get('days', [{}])[0].get('source')}, name {state['name']!r}")
            parts.append(f"rows {times_of(state)}, the mosque's times {'as published' if not wrong else wrong}")
            parts.append(f"warning {state['warning']}")
            failed_sync = [line.split(" error=")[-1][:90] for line in
                           (logs / f"{server_unit.name}.log").read_text().splitlines() if "Sync cycle failed" in line]
            parts.append(f"the server's sync meanwhile: {failed_sync[-1] if failed_sync else 'no failure logged yet'}")
            checks.record("(c) after a network cut and a server restart the page recovers by itself", passed,
                          "; ".join(parts))
            shoot(page, artifacts, "c-network-cut", shots)
            browser.close()

            # (d) The DST night: the server's clock from a file (libfaketime), the page's fake clock.
            clock_file = root / "faketime"
            start = datetime(2026, 10, 24, 23, 30, tzinfo=timezone.utc)  # 00:30 BST
            set_clock(clock_file, start)
            supervisor.extra_env[server_unit.name] = {
                "LD_PRELOAD": FAKETIME_LIBRARY, "FAKETIME_TIMESTAMP_FILE": str(clock_file), "FAKETIME_NO_CACHE": "1",
                "FAKETIME_DONT_FAKE_MONOTONIC": "1", "TZ": "UTC",
                # As the faketime command does: without it libfaketime sets up shared memory of its own
                # when it loads, and praykit then reads no arguments (it prints its help and exits).
                "FAKETIME_SHARED": "/praykit_rehearsal_sem /praykit_rehearsal_shm",
            }
            browser, page = connect(playwright, cdp_port)
            answers = []
            page.on("response", lambda response: answers.append(
                (time.monotonic(), response.url, response.status, response.headers.get("date"))))
            page.clock.install(time=start - timedelta(seconds=1))
            page.clock.pause_at(start)
            restarts = len(supervisor.starts[server_unit.name])
            supervisor.kill(server_unit.name, signal.SIGTERM)  # systemctl --user restart, with the drop-in
            deadline = time.monotonic() + 120
            while len(supervisor.starts[server_unit.name]) == restarts and time.monotonic() < deadline:
                page.wait_for_timeout(100)
            faked = supervisor.starts[server_unit.name][-1]
            drawn = None
            while time.monotonic() < deadline:  # the stream's tag is new: the page fetches the faked model
                if any(t > faked and "/display.json" in url and status == 200 for t, url, status, _ in answers):
                    drawn = page.evaluate(STATE)
                    if "25 October 2026" in drawn["date"] and drawn["warning"] is None:
                        break
                page.wait_for_timeout(300)
            log(f"  the page on the faked server: {drawn and (drawn['clock'], drawn['date'], drawn['warning'])}")
            model_now = json.load(urllib.request.urlopen(f"http://127.0.0.1:{display_port}/display.json", timeout=30))
            log(f"  the faked server's model: validFrom {model_now.get('validFrom')}, offsets {model_now.get('offsets')}")
            day = next(d for d in model_now["days"] if d["date"] == "2026-10-25")
            fajr = datetime.fromisoformat(day["fajr"])
            walk, problems = [], []
            now = start
            previous = None
            for minute in range(0, 181):
                now = start + timedelta(minutes=minute)
                set_clock(clock_file, now)
                if minute:
                    page.clock.fast_forward(60000)
                state = page.evaluate(STATE)
                local = now.astimezone(LONDON)
                expected_clock = local.strftime("%H:%M:%S")
                left = int((fajr - now).total_seconds())
                expected_countdown = f"{left // 3600}:{left % 3600 // 60:02}:{left % 60:02}"
                names = [row["row"] for row in state["rows"]]
                walk.append((local.strftime("%H:%M %Z"), state["clock"], state["prayer"], state["countdown"]))
                if state["clock"] != expected_clock:
                    problems.append(f"{now:%H:%MZ}: clock {state['clock']} (expected {expected_clock})")
                if state["prayer"] != "fajr" or state["countdown"] != expected_countdown:
                    problems.append(f"{now:%H:%MZ}: next {state['prayer']} {state['countdown']} (expected fajr {expected_countdown})")
                if len(names) != len(set(names)):
                    problems.append(f"{now:%H:%MZ}: a row twice {names}")
                if state["warning"] is not None:
                    dates = [(url.rsplit("/", 1)[-1], date) for _, url, status, date in answers[-3:]]
                    problems.append(f"{now:%H:%MZ}: warning {state['warning']} (last answers {dates})")
                if previous is not None and previous != times_of(state):
                    problems.append(f"{now:%H:%MZ}: the rows changed {previous} -> {times_of(state)}")
                previous = times_of(state)
                if minute in (60, 120):  # 01:30 BST, then 01:30 GMT
                    shoot(page, artifacts, f"d-dst-{local.strftime('%H%M-%Z')}", shots)
            repeated = [clock for _, clock, _, _ in walk if clock.startswith("01:30")]
            checks.record(
                "(d) the DST night: no prayer twice, no hour lost, the right local time", not problems and len(walk) == 181,
                f"181 minutes walked 00:30 BST -> 02:30 GMT; 01:30 shown {len(repeated)} times; "
                f"at 00:59 BST {walk[29]}, 01:00 BST {walk[30]}, 01:59 BST {walk[89]}, 01:00 GMT {walk[90]}, "
                f"01:59 GMT {walk[149]}, 02:00 GMT {walk[150]}, 02:30 GMT {walk[180]}; fajr {day['fajr']}; "
                f"rows {previous}; problems {problems[:5] or 'none'}")
            browser.close()
    finally:
        if supervisor is not None:
            supervisor.power_off()
        if sync_server is not None:
            sync_server.terminate()
            try:
                sync_server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                kill_group(sync_server.pid)
        if not options.keep:
            shutil.rmtree(root, ignore_errors=True)
    failed = [name for name, passed in checks.results if not passed]
    log(f"{len(checks.results) - len(failed)}/{len(checks.results)} checks passed in {time.monotonic() - began:.0f} s; "
        f"screenshots: {', '.join(shots)}")
    return 1 if failed or len(checks.results) < 4 else 0


def set_clock(path, instant):
    """The faked machine's clock (UTC): written whole, so that libfaketime, which reads the file at
    every call, never reads it half written (an empty file is the real clock)."""
    partial = path.with_suffix(".partial")
    partial.write_text(instant.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S") + "\n")
    os.replace(partial, path)


def wait_listening(port, guard=60):
    deadline = time.monotonic() + guard
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"nothing listens on {port}")


def process_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split()[2] != "Z"
    except OSError:
        return False


if __name__ == "__main__":
    sys.exit(main())
