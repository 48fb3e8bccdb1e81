#!/usr/bin/env python3
"""A deterministic corpus of `praykit` command lines, to prove the CLI's behaviour unchanged.

A case is a list of command lines run in order, as child processes, in one fresh temporary folder
with its own database:

    PRAYKIT_DATABASE=<tmp>/praykit.sqlite  HOME=<tmp>  XDG_DATA_HOME=<tmp>/xdg  TZ=UTC  LC_ALL=C
    PATH=/usr/bin:/bin  (nothing else from the caller's environment)

(a few cases change that environment on purpose). For each command line the standard output, the
standard error and the exit status are recorded; a case may first write files (backups to import)
and may keep a command's standard output as a file for the next one (export | import).

What depends on the current instant is either normalised or marked:
  - the temporary folder is written <TMP>, the binary's path <PRAYKIT> (notify --print-unit);
  - ISO 8601 instants and iCalendar stamps (DTSTAMP) within the case's own run time, such as a log
    entry's recordedAt, are written <NOW>; the date of the manual page (.TH) is written <TODAY>;
  - log lines' `source=File.swift:LINE` keep the file but not the line (<LINE>); libcurl's
    "after N ms" and the retry count "after N attempts" (jittered backoff) are written with <N>;
  - `log record`'s "up to a day ahead (DATE)" writes tomorrow as <TOMORROW>;
  - cases whose output depends on today or now (times without --date, next without --now, qibla
    without --date: its declination is today's, …) are kept but marked dependsOnNow: `compare` reports them and does not fail for them.

Usage:
    cli_corpus.py record --praykit /work/baseline/praykit --out cli-corpus.jsonl
    cli_corpus.py compare A.jsonl B.jsonl
    cli_corpus.py list                     # the cases, one a line (D marks dependsOnNow)

`record` runs at most 2 cases at a time (--jobs 1 or 2); each command line has a 30 s timeout (a
timeout is recorded as status "timeout"). `compare` prints each differing case with a unified diff
of stdout and stderr and the exit statuses, then a count; it exits 1 when a case not marked
dependsOnNow differs (or is missing on one side), else 0; 2 when a file cannot be read.
"""

import argparse
import concurrent.futures
import datetime
import difflib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SEED = 20261129
TIMEOUT = 30
DATE = "2026-11-20"  # a Friday, in the past
NOW = "2026-11-29T14:14:17+03:00"

# Places as command-line options.
MAKKAH = ["--lat", "21.4225", "--lon", "39.8262"]
LONDON = ["--lat", "51.5074", "--lon", "-0.1278"]
CAIRO = ["--lat", "30.0444", "--lon", "31.2357"]
NEWYORK = ["--lat", "40.7128", "--lon", "-74.006"]
JAKARTA = ["--lat", "-6.2088", "--lon", "106.8456"]
KOLKATA = ["--lat", "22.5726", "--lon", "88.3639"]
TROMSO = ["--lat", "69.6492", "--lon", "18.9553"]
REYKJAVIK = ["--lat", "64.1466", "--lon", "-21.9426"]
LONGYEARBYEN = ["--lat", "78.2232", "--lon", "15.6267"]
KIRITIMATI = ["--lat", "1.8721", "--lon", "-157.4278"]
CHATHAM = ["--lat", "-43.9535", "--lon", "-176.5597"]
APIA = ["--lat", "-13.8333", "--lon", "-171.7667"]
SYDNEY = ["--lat", "-33.8688", "--lon", "151.2093"]
DEADSEA = ["--lat", "31.5", "--lon", "35.4"]
NORTHPOLE = ["--lat", "90", "--lon", "0"]
OCEAN = ["--lat", "1", "--lon", "2"]
PLACES = [MAKKAH, LONDON, CAIRO, NEWYORK, JAKARTA, KOLKATA, TROMSO, REYKJAVIK, LONGYEARBYEN, KIRITIMATI,
          CHATHAM, APIA, SYDNEY, DEADSEA]

METHOD_NAMES = [
    "muslim-world-league", "isna", "egyptian", "umm-al-qura", "karachi", "tehran", "jafari", "gulf", "kuwait",
    "qatar", "singapore", "france", "turkey", "russia", "moonsighting-committee", "dubai", "jakim", "tunisia",
    "algeria", "kemenag", "morocco", "portugal", "jordan", "custom", "mwl", "Umm-Al-Qura", "muslim-world-leage",
    "4", "6", "99",
]
METHOD_IDS = [str(n) for n in range(0, 24) if n != 6]

TZ_VALUES = ["local", "UTC", "utc", "GMT", "Z", "+03:00", "-09:30", "+3", "UTC+3",
             "+14:00", "+15", "+03:60", "Asia/Kolkata", "asia/kolkata", "Asia/Calcutta", "US/Eastern", "Asia/Saigon",
             "Etc/GMT-3", "EST5EDT", "Europe/Londn", "Mars/Olympus", "", "Pacific/Kiritimati", "Pacific/Chatham"]

# The options of each command and verb (from `praykit help <command>`): name and whether it takes a value.
OPTIONS = {
    "times": ["--lat=", "--lon=", "--city=", "--elevation=", "--tz=", "--date=", "--days=", "--method=", "--madhab=",
              "--fajr-angle=", "--isha-angle=", "--isha-interval=", "--maghrib-angle=", "--maghrib-interval=",
              "--imsak-minutes=", "--imsak-angle=", "--high-latitude-rule=", "--polar-resolution=", "--shafaq=",
              "--night=", "--adjust=", "--rounding=", "--format=", "--clock=", "--hijri-calendar=", "--hijri-offset=",
              "--source=", "--api-url=", "--api-key=", "--timeout=", "--offline"],
    "next": ["--lat=", "--lon=", "--city=", "--elevation=", "--tz=", "--method=", "--madhab=", "--fajr-angle=",
             "--isha-angle=", "--isha-interval=", "--maghrib-angle=", "--maghrib-interval=", "--imsak-minutes=",
             "--imsak-angle=", "--high-latitude-rule=", "--polar-resolution=", "--shafaq=", "--night=", "--adjust=",
             "--rounding=", "--now=", "--format=", "--watch", "--updates="],
    "calendar": ["--lat=", "--lon=", "--city=", "--elevation=", "--tz=", "--date=", "--days=", "--month=", "--year=",
                 "--method=", "--madhab=", "--fajr-angle=", "--isha-angle=", "--isha-interval=", "--maghrib-angle=",
                 "--maghrib-interval=", "--imsak-minutes=", "--imsak-angle=", "--high-latitude-rule=",
                 "--polar-resolution=", "--shafaq=", "--night=", "--adjust=", "--rounding=", "--prayers=", "--alarm=",
                 "--duration="],
    "notify": ["--lat=", "--lon=", "--city=", "--elevation=", "--tz=", "--method=", "--madhab=", "--fajr-angle=",
               "--isha-angle=", "--isha-interval=", "--maghrib-angle=", "--maghrib-interval=", "--imsak-minutes=",
               "--imsak-angle=", "--high-latitude-rule=", "--polar-resolution=", "--shafaq=", "--night=", "--adjust=",
               "--rounding=", "--before=", "--no-adhan", "--iqama", "--no-ramadan", "--no-jumuah", "--prayers=",
               "--hook=", "--dry-run", "--from=", "--until=", "--limit=", "--format=", "--print-unit"],
    "methods": ["--format="],
    "qibla": ["--lat=", "--lon=", "--format="],
    "places": [],
    "places search": ["--limit=", "--format="],
    "places zone": ["--lat=", "--lon=", "--format="],
    "places near": ["--lat=", "--lon=", "--limit=", "--format="],
    "hijri": ["--date=", "--days=", "--lat=", "--lon=", "--tz=", "--at=", "--calendar=", "--offset=", "--to-gregorian=",
              "--month=", "--next-notable", "--format="],
    "hijri days": ["--date=", "--days=", "--lat=", "--lon=", "--tz=", "--at=", "--calendar=", "--offset=", "--format="],
    "hijri convert": ["--from=", "--calendar=", "--offset=", "--format="],
    "hijri month": ["--calendar=", "--offset=", "--format="],
    "hijri notable": ["--date=", "--tz=", "--calendar=", "--offset=", "--format="],
    "config": [],
    "config list": ["--format="],
    "config get": [],
    "config set": [],
    "config unset": [],
    "log": [],
    "log record": ["--prayer=", "--status=", "--date=", "--tz="],
    "log list": ["--from=", "--to=", "--tz=", "--format="],
    "log stats": ["--tz=", "--format="],
    "log delete": ["--prayer=", "--date="],
    "log export": ["--format="],
    "export": [],
    "import": [],
    "serve": ["--host=", "--port=", "--threads=", "--timeout=", "--max-connections="],
    "completions": ["--zones"],
    "man": [],
    "help": ["--man"],
}

