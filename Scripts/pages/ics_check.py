#!/usr/bin/env python3
"""Reads PrayKit's calendar feeds as calendar apps do, with real iCalendar parsers.

`icalendar` (PyPI) parses each feed and every event is checked: CRLF lines of at most 75 octets, a
calendar of version 2.0 published (METHOD:PUBLISH), each event with a unique UID, a DTSTAMP, a SEQUENCE,
a DTSTART in UTC before its DTEND and a summary. Given a feed fetched before a change and one after it
(`--before`, `--after`), the two hold the same UIDs, no SEQUENCE goes down, and every event whose times
changed has a higher SEQUENCE. Then, where khal (Debian's `khal`) is installed, khal reads the feed
(`printics`), imports the feed before and then the feed after into a calendar of its own, and must hold
each event once, with the times after the change: what a subscribed calendar shows.

Prints `PASS …` and exits 0, or prints each failure and exits 1.
"""

import argparse
import os
import subprocess
import sys
import tempfile
from datetime import timezone

from icalendar import Calendar

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


def read(path):
    """The events of a feed by UID, after checking its form and each event."""
    with open(path, "rb") as handle:
        data = handle.read()
    lines = data.split(b"\r\n")
    check(data.endswith(b"\r\n") and lines[-1] == b"", f"{path}: the last line does not end in CRLF")
    check(all(b"\n" not in line and len(line) <= 75 for line in lines), f"{path}: a line is longer than 75 octets")
    calendar = Calendar.from_ical(data)
    check(str(calendar.get("VERSION")) == "2.0", f"{path}: VERSION is not 2.0")
    check(str(calendar.get("METHOD")) == "PUBLISH", f"{path}: METHOD is not PUBLISH")
    check(calendar.get("PRODID") is not None, f"{path}: no PRODID")
    events = {}
    for event in calendar.walk("VEVENT"):
        uid = str(event.get("UID", ""))
        check(uid and uid not in events, f"{path}: UID {uid!r} missing or repeated")
        start = event.decoded("DTSTART")
        end = event.decoded("DTEND")
        check(start.tzinfo is not None and start.utcoffset().total_seconds() == 0, f"{uid}: DTSTART not in UTC")
        check(start < end, f"{uid}: DTSTART {start} is not before DTEND {end}")
        check(event.get("DTSTAMP") is not None, f"{uid}: no DTSTAMP")
        check(isinstance(event.decoded("SEQUENCE"), int) and event.decoded("SEQUENCE") >= 0, f"{uid}: bad SEQUENCE")
        check(str(event.get("SUMMARY", "")).strip() != "", f"{uid}: no SUMMARY")
        events[uid] = {
            "start": start.astimezone(timezone.utc),
            "end": end.astimezone(timezone.utc),
            "sequence": event.decoded("SEQUENCE"),
            "summary": str(event.get("SUMMARY")),
            "description": str(event.get("DESCRIPTION", "")),
        }
    return events


def compare(before, after):
    """The same events; SEQUENCE never down, and up for each event whose times changed."""
    check(set(before) == set(after), f"the UIDs differ: {len(set(before) ^ set(after))} not in both")
    changed = 0
    for uid in set(before) & set(after):
        old, new = before[uid], after[uid]
        check(new["sequence"] >= old["sequence"], f"{uid}: SEQUENCE went down")
        if (old["start"], old["end"]) != (new["start"], new["end"]):
            changed += 1
            check(new["sequence"] > old["sequence"], f"{uid}: its times changed and its SEQUENCE did not grow")
    check(changed > 0, "no event changed between the two feeds")
    return changed


def khal(before, after, expected):
    """khal reads the feed, then keeps each event once after importing the feed before and after."""
    with tempfile.TemporaryDirectory(prefix="praykit-khal-") as folder:
        return khal_in(folder, before, after, expected)


def khal_in(folder, before, after, expected):
    """`khal` with its configuration and calendar in `folder`."""
    calendar = os.path.join(folder, "feed")
    os.makedirs(calendar)
    config = os.path.join(folder, "config")
    with open(config, "w") as handle:
        handle.write(
            f"[calendars]\n[[feed]]\npath = {calendar}/\ntype = calendar\n[locale]\ntimeformat = %H:%M\n"
            "dateformat = %Y-%m-%d\nlongdateformat = %Y-%m-%d\ndatetimeformat = %Y-%m-%d %H:%M\n"
            "longdatetimeformat = %Y-%m-%d %H:%M\ndefault_timezone = UTC\nlocal_timezone = UTC\n")
    printed = subprocess.run(["khal", "-c", config, "printics", after], capture_output=True, text=True, timeout=300)
    check(printed.returncode == 0, f"khal printics failed: {printed.stderr}")
    check(f"{len(expected)} events found" in printed.stdout, f"khal printics: {printed.stdout[:200]}")
    for path in [before, after]:
        imported = subprocess.run(
            ["khal", "-c", config, "import", "--batch", "-a", "feed", path], capture_output=True, text=True,
            timeout=300)
        check(imported.returncode == 0, f"khal import {path} failed: {imported.stderr}")
    files = os.listdir(calendar)
    check(len(files) == len(expected), f"khal keeps {len(files)} events, not {len(expected)}: copies were added")
    # One changed event, as khal lists it: the times after the change.
    uid, event = next((uid, e) for uid, e in sorted(expected.items()) if e["changed"])
    day = event["start"].strftime("%Y-%m-%d")
    listed = subprocess.run(
        ["khal", "-c", config, "list", day, "1d", "--format", "{uid} {start-time}-{end-time}"], capture_output=True,
        text=True, timeout=300)
    line = f"{uid} {event['start'].strftime('%H:%M')}-{event['end'].strftime('%H:%M')}"
    check(line in listed.stdout, f"khal lists {listed.stdout!r}, not {line!r}")
    return len(files)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--before", required=True, help="the feed fetched before the change")
    parser.add_argument("--after", required=True, help="the feed fetched after it")
    parser.add_argument("--expect-events", type=int, help="how many events each feed holds")
    arguments = parser.parse_args()
    before = read(arguments.before)
    after = read(arguments.after)
    if arguments.expect_events is not None:
        check(len(after) == arguments.expect_events, f"{len(after)} events, not {arguments.expect_events}")
    changed = compare(before, after)
    summary = f"icalendar read {len(before)} and {len(after)} events; {changed} changed, each with a higher SEQUENCE"
    if subprocess.run(["which", "khal"], capture_output=True).returncode == 0:
        expected = {
            uid: dict(event, changed=(before[uid]["start"], before[uid]["end"]) != (event["start"], event["end"]))
            for uid, event in after.items() if uid in before
        }
        kept = khal(arguments.before, arguments.after, expected)
        summary += f"; khal read the feed and kept {kept} events after importing both"
    else:
        summary += "; khal is not installed (apt-get install khal): not run"
    if failures:
        for failure in failures[:50]:
            print("FAIL", failure)
        return 1
    print("PASS", summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