# What a command needs to get past its place and date, so that an accepted option never makes the
# output depend on today (and notify never starts its daemon).
PINNED = {
    "times": MAKKAH + ["--date", DATE],
    "next": MAKKAH + ["--now", NOW],
    "calendar": MAKKAH + ["--date", DATE, "--days", "2"],
    "notify": MAKKAH + ["--dry-run", "--from", NOW],
    "qibla": MAKKAH,
    "places search": ["Makkah"],
    "places zone": MAKKAH,
    "places near": MAKKAH,
    "hijri": ["--date", DATE],
    "hijri days": ["--date", DATE],
    "hijri convert": ["1448-09-01"],
    "hijri month": ["1448-09"],
    "hijri notable": ["--date", DATE],
    "config get": ["method"],
    "config set": ["method", "mwl"],
    "config unset": ["method"],
    "log record": ["--prayer", "fajr", "--status", "prayed", "--date", DATE],
    "log list": ["--from", "2026-11-01", "--to", DATE],
    "log delete": ["--prayer", "fajr", "--date", DATE],
    "completions": ["bash"],
    "import": ["{tmp}/none.json"],
}

# A wrong value for each kind of option value.
BAD_VALUES = {
    "--lat": "north", "--lon": "1,5", "--elevation": "high", "--tz": "Nowhere/Nada", "--date": "2026-02-30",
    "--days": "seven", "--method": "bogus", "--madhab": "maliki", "--fajr-angle": "x", "--isha-angle": "nan",
    "--isha-interval": "1.5", "--maghrib-angle": "inf", "--maghrib-interval": "0x10", "--imsak-minutes": "ten",
    "--imsak-angle": "", "--high-latitude-rule": "angle", "--polar-resolution": "nearest", "--shafaq": "red",
    "--night": "sunset", "--adjust": "fajr+2", "--rounding": "down", "--format": "jsn", "--clock": "13h",
    "--hijri-calendar": "islamic", "--hijri-offset": "+x", "--source": "web", "--api-url": "ftp://example.com",
    "--api-key": "", "--timeout": "soon", "--now": "yesterday", "--updates": "all", "--month": "2027/02",
    "--year": "MMXXVII", "--prayers": "fajr,brunch", "--alarm": "10 minutes", "--duration": "long",
    "--before": "-5", "--hook": "", "--from": "2026-11-29", "--until": "tomorrow", "--limit": "many",
    "--at": "25:00", "--calendar": "gregorian", "--offset": "one", "--to-gregorian": "1448-13-01",
    "--prayer": "brunch", "--status": "skipped", "--to": "2026-11-31", "--host": "not an address",
    "--port": "http", "--threads": "-", "--max-connections": "0x10", "--city": "",
    "--api-key-file": "{tmp}/no-such-key",
}


# --------------------------------------------------------------------------------------------------
# The cases


class Corpus:
    def __init__(self):
        self.cases = []
        self.names = {}

    def add(self, *steps, now=False, env=None, files=None, name=None):
        """A case: steps are argument lists, or dicts {"argv", "stdin", "stdout_to", "env"}."""
        normal = []
        for step in steps:
            if isinstance(step, dict):
                normal.append(dict(step))
            else:
                normal.append({"argv": list(step)})
        # `qibla` shows the magnetic declination of today (in the place's zone) unless given --date.
        if any("qibla" in step["argv"] and "--date" not in step["argv"] for step in normal):
            now = True
        label = name or " ; ".join(" ".join(quote(a) for a in s["argv"]) for s in normal)
        if env:
            label = " ".join("%s=%s" % (k, "<unset>" if v is None else quote(v)) for k, v in sorted(env.items())) \
                + " :: " + label
        count = self.names.get(label, 0) + 1
        self.names[label] = count
        if count > 1:
            label += "  #%d" % count
        self.cases.append({"name": label, "steps": normal, "dependsOnNow": bool(now), "env": env or {},
                           "files": files or {}})


def quote(text):
    if text and re.fullmatch(r"[A-Za-z0-9_@%+=:,./{}-]+", text):
        return text
    return "'" + text.replace("'", "'\\''") + "'"


def backup(preferences=None, log=None, version=1, fmt="praykit-backup"):
    return json.dumps({"format": fmt, "version": version, "preferences": preferences or {},
                       "prayerLog": log or []}, indent=2, sort_keys=True) + "\n"


def entry(date, prayer, status, recorded="2026-11-20T08:00:00.000Z"):
    return {"date": date, "prayer": prayer, "status": status, "recordedAt": recorded}


def generate():
    rng = random.Random(SEED)
    c = Corpus()
    add = c.add

    # ---- Top level, help, version, man.
    add([])
    add(["--help"])
    add(["-h"])
    add(["help"])
    add(["--version"])
    add(["-v"])
    add(["-V"])
    add(["--version", "--verbose"])
    add(["--version", "extra"])
    add(["--version", "--verbose", "--verbose"])
    add(["--verbose"])
    add(["tims"])
    add(["time"])
    add(["--hepl"])
    add(["-x"])
    add(["TIMES"])
    add(["help", "--man"], name="help --man")
    add(["man"])
    add(["man", "extra"])
    add(["help", "bogus"])
    add(["help", "times", "bogus"])
    add(["help", "config", "set"])
    add(["help", "config", "bogus"])
    add(["help", "--man", "times"])
    add(["help", "help"])
    add(["--", "times"])
    add(["times", "--", "--lat", "1"])
    add(["--log-level"])
    add(["--log-level", "bogus", "methods"])
    add(["--log-level", "LOUD", "methods"])
    add(["--log-level=", "methods"])
    add(["--log-file"])
    add(["--log-file=", "methods"])
    add(["--log-level", "error", "methods", "--format", "json"])
    add(["methods", "--log-level", "critical"])
    add(["--log-level", "debug", "times"] + CAIRO + ["--date", DATE])
    add(["--log-level=trace", "qibla"] + MAKKAH)
    add(["--log-level", "info", "times", "--lat", "51.5", "--lon", "-0.1", "--date", DATE],
        ["config", "set", "shafaq", "ahmer"], ["--log-level", "info", "times"] + LONDON + ["--date", DATE])
    add(["--log-file", "{tmp}/praykit.log", "--log-level", "debug", "times"] + MAKKAH + ["--date", DATE])
    add(["methods"], env={"PRAYKIT_LOG_LEVEL": "bogus"})
    add(["qibla"] + MAKKAH, env={"PRAYKIT_LOG_LEVEL": "DEBUG"})
    add(["qibla"] + MAKKAH, env={"PRAYKIT_LOG_LEVEL": ""})

    # ---- -h and --help on every command and verb, and `help <command>`.
    for path in OPTIONS:
        words = path.split()
        add(words + ["-h"])
        if len(words) == 1:
            add(["help"] + words)
        if path in ("times", "places search", "hijri convert", "config set", "log record", "notify"):
            add(words + ["--help"])
    add(["times", "--lat", "x", "-h"])
    add(["times", "--bogus", "-h"])
    add(["config", "set", "-h", "a", "b", "c"])
    add(["log", "bogus"])
    add(["places", "bogus"])
    add(["places", "serch", "Makkah"])
    add(["hijri", "bogus"])
    add(["config"])
    add(["log"])
    add(["places"])
    add(["config", "lst"])

    # ---- Usage errors for every option of every command: unknown, missing value, wrong value,
    # given twice, given with '='.
    # Each option name is tried once, with the first command that has it (the place and calculation
    # options with `times`).
    tried = set()
    for path, options in OPTIONS.items():
        words = path.split()
        pinned = PINNED.get(path, [])
        add(words + pinned + ["--bogus"])
        if path in ("times", "places search", "hijri", "log list", "config list"):
            add(words + pinned + ["-q"])
            add(words + pinned + ["--form"])
        for option in options:
            name = option.rstrip("=")
            takes_value = option.endswith("=")
            if name in tried:
                continue
            tried.add(name)
            if takes_value:
                if len(tried) % 3 == 1:
                    add(words + pinned + [name])  # missing value at the end
                if path == "serve" or name in ("--lat", "--lon", "--now", "--from", "--date") and pinned:
                    continue
                if name in BAD_VALUES:
                    base = [a for a in pinned]
                    if name in base:
                        index = base.index(name)
                        del base[index:index + 2]
                    add(words + base + [name, BAD_VALUES[name]])
            else:
                add(words + pinned + [name + "=yes"])  # a flag given a value
        value_options = [o.rstrip("=") for o in options if o.endswith("=")]
        if value_options and path in ("times", "next", "calendar", "notify", "hijri", "hijri convert", "log record",
                                      "log delete", "config list", "places search"):
            name = value_options[-1]
            add(words + pinned + [name, "a", name, "b"])  # given twice
            if path in ("times", "hijri convert", "log record"):
                add(words + pinned + [name + "=", "x"])
    for flag_case in (["times"] + PINNED["times"] + ["--offline", "--offline"],
                      ["notify", "--print-unit", "--print-unit"],
                      ["completions", "--zones", "--zones"],
                      ["help", "--man", "--man"]):
        add(flag_case)
    add(["times", "--lat", "21.4225", "--lat", "21.4225", "--lon", "39.8262", "--date", DATE])
    add(["times", "--lat=21.4225", "--lon=39.8262", "--date=" + DATE])
    add(["times", "--lat", "-21.4225", "--lon", "-39.8262", "--date", DATE])
    add(["times", "--lat", "--lon", "39.8262", "--date", DATE])
    add(["times", "extra"] + MAKKAH + ["--date", DATE])

    # ---- times: every option, every format.
    for fmt in ("table", "json", "csv", "JSON"):
        add(["times"] + MAKKAH + ["--date", DATE, "--format", fmt])
    add(["times"] + LONDON + ["--date", "2027-03-28", "--days", "3", "--format", "json"])
    for clock in ("12h", "12H"):
        add(["times"] + NEWYORK + ["--date", DATE, "--clock", clock])
    for days in ("7", "0", "3661"):
        add(["times"] + CAIRO + ["--date", "2027-01-01", "--days", days, "--format", "csv"])
    add(["times"] + KOLKATA + ["--date", "2027-01-01", "--days", "3660", "--format", "csv"])
    for elevation in ("-430", "8848", "100000"):
        add(["times"] + DEADSEA + ["--date", DATE, "--elevation", elevation])
    for zone in TZ_VALUES:
        add(["times"] + MAKKAH + ["--date", DATE, "--tz", zone])
    for zone in ("local", "Asia/Kolkata"):
        add(["times"] + KOLKATA + ["--date", DATE, "--tz", zone, "--format", "json"])
    for method in METHOD_NAMES:
        extra = ["--fajr-angle", "18", "--isha-interval", "90"] if method in ("custom", "99") else []
        add(["times"] + CAIRO + ["--date", DATE, "--method", method] + extra)
    add(["times"] + CAIRO + ["--date", DATE, "--method", "custom"])
    add(["times"] + CAIRO + ["--date", DATE, "--method", "custom", "--fajr-angle", "18"])
    add(["times"] + CAIRO + ["--date", DATE, "--method", "custom", "--fajr-angle", "18", "--isha-angle", "17",
                              "--maghrib-angle", "4", "--format", "json"])
    for madhab in ("hanafi", "2"):
        add(["times"] + KOLKATA + ["--date", DATE, "--madhab", madhab])
    for option, values in (("--fajr-angle", ["0", "12.5"]),
                           ("--isha-interval", ["90"]),
                           ("--maghrib-angle", ["4"]),
                           ("--maghrib-interval", ["3"]),
                           ("--imsak-minutes", ["0"]),
                           ("--imsak-angle", ["20", "10"])):
        for value in values:
            add(["times"] + MAKKAH + ["--date", DATE, "--method", "mwl", option, value])
    add(["times"] + MAKKAH + ["--date", DATE, "--isha-angle", "17", "--isha-interval", "90"])
    add(["times"] + MAKKAH + ["--date", DATE, "--maghrib-angle", "4", "--maghrib-interval", "3"])
    add(["times"] + MAKKAH + ["--date", DATE, "--imsak-minutes", "10", "--imsak-angle", "20"])
    for rule in ("none", "middle-of-the-night", "seventh-of-the-night", "twilight-angle", "recommended"):
        add(["times"] + TROMSO + ["--date", "2027-06-01", "--days", "2", "--method", "mwl",
                                   "--high-latitude-rule", rule, "--format", "json"])
    for resolution in ("unresolved", "nearest-latitude", "nearest-day"):
        add(["times"] + LONGYEARBYEN + ["--date", "2026-12-21", "--polar-resolution", resolution])
    add(["times"] + NORTHPOLE + ["--date", "2027-03-20", "--days", "3", "--polar-resolution", "nearest-day",
                                  "--format", "csv"])
    for shafaq in ("general", "ahmer", "abyad"):
        add(["times"] + LONDON + ["--date", "2026-06-21", "--method", "moonsighting-committee", "--shafaq", shafaq])
    add(["times"] + LONDON + ["--date", "2026-06-21", "--method", "isna", "--shafaq", "ahmer"])
    for night in ("sunset-to-sunrise", "sunset-to-fajr", "maghrib-to-fajr"):
        add(["times"] + CAIRO + ["--date", DATE, "--method", "jafari", "--night", night, "--format", "json"])
    for adjust in ("fajr=2,isha=-3", "fajr=2,fajr=3", "",
                   "imsak=1,fajr=1,sunrise=1,dhuhr=1,asr=1,sunset=1,maghrib=1,isha=1,midnight=1", "FAJR=2",
                   " fajr = 2 "):
        add(["times"] + CAIRO + ["--date", DATE, "--adjust", adjust])
    for rounding in ("nearest", "up", "none"):
        add(["times"] + CAIRO + ["--date", DATE, "--rounding", rounding, "--format", "json"])
    for calendar in ("civil", "UMM-AL-QURA", "islamic"):
        add(["times"] + MAKKAH + ["--date", "2027-02-07", "--days", "3", "--hijri-calendar", calendar])
    for offset in ("-2", "3"):
        add(["times"] + MAKKAH + ["--date", "2027-02-07", "--days", "2", "--hijri-offset", offset])
    # Remote sources, without the network.
    add(["times"] + MAKKAH + ["--date", DATE, "--source", "aladhan", "--offline"])
    add(["times"] + MAKKAH + ["--date", DATE, "--source", "aladhan", "--offline", "--format", "json"])
    add(["times"] + MAKKAH + ["--date", DATE, "--source", "aladhan", "--api-url", "http://127.0.0.1:9",
                              "--timeout", "1"])
    add(["times"] + MAKKAH + ["--date", DATE, "--source", "aladhan", "--api-url", "ftp://example.com", "--offline"])
    add(["times"] + LONDON + ["--date", DATE, "--source", "london", "--offline"])
    add(["times"] + LONDON + ["--date", DATE, "--source", "london", "--offline", "--api-key", "k"])
    add(["times"] + LONDON + ["--date", DATE, "--source", "london", "--offline"], env={"PRAYKIT_API_KEY": "k"})
    add(["times"] + MAKKAH + ["--date", DATE, "--source", "london", "--offline"], env={"PRAYKIT_API_KEY": "k"})
    add(["times"] + MAKKAH + ["--date", DATE, "--source", "calculated", "--offline"])
    for timeout in ("301", "0.5"):
        add(["times"] + MAKKAH + ["--date", DATE, "--source", "aladhan", "--offline", "--timeout", timeout])
    # Places: cities, coordinates, high latitudes, the date line.
    for city in ("مكة", "London, Canada", "Springfield", "Springfield, Illinois", "Atlantis", "   ", "Tromsø",
                 "Köln", "Birmingham, AL", "Kiritimati"):
        add(["times", "--city", city, "--date", DATE])
    add(["times", "--city", "Makkah", "--date", DATE, "--format", "json"])
    add(["times", "--city", "London", "--date", DATE, "--tz", "UTC", "--format", "json"])
    add(["times", "--city", "Makkah", "--lat", "1", "--date", DATE])
    add(["times", "--city", "Makkah"] + MAKKAH + ["--date", DATE])
    add(["times", "--lat", "21.4225", "--date", DATE])
    add(["times", "--lon", "39.8262", "--date", DATE])
    add(["times", "--date", DATE])
    for lat, lon in (("0", "-180.5"), ("-90", "-180"), ("1e1", "1e1"), ("-0", "-0"), ("+21.4", "+39.8")):
        add(["times", "--lat", lat, "--lon", lon, "--date", DATE])
    for place in (TROMSO, REYKJAVIK, LONGYEARBYEN):
        for date in ("2026-06-21", "2026-12-21"):
            add(["times"] + place + ["--date", date, "--format", "json"])
    for place in (KIRITIMATI, CHATHAM, APIA):
        add(["times"] + place + ["--date", "2027-01-01"])
        add(["times"] + place + ["--date", "2026-12-30", "--days", "3", "--tz", "UTC", "--format", "csv"])
    for date in ("2027-03-28", "2027-10-31", "2028-02-29", "2026-13-01", "20261120", "0999-12-31", "1000-01-01",
                 "3001-01-01"):
        add(["times"] + (LONDON if len(c.cases) % 2 else NEWYORK) + ["--date", date, "--format", "csv"])
    # Random combinations.
    flags = [("--madhab", ["shafi", "hanafi"]), ("--high-latitude-rule", ["none", "middle-of-the-night",
                                                                          "seventh-of-the-night", "twilight-angle",
                                                                          "recommended"]),
             ("--night", ["sunset-to-sunrise", "sunset-to-fajr", "maghrib-to-fajr"]),
             ("--rounding", ["nearest", "up", "none"]), ("--clock", ["12h", "24h"]),
             ("--hijri-calendar", ["umm-al-qura", "civil"]), ("--hijri-offset", ["-2", "-1", "0", "1", "2"]),
             ("--imsak-minutes", ["0", "5", "15"]), ("--elevation", ["0", "250", "1500"]),
             ("--adjust", ["fajr=2,isha=-3", "dhuhr=1", "maghrib=3,asr=-1"]),
             ("--tz", ["UTC", "+03:00", "local", "Europe/London", "Asia/Calcutta"])]
    for _ in range(8):
        place = rng.choice(PLACES)
        date = datetime.date(2026, 1, 1) + datetime.timedelta(days=rng.randint(0, 1500))
        argv = ["times"] + place + ["--date", date.isoformat(), "--method",
                                    rng.choice(METHOD_NAMES[:23] + METHOD_IDS)]
        for option, values in flags:
            if rng.random() < 0.25:
                argv += [option, rng.choice(values)]
        if rng.random() < 0.3:
            argv += ["--days", str(rng.randint(2, 10))]
        argv += ["--format", rng.choice(["table", "json", "csv"])]
        add(argv)
    # Without a date: today (kept, marked).
    add(["times"] + MAKKAH, now=True)
    add(["times", "--city", "London"], now=True)
    add(["times"] + KIRITIMATI + ["--format", "json"], now=True)

    # ---- next: pinned with --now.
    for fmt in ("waybar", "i3bar", "polybar", "tmux", "table"):
        add(["next"] + MAKKAH + ["--now", NOW, "--format", fmt])
    for number, instant in enumerate(("2026-11-29T04:00:17+03:00", "2026-11-29T23:59:31+03:00",
                                      "2026-11-29T00:00:01Z", "2026-11-29T11:14:17Z", "2026-11-29T14:14:17.250+03:00",
                                      "2026-11-29T14:14:17", "2026-11-29 14:14:17+03:00",
                                      "2027-02-10T18:00:07+03:00", "2026-11-29T14:14:17+0300",
                                      "1969-12-31T23:59:59Z", "9999-12-31T23:59:59Z")):
        add(["next"] + MAKKAH + ["--now", instant] + (["--format", "json"] if number % 2 else []))
    for place in (TROMSO, LONGYEARBYEN, KIRITIMATI, NORTHPOLE):
        add(["next"] + place + ["--now", "2026-12-21T12:00:07Z", "--format", "json"])
    for place in (TROMSO, LONGYEARBYEN):
        add(["next"] + place + ["--now", "2027-06-21T12:00:07Z"])
    add(["next", "--city", "London", "--now", NOW])
    add(["next", "--city", "Makkah", "--now", NOW, "--tz", "UTC", "--format", "waybar"])
    add(["next"] + MAKKAH + ["--now", NOW, "--tz", "Asia/Kolkata"])
    add(["next"] + MAKKAH + ["--now", NOW, "--method", "isna", "--madhab", "hanafi", "--adjust", "asr=5"])
    add(["next"] + MAKKAH + ["--now", NOW, "--updates", "1"])
    add(["next"] + MAKKAH + ["--now", NOW, "--updates", "0", "--watch"])
    add(["config", "set", "city", "Makkah"], ["config", "set", "iqama", "fajr=+20,dhuhr=13:30,asr=+10"],
        ["config", "set", "jumuah", "13:15"], ["next", "--now", NOW], ["next", "--now", NOW, "--format", "json"],
        ["next", "--now", "2026-11-27T11:30:07+03:00", "--format", "waybar"])
    add(["next"] + MAKKAH, now=True)
    add(["next"] + MAKKAH + ["--format", "json"], now=True)

    # ---- calendar.
    add(["calendar"] + MAKKAH + ["--date", DATE, "--days", "1"])
    add(["calendar"] + MAKKAH + ["--month", "2027-02", "--alarm", "10m"])
    add(["calendar"] + LONDON + ["--year", "2027", "--prayers", "fajr,maghrib"])
    add(["calendar", "--city", "London", "--date", DATE, "--days", "3", "--prayers", "all"])
    add(["calendar", "--city", "Springfield, Illinois", "--date", "2027-03-13", "--days", "3"])
    for prayers in ("sunrise,dhuhr", "imsak,midnight,firstThird,lastThird", "fajr,fajr", "", "FAJR"):
        add(["calendar"] + CAIRO + ["--date", DATE, "--days", "1", "--prayers", prayers])
    for alarms in (["0m"], ["25h"], ["10"], ["10m", "1h", "0m"]):
        argv = ["calendar"] + CAIRO + ["--date", DATE, "--days", "1", "--prayers", "fajr"]
        for alarm in alarms:
            argv += ["--alarm", alarm]
        add(argv)
    for duration in ("240", "0", "241"):
        add(["calendar"] + CAIRO + ["--date", DATE, "--days", "1", "--prayers", "dhuhr", "--duration", duration])
    for span in (["--date", DATE, "--month", "2027-02"], ["--days", "3", "--month", "2027-02"],
                 ["--month", "2027-02", "--year", "2027"], ["--date", DATE, "--year", "2027"],
                 ["--month", "2027-13"], ["--month", "2027-2"], ["--year", "10000"], ["--year", "999"],
                 ["--date", DATE, "--days", "3660", "--prayers", "fajr"]):
        add(["calendar"] + MAKKAH + span)
    add(["calendar"] + TROMSO + ["--date", "2026-12-20", "--days", "3", "--prayers", "all"])
    add(["calendar"] + LONGYEARBYEN + ["--date", "2026-12-20", "--days", "2", "--polar-resolution", "nearest-day"])
    add(["calendar"] + CHATHAM + ["--date", "2026-12-31", "--days", "2", "--tz", "Pacific/Chatham"])
    add(["calendar"] + MAKKAH + ["--date", DATE, "--days", "2", "--tz", "Asia/Kolkata", "--method", "karachi",
                                 "--madhab", "hanafi", "--adjust", "fajr=2"])
    add(["config", "set", "city", "Cairo"], ["config", "set", "iqama", "fajr=+20,dhuhr=13:30,maghrib=+5"],
        ["calendar", "--date", DATE, "--days", "2"])
    add(["calendar"] + MAKKAH, now=True)

    # ---- notify --dry-run and --print-unit.
    plan = ["notify", "--dry-run", "--from", "2026-11-20T00:00:00+03:00", "--until", "2026-11-21T00:00:00+03:00"]
    add(plan + MAKKAH)
    add(plan + MAKKAH + ["--format", "json"])
    add(plan + MAKKAH + ["--before", "10", "--before", "30", "--format", "json"])
    for before in ("720", "721"):
        add(plan + MAKKAH + ["--before", before])
    add(plan + MAKKAH + ["--no-adhan", "--before", "15"])
    add(plan + MAKKAH + ["--no-jumuah"])
    add(plan + MAKKAH + ["--iqama"])
    add(plan + MAKKAH + ["--limit", "3"])
    add(plan + MAKKAH + ["--hook", "echo hello"])
    add(plan + MAKKAH + ["--hook", ""])
    for prayers in ("sunrise,fajr", "imsak"):
        add(plan + MAKKAH + ["--prayers", prayers])
    ramadan = ["notify", "--dry-run", "--from", "2027-02-10T00:00:00+03:00", "--until", "2027-02-11T00:00:00+03:00"]
    add(ramadan + MAKKAH)
    add(ramadan + MAKKAH + ["--no-ramadan"])
    add(ramadan + MAKKAH + ["--format", "json", "--before", "20"])
    add(["notify", "--dry-run", "--from", "2026-11-20T00:00:00Z"] + LONDON)
    add(["notify", "--dry-run", "--from", "2026-11-20T00:00:00Z", "--until", "2026-12-20T00:00:00Z", "--format",
         "json"] + TROMSO)
    add(["notify", "--dry-run", "--from", "2026-01-01T00:00:00Z", "--until", "2027-02-05T00:00:00Z", "--prayers",
         "fajr", "--no-ramadan", "--no-jumuah"] + CAIRO)
    add(["notify", "--dry-run", "--from", "2026-01-01T00:00:00Z", "--until", "2027-02-06T00:00:01Z"] + CAIRO)
    add(["notify", "--dry-run", "--from", "2026-11-21T00:00:00Z", "--until", "2026-11-20T00:00:00Z"] + CAIRO)
    add(["notify", "--dry-run", "--from", "2026-11-21", "--until", "2026-11-22T00:00:00Z"] + CAIRO)
    add(["notify", "--dry-run", "--from", "2026-11-21T10:00:00Z", "--until", "2026-11-21T10:05:00Z"] + CAIRO)
    add(["notify", "--dry-run", "--from", "2026-12-31T00:00:00Z", "--until", "2027-01-02T00:00:00Z", "--tz",
         "Pacific/Kiritimati"] + KIRITIMATI)
    add(["notify", "--dry-run", "--from", "2026-11-20T00:00:00Z", "--city", "Springfield, Illinois", "--before",
         "5", "--format", "json"])
    add(["config", "set", "city", "Makkah"], ["config", "set", "iqama", "fajr=+20,dhuhr=13:30"],
        ["config", "set", "reminder-minutes", "15,5"], ["config", "set", "notify-hook", "true"],
        ["config", "set", "jumuah", "13:15,14:00"],
        ["notify", "--dry-run", "--from", "2026-11-20T00:00:00+03:00", "--iqama"],
        ["notify", "--dry-run", "--from", "2026-11-20T00:00:00+03:00", "--format", "json"])
    add(["notify", "--print-unit"])
    add(["notify", "--print-unit", "--format", "json"])
    add(["notify", "--from", "2026-11-20T00:00:00Z"] + MAKKAH)  # usage error: --from goes with --dry-run
    add(["notify", "--limit", "0"] + MAKKAH)  # usage error before the daemon starts
    add(["notify", "--dry-run"] + MAKKAH, now=True)
    add(["notify", "--dry-run", "--format", "json"], now=True)  # no place: usage error (marked: would plan today)

    # ---- methods, qibla.
    add(["methods"])
    add(["methods", "--format", "json"])
    add(["methods", "--format", "csv"])
    add(["methods", "extra"])
    for place in [LONDON, TROMSO, CHATHAM, NORTHPOLE, ["--lat", "-90", "--lon", "0"],
                  ["--lat", "-21.4225", "--lon", "-140.1738"], ["--lat", "21.422487", "--lon", "39.826206"],
                  ["--lat", "21.43", "--lon", "39.83"]]:
        add(["qibla"] + place)
    add(["qibla"] + NEWYORK + ["--format", "json"])
    add(["qibla"] + ["--lat", "21.4225", "--lon", "39.8262", "--format", "json"])
    add(["qibla", "--lat", "21.4225"])
    add(["qibla"])
    add(["qibla", "--lat", "91", "--lon", "0"])
    add(["qibla", "--city", "London"])
    add(["config", "set", "city", "London"], ["qibla"], ["qibla", "--format", "json"])

    # ---- places.
    for query in ("Medina", "Köln", "مكة", "Birmingham, AL", "London, Canada", "xyzzy", "", "a", "new york",
                  "Makkah, Egypt"):
        add(["places", "search", query])
    add(["places", "search", "Springfield", "--format", "json", "--limit", "3"])
    for limit in ("101",):
        add(["places", "search", "Springfield", "--limit", limit])
    add(["places", "search"])
    add(["places", "search", "London", "Paris"])
    for number, place in enumerate((MAKKAH, KOLKATA, OCEAN, NORTHPOLE, ["--lat", "43.8", "--lon", "87.6"],
                                    ["--lat", "31.77", "--lon", "35.23"], ["--lat", "0", "--lon", "180"],
                                    ["--lat", "0", "--lon", "-180"], ["--lat", "-77.846", "--lon", "166.676"],
                                    ["--lat", "91", "--lon", "0"], ["--lat", "1"])):
        add(["places", "zone"] + place + (["--format", "json"] if number % 2 else []))
    add(["places", "zone"])
    for place in (OCEAN, NORTHPOLE, ["--lat", "0", "--lon", "180"]):
        add(["places", "near"] + place)
    add(["places", "near"] + MAKKAH + ["--limit", "3", "--format", "json"])
    add(["places", "near"] + MAKKAH + ["--limit", "100"])
    add(["places", "near"])
    add(["config", "set", "city", "Reykjavik"], ["places", "near"], ["places", "zone"])

    # ---- hijri: legacy flags and verbs.
    add(["hijri", "--date", DATE])
    add(["hijri", "--date", DATE, "--days", "7", "--format", "json"])
    add(["hijri", "--date", "2027-02-05", "--days", "400", "--format", "json"])
    add(["hijri", "--date", "1900-01-01", "--days", "60000"], name="hijri --date 1900-01-01 --days 60000 (tail)")
    for days in ("0", "60001"):
        add(["hijri", "--date", DATE, "--days", days])
    for calendar in ("civil", "gregorian"):
        add(["hijri", "--date", DATE, "--days", "3", "--calendar", calendar])
    for offset in ("-2", "3"):
        add(["hijri", "--date", DATE, "--offset", offset])
    for number, date in enumerate(("1924-07-31", "1924-08-01", "2077-11-16", "2077-11-17", "0622-07-15",
                                   "9999-12-31")):
        if number % 2:
            add(["hijri", "--date", date])
        else:
            add(["hijri", "days", "--date", date, "--calendar", "civil", "--format", "json"])
    add(["hijri", "--to-gregorian", "1448-09-01"])
    add(["hijri", "--to-gregorian", "1448-09-01", "--format", "json", "--calendar", "civil"])
    add(["hijri", "--month", "1448-09"])
    add(["hijri", "--month", "1448-13"])
    add(["hijri", "--next-notable", "--date", DATE, "--format", "json"])
    add(["hijri", "--to-gregorian", "1448-09-01", "--month", "1448-09"])
    add(["hijri", "--month", "1448-09", "--date", DATE])
    add(["hijri", "--next-notable", "--days", "3", "--date", DATE])
    add(["hijri", "--at", "18:30", "--date", DATE] + MAKKAH + ["--tz", "Asia/Riyadh"])
    add(["hijri", "days", "--at", "12:00", "--date", DATE] + MAKKAH + ["--format", "json"])
    add(["hijri", "days", "--at", "00:00", "--date", DATE] + MAKKAH)
    for at in ("24:00",):
        add(["hijri", "days", "--at", at, "--date", DATE] + MAKKAH)
    add(["hijri", "days", "--at", "18:30", "--date", DATE])
    add(["hijri", "days", "--at", "18:30", "--date", DATE, "--days", "2"] + MAKKAH)
    add(["hijri", "days", "--date", DATE] + MAKKAH)
    add(["hijri", "days", "--at", "01:30", "--date", "2027-03-28"] + LONDON + ["--tz", "Europe/London"])
    add(["hijri", "days", "--at", "12:00", "--date", "2026-12-21"] + LONGYEARBYEN)
    add(["config", "set", "city", "Makkah"], ["hijri", "days", "--at", "18:30", "--date", DATE])
    for zone in ("asia/kolkata", "+14:00"):
        add(["hijri", "days", "--date", DATE, "--tz", zone])
    add(["hijri", "notable", "--date", DATE, "--tz", "Pacific/Kiritimati"])
    for text in ("1448-09-01", "1448-9-1", "1448-09-30", "1342-12-29", "1501-01-01", "1448-13-01", "9999-12-29"):
        add(["hijri", "convert", text])
    for number, text in enumerate(("2027-02-08", "1924-08-01", "2077-11-17", "0622-07-16", "2027-02-30")):
        add(["hijri", "convert", text, "--from", "gregorian"]
            + (["--calendar", "civil", "--format", "json"] if number % 2 else []))
    add(["hijri", "convert", "1448-09-01", "--from", "julian"])
    add(["hijri", "convert", "1448-09-01", "--offset", "2", "--format", "json"])
    add(["hijri", "convert"])
    add(["hijri", "convert", "--", "-1448-09-01"])
    for month in ("1448-12", "1501-01", "1448-9", "9999-12"):
        add(["hijri", "month", month])
    add(["hijri", "month", "1448-09", "--calendar", "civil", "--format", "json"])
    add(["hijri", "month", "1448-09", "--offset", "1"])
    add(["hijri", "month"])
    for date in ("2027-02-07", "9999-12-01"):
        add(["hijri", "notable", "--date", date])
    add(["hijri", "notable", "--date", DATE, "--format", "json", "--calendar", "civil", "--offset", "-1"])
    add(["config", "set", "hijri-offset", "1"], ["config", "set", "hijri-calendar", "civil"],
        ["hijri", "--date", DATE], ["hijri", "convert", "1448-09-01"], ["hijri", "month", "1448-09"],
        ["hijri", "notable", "--date", DATE], ["hijri", "--date", DATE, "--offset", "0", "--calendar", "umm-al-qura"],
        ["times"] + MAKKAH + ["--date", DATE])
    add(["hijri"], now=True)
    add(["hijri", "notable"], now=True)
    add(["hijri", "days", "--format", "json"], now=True)

    # ---- config.
    add(["config", "list"])
    add(["config", "list", "--format", "json"])
    add(["config", "list", "extra"])
    add(["config", "get", "method"])
    add(["config", "get"])
    add(["config", "get", "methd"])
    add(["config", "unset", "method"])
    add(["config", "unset", "bogus"])
    add(["config", "set"])
    add(["config", "set", "method"])
    add(["config", "set", "bogus", "1"])
    values = {
        "latitude": ["91"], "longitude": ["-0.1278"],
        "tz": ["Asia/Kolkata", "asia/kolkata", "US/Eastern"],
        "place-name": [""], "method": ["4", "6"], "fajr-angle": ["90"], "isha-interval": ["1.5"],
        "high-latitude-rule": ["angle"], "clock": ["13h"], "iqama": ["fajr=+20,dhuhr=13:30", "fajr=20"],
        "iqama-rounding": ["61"], "jumuah": ["1pm"], "reminder-minutes": ["15,5"], "notify-hook": [""],
    }
    for key, options in values.items():
        for value in options:
            add(["config", "set", key, value], ["config", "get", key])
    add(["config", "set", "city", "London"], ["config", "list"], ["config", "list", "--format", "json"],
        ["times", "--date", DATE], ["config", "unset", "latitude"], ["times", "--date", DATE], ["config", "list"])
    for city in ("London, Canada", "Springfield", "Atlantis", "", "مكة"):
        add(["config", "set", "city", city], ["config", "list", "--format", "json"])
    add(["config", "set", "city"])
    add(["config", "get", "city"])
    add(["config", "unset", "city"])
    add(["config", "set", "latitude", "21.4225"], ["config", "set", "longitude", "39.8262"],
        ["config", "set", "method", "isna"], ["config", "set", "madhab", "hanafi"], ["config", "set", "tz", "UTC"],
        ["config", "set", "clock", "12h"], ["config", "set", "adjust", "fajr=2"], ["config", "list"],
        ["times", "--date", DATE], ["times", "--date", DATE, "--method", "mwl", "--clock", "24h"],
        ["times", "--date", DATE, "--format", "json"], ["config", "unset", "method"], ["config", "unset", "method"],
        ["config", "get", "method"], ["export"])
    add(["config", "set", "method", "custom"], ["times"] + MAKKAH + ["--date", DATE],
        ["config", "set", "fajr-angle", "18"], ["config", "set", "isha-interval", "90"],
        ["times"] + MAKKAH + ["--date", DATE], ["times"] + MAKKAH + ["--date", DATE, "--isha-angle", "17"])
    add(["config", "set", "shafaq", "abyad"], ["config", "set", "method", "moonsighting-committee"],
        ["times"] + LONDON + ["--date", "2026-06-21"], ["times"] + LONDON + ["--date", "2026-06-21", "--method", "mwl"])
    add(["config", "set", "longitude", "-0.1278"], ["config", "set", "latitude", "--", "-33.5"],
        ["config", "get", "longitude"], ["config", "get", "latitude"])
    add(["config", "set", "lat", "21.4225"], ["config", "get", "lat"], ["config", "get", "latitude"],
        ["config", "unset", "lat"], ["config", "get", "latitude"])
    add(["config", "set", "tz", "Asia/Riyadh"], ["times"] + LONDON + ["--date", DATE])

    # ---- log.
    add(["log", "record", "--prayer", "fajr", "--status", "prayed", "--date", DATE],
        ["log", "list", "--from", "2026-11-01", "--to", "2026-11-30"])
    add(["log", "record", "--prayer", "all", "--status", "prayed", "--date", "2026-11-18"],
        ["log", "record", "--prayer", "all", "--status", "prayed", "--date", "2026-11-19"],
        ["log", "record", "--prayer", "fajr,isha", "--status", "late", "--date", DATE],
        ["log", "record", "--prayer", "dhuhr", "--status", "missed", "--date", DATE],
        ["log", "record", "--prayer", "asr", "--status", "qada", "--date", DATE],
        ["log", "record", "--prayer", "maghrib", "--status", "missed", "--date", "2026-10-01"],
        ["log", "list", "--from", "2026-11-01", "--to", "2026-11-30"],
        ["log", "list", "--from", "2026-11-01", "--to", "2026-11-30", "--format", "json"],
        ["log", "list", "--from", "2026-11-01", "--to", "2026-11-30", "--format", "csv"],
        ["log", "list", "--from", "2026-11-19", "--to", "2026-11-19"],
        ["log", "list", "--from", "2025-01-01", "--to", "2025-01-07"],
        ["log", "stats"], ["log", "stats", "--format", "json"],
        ["log", "export"], ["log", "export", "--format", "json"],
        ["log", "delete", "--prayer", "fajr", "--date", DATE],
        ["log", "delete", "--prayer", "fajr", "--date", DATE],
        ["log", "delete", "--prayer", "all", "--date", "2026-11-18"],
        ["log", "list", "--from", "2026-10-01", "--to", "2026-11-30"], ["export"])
    add(["log", "record", "--prayer", "isha", "--status", "prayed", "--date", DATE],
        ["log", "record", "--prayer", "isha", "--status", "missed", "--date", DATE],
        ["log", "record", "--prayer", "isha", "--status", "qada", "--date", DATE],
        ["log", "list", "--from", DATE, "--to", DATE])
    for prayer in ("FAJR", "sunrise", "all,fajr", "dhuhr, asr"):
        add(["log", "record", "--prayer", prayer, "--status", "prayed", "--date", DATE])
    for status in ("PRAYED", ""):
        add(["log", "record", "--prayer", "fajr", "--status", status, "--date", DATE])
    for date in ("2099-01-01", "0001-01-01"):
        add(["log", "record", "--prayer", "fajr", "--status", "prayed", "--date", date])
    add(["log", "record", "--status", "prayed", "--date", DATE])
    add(["log", "record", "--prayer", "fajr", "--date", DATE])
    add(["log", "record", "--prayer", "fajr", "--status", "prayed", "--date", DATE, "--tz", "Bogus/Zone"])
    add(["log", "record", "--prayer", "fajr", "--status", "prayed", "--date", DATE, "--tz", "Pacific/Kiritimati"])
    add(["log", "list", "--from", "2026-11-30", "--to", "2026-11-01"])
    add(["log", "list", "--from", "0001-01-01", "--to", "9999-12-31"])
    add(["log", "stats", "--tz", "Nowhere"])
    add(["log", "delete", "--prayer", "fajr"])
    add(["log", "delete", "--date", DATE])
    add(["log", "delete", "--prayer", "all", "--date", DATE])
    add(["log", "export", "--format", "table"])
    add(["log", "export", "--format", "json"])
    add(["log", "stats", "--format", "json"])
    add(["log", "record", "--prayer", "fajr", "--status", "prayed"], ["log", "list"], now=True)
    add(["log", "record", "--prayer", "all", "--status", "prayed", "--date", "2025-03-01"], ["log", "list"],
        ["log", "list", "--from", "2025-01-01"], ["log", "stats"], now=True)

    # ---- export and import.
    good = backup({"latitude": "21.4225", "longitude": "39.8262", "tz": "Asia/Riyadh", "method": "umm-al-qura",
                   "place-name": "Makkah", "iqama": "fajr=+20,dhuhr=13:30"},
                  [entry("2026-11-18", "fajr", "prayed"), entry("2026-11-18", "isha", "late"),
                   entry("2026-11-19", "asr", "missed")])
    add(["export"])
    add(["export", "extra"])
    add(["export", "--format", "json"])
    add(["import", "{tmp}/good.json"], ["export"], ["config", "list"],
        ["log", "list", "--from", "2026-11-01", "--to", "2026-11-30"], ["times", "--date", DATE],
        files={"good.json": good})
    add({"argv": ["import", "-"], "stdin": good}, ["export"])
    add(["config", "set", "method", "isna"], ["log", "record", "--prayer", "fajr", "--status", "prayed", "--date",
                                               DATE],
        ["import", "{tmp}/good.json"], ["config", "get", "method"], ["log", "export"], files={"good.json": good})
    add(["config", "set", "city", "Cairo"], ["log", "record", "--prayer", "all", "--status", "late", "--date", DATE],
        {"argv": ["export"], "stdout_to": "backup.json"},
        {"argv": ["import", "{tmp}/backup.json"], "env": {"PRAYKIT_DATABASE": "{tmp}/second.sqlite"}},
        {"argv": ["config", "list", "--format", "json"], "env": {"PRAYKIT_DATABASE": "{tmp}/second.sqlite"}},
        {"argv": ["log", "export"], "env": {"PRAYKIT_DATABASE": "{tmp}/second.sqlite"}})
    bad_files = {
        "empty.json": "",
        "notjson.json": "this is not JSON\n",
        "wrongformat.json": backup(fmt="something-else"),
        "version2.json": backup(version=2),
        "badpref.json": backup({"latitude": "999"}),
        "unknownkey.json": backup({"colour": "green"}),
        "badmethod.json": backup({"method": "bogus"}),
        "duplicate.json": backup(log=[entry(DATE, "fajr", "prayed"), entry(DATE, "fajr", "late")]),
        "badprayer.json": backup(log=[entry(DATE, "brunch", "prayed")]),
        "badstatus.json": backup(log=[entry(DATE, "fajr", "skipped")]),
        "baddate.json": backup(log=[entry("2026-02-30", "fajr", "prayed")]),
        "badrecorded.json": backup(log=[entry(DATE, "fajr", "prayed", "yesterday")]),
        "futuredate.json": backup(log=[entry("2099-01-01", "fajr", "prayed")]),
        "extrafield.json": json.dumps({"format": "praykit-backup", "version": 1, "preferences": {}, "prayerLog": [],
                                       "extra": True}) + "\n",
        "numbers.json": json.dumps({"format": "praykit-backup", "version": 1, "preferences": {"latitude": 21.4},
                                    "prayerLog": []}) + "\n",
        "bom.json": "\ufeff" + backup({"method": "mwl"}),
        "big.json": backup({"method": "mwl"}, [
            entry((datetime.date(2020, 1, 1) + datetime.timedelta(days=d)).isoformat(), p, "prayed")
            for d in range(200) for p in ("fajr", "dhuhr", "asr", "maghrib", "isha")]),
    }
    for name in bad_files:
        add(["config", "set", "method", "isna"], ["import", "{tmp}/" + name], ["config", "get", "method"],
            ["log", "stats"] if name == "big.json" else ["log", "export"], files={name: bad_files[name]})
    add(["import", "{tmp}/missing.json"])
    add(["import", "{tmp}"])
    add(["import"])
    add(["import", "a", "b"])
    add({"argv": ["import", "-"], "stdin": ""})
    add({"argv": ["import", "-"], "stdin": "{"})

    # ---- completions.
    for shell in ("bash", "zsh", "fish"):
        add(["completions", shell])
    add(["completions", "--zones"])
    add(["completions"])
    add(["completions", "powershell"])
    add(["completions", "bsh"])
    add(["completions", "BASH"])
    add(["completions", "--zones", "bash"])
    add(["completions", "bash", "zsh"])

    # ---- serve: only what fails before the server starts.
    for argv in (["serve", "--port", "http"], ["serve", "--port", "70000"], ["serve", "--port", "-1"],
                 ["serve", "--threads", "0"], ["serve", "--threads", "257"], ["serve", "--timeout", "0"],
                 ["serve", "--timeout", "3601"], ["serve", "--max-connections", "0"], ["serve", "--host", "bogus host"],
                 ["serve", "extra"]):
        add(argv)

    # ---- The environment: where the database is, and the machine's zone.
    add(["config", "set", "method", "isna"], ["config", "get", "method"], ["export"],
        env={"PRAYKIT_DATABASE": None})
    add(["config", "set", "method", "isna"], ["config", "get", "method"],
        env={"PRAYKIT_DATABASE": None, "XDG_DATA_HOME": None})
    add(["config", "set", "method", "isna"], env={"PRAYKIT_DATABASE": "{tmp}"})
    add(["config", "list"], env={"PRAYKIT_DATABASE": "{tmp}/no/such/folder/praykit.sqlite"})
    add(["config", "set", "method", "isna"], ["config", "get", "method"],
        env={"PRAYKIT_DATABASE": "{tmp}/garbage.sqlite"}, files={"garbage.sqlite": "this is not a database\n" * 100})
    add(["config", "list"], env={"PRAYKIT_DATABASE": ""})
    add(["times"] + KOLKATA + ["--date", DATE, "--tz", "local"], env={"TZ": "Asia/Kolkata"})
    add(["times"] + KOLKATA + ["--date", DATE, "--tz", "local"], env={"TZ": ":Europe/London"})
    add(["times"] + KOLKATA + ["--date", DATE, "--tz", "local"], env={"TZ": "Bogus/Zone"})
    add(["times"] + KOLKATA + ["--date", DATE, "--tz", "local"], env={"TZ": "asia/kolkata"})
    add(["log", "record", "--prayer", "fajr", "--status", "prayed", "--date", DATE], ["log", "list", "--from", DATE,
                                                                                         "--to", DATE],
        env={"TZ": "Pacific/Kiritimati"})
    add(["hijri", "days", "--date", DATE, "--tz", "local"], env={"TZ": "America/New_York"})
    return c.cases


# --------------------------------------------------------------------------------------------------
# Running


ISO_INSTANT = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:?\d{2})")
ICS_INSTANT = re.compile(r"\b(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z\b")
MAN_DATE = re.compile(r'^(\.TH [^\n"]*")(\d{4}-\d{2}-\d{2})(")', re.M)
SOURCE_LINE = re.compile(r"(source=[^\s:]+\.swift):\d+")
CURL_MS = re.compile(r"\bafter \d+ ms\b")
ATTEMPTS = re.compile(r"\bafter \d+ attempts\b")
DAY_AHEAD = re.compile(r"(recorded up to a day ahead \()(\d{4}-\d{2}-\d{2})(\))")


def instant(match, ics=False):
    try:
        if ics:
            y, mo, d, h, mi, s = (int(g) for g in match.groups())
            return datetime.datetime(y, mo, d, h, mi, s, tzinfo=datetime.timezone.utc).timestamp()
        y, mo, d, h, mi, s = (int(g) for g in match.groups()[:6])
        fraction = float(match.group(7) or 0)
        zone = match.group(8)
        if zone == "Z":
            offset = 0
        else:
            digits = zone[1:].replace(":", "")
            offset = (int(digits[:2]) * 3600 + int(digits[2:]) * 60) * (1 if zone[0] == "+" else -1)
        base = datetime.datetime(y, mo, d, h, mi, s, tzinfo=datetime.timezone.utc).timestamp()
        return base + fraction - offset
    except (ValueError, OverflowError):
        return None


def normalise(text, tmp, binaries, window):
    for path in binaries:
        text = text.replace(path, "<PRAYKIT>")
    text = text.replace(tmp, "<TMP>")
    start, end = window

    def now_or_keep(match, ics=False):
        value = instant(match, ics)
        if value is not None and start - 5 <= value <= end + 5:
            return "<NOW>"
        return match.group(0)

    text = ISO_INSTANT.sub(lambda m: now_or_keep(m), text)
    text = ICS_INSTANT.sub(lambda m: now_or_keep(m, ics=True), text)
    days = {datetime.datetime.fromtimestamp(t, datetime.timezone.utc).date().isoformat() for t in (start, end)}
    text = MAN_DATE.sub(lambda m: m.group(1) + ("<TODAY>" if m.group(2) in days else m.group(2)) + m.group(3), text)
    text = SOURCE_LINE.sub(r"\1:<LINE>", text)
    text = CURL_MS.sub("after <N> ms", text)
    text = ATTEMPTS.sub("after <N> attempts", text)  # the retries' jittered backoff decides how many fit
    # `log record` says which day is a day ahead of today.
    today = datetime.datetime.fromtimestamp(start, datetime.timezone.utc).date()
    near = {(today + datetime.timedelta(days=d)).isoformat() for d in range(-1, 3)}
    text = DAY_AHEAD.sub(lambda m: m.group(1) + ("<TOMORROW>" if m.group(2) in near else m.group(2)) + m.group(3), text)
    return text


def decode(data):
    return data.decode("utf-8", errors="backslashreplace")


def run_case(binary, root, index, case):
    tmp = os.path.join(root, "case%04d" % index)
    os.makedirs(tmp)
    os.makedirs(os.path.join(tmp, "xdg"))
    for name, content in case["files"].items():
        with open(os.path.join(tmp, name), "w", encoding="utf-8") as handle:
            handle.write(content)
    base_env = {
        "PATH": "/usr/bin:/bin", "HOME": tmp, "XDG_DATA_HOME": os.path.join(tmp, "xdg"), "TZ": "UTC", "LC_ALL": "C",
        "PRAYKIT_DATABASE": os.path.join(tmp, "praykit.sqlite"),
    }

    def environment(overrides):
        env = dict(base_env)
        for key, value in overrides.items():
            if value is None:
                env.pop(key, None)
            else:
                env[key] = value.replace("{tmp}", tmp)
        return env

    binaries = sorted({binary, os.path.realpath(binary)}, key=len, reverse=True)
    started = time.time()
    raw = []
    for step in case["steps"]:
        argv = [a.replace("{tmp}", tmp) for a in step["argv"]]
        env = environment({**case["env"], **step.get("env", {})})
        stdin = step.get("stdin")
        process = subprocess.Popen([binary] + argv, cwd=tmp, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                                   start_new_session=True)
        try:
            out, err = process.communicate(input=stdin.encode("utf-8") if stdin is not None else None,
                                           timeout=TIMEOUT)
            status = process.returncode
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            out, err = process.communicate()
            status = "timeout"
        if step.get("stdout_to"):
            with open(os.path.join(tmp, step["stdout_to"]), "wb") as handle:
                handle.write(out)
        raw.append((step["argv"], out, err, status))
    window = (started, time.time())
    results = []
    for argv, out, err, status in raw:
        stdout = normalise(decode(out), tmp, binaries, window)
        stderr = normalise(decode(err), tmp, binaries, window)
        if case["name"].endswith("(tail)"):
            lines = stdout.splitlines(True)
            stdout = "".join(lines[:20]) + "… %d lines …\n" % max(0, len(lines) - 40) + "".join(lines[-20:])
        results.append({"argv": argv, "stdout": stdout, "stderr": stderr, "status": status})
    shutil.rmtree(tmp, ignore_errors=True)
    return {"name": case["name"], "dependsOnNow": case["dependsOnNow"], "env": case["env"], "results": results}


def record(binary, out, jobs):
    binary = os.path.abspath(binary)
    if not os.access(binary, os.X_OK):
        raise SystemExit("not an executable: %s" % binary)
    cases = generate()
    root = tempfile.mkdtemp(prefix="cli-corpus-")
    started = time.monotonic()
    results = [None] * len(cases)
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, min(2, jobs))) as pool:
            futures = {pool.submit(run_case, binary, root, i, case): i for i, case in enumerate(cases)}
            for future in concurrent.futures.as_completed(futures):
                results[futures[future]] = future.result()
    finally:
        shutil.rmtree(root, ignore_errors=True)
    statuses = {}
    commands = 0
    with open(out, "w", encoding="utf-8") as handle:
        for result in results:
            for step in result["results"]:
                commands += 1
                statuses[str(step["status"])] = statuses.get(str(step["status"]), 0) + 1
            handle.write(json.dumps(result, ensure_ascii=False, sort_keys=True) + "\n")
    elapsed = time.monotonic() - started
    summary = ", ".join("%s: %d" % (k, statuses[k]) for k in sorted(statuses))
    print("Recorded %d cases (%d command lines) in %.1f s to %s (exit statuses %s)" % (
        len(cases), commands, elapsed, out, summary))
    if "timeout" in statuses:
        print("warning: %d command lines timed out" % statuses["timeout"], file=sys.stderr)


# --------------------------------------------------------------------------------------------------
# Comparing


def load(path):
    cases = {}
    order = []
    if not os.path.isfile(path):
        print("cannot read %s" % path, file=sys.stderr)
        sys.exit(2)
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            case = json.loads(line)
            if case["name"] in cases:
                raise SystemExit("%s:%d: the case %r is there twice" % (path, number, case["name"]))
            cases[case["name"]] = case
            order.append(case["name"])
    return cases, order


def diff_text(label, a, b, name_a, name_b, max_lines):
    lines = list(difflib.unified_diff(a.splitlines(True), b.splitlines(True), "%s (%s)" % (label, name_a),
                                      "%s (%s)" % (label, name_b), n=2))
    shown = []
    for line in lines[:max_lines]:
        shown.append("  " + (line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"))
    if len(lines) > max_lines:
        shown.append("  … %d more diff lines\n" % (len(lines) - max_lines))
    return "".join(shown)


def compare(path_a, path_b, max_lines=80):
    a, order_a = load(path_a)
    b, order_b = load(path_b)
    order = order_a + [name for name in order_b if name not in a]
    failing = ignored = 0
    for name in order:
        left, right = a.get(name), b.get(name)
        now = bool((left or {}).get("dependsOnNow") or (right or {}).get("dependsOnNow"))
        tag = "  (dependsOnNow: ignored)" if now else ""
        if left is None or right is None:
            print("=== %s\n  only in %s%s" % (name, path_a if right is None else path_b, tag))
        else:
            report = []
            steps = max(len(left["results"]), len(right["results"]))
            for index in range(steps):
                l = left["results"][index] if index < len(left["results"]) else None
                r = right["results"][index] if index < len(right["results"]) else None
                if l == r:
                    continue
                if l is None or r is None:
                    report.append("  command %d only in %s\n" % (index + 1, path_a if r is None else path_b))
                    continue
                command = "praykit " + " ".join(quote(x) for x in l["argv"])
                report.append("  command %d: %s\n" % (index + 1, command))
                if l["status"] != r["status"]:
                    report.append("  exit status %s -> %s\n" % (l["status"], r["status"]))
                if not now:
                    if l["stdout"] != r["stdout"]:
                        report.append(diff_text("stdout", l["stdout"], r["stdout"], path_a, path_b, max_lines))
                    if l["stderr"] != r["stderr"]:
                        report.append(diff_text("stderr", l["stderr"], r["stderr"], path_a, path_b, max_lines))
                else:
                    for stream in ("stdout", "stderr"):
                        if l[stream] != r[stream]:
                            report.append("  %s differs\n" % stream)
            if not report:
                continue
            print("=== %s%s" % (name, tag))
            sys.stdout.write("".join(report))
        if now:
            ignored += 1
        else:
            failing += 1
    print("%d of %d cases differ%s" % (failing + ignored, len(order),
                                        " (%d of them dependsOnNow, ignored)" % ignored if ignored else ""))
    return 1 if failing else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="mode", required=True)
    p = sub.add_parser("record", help="run every case and record the outputs")
    p.add_argument("--praykit", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--jobs", type=int, default=2, help="cases run at once (1 or 2; default 2)")
    p = sub.add_parser("compare", help="compare two recordings")
    p.add_argument("a")
    p.add_argument("b")
    sub.add_parser("list", help="print the cases")
    args = parser.parse_args()
    if args.mode == "record":
        record(args.praykit, args.out, args.jobs)
    elif args.mode == "compare":
        sys.exit(compare(args.a, args.b))
    else:
        cases = generate()
        for case in cases:
            print(("D " if case["dependsOnNow"] else "  ") + case["name"])
        print("%d cases, %d command lines" % (len(cases), sum(len(c["steps"]) for c in cases)), file=sys.stderr)


if __name__ == "__main__":
    main()
