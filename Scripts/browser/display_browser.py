#!/usr/bin/env python3
"""The screen of `praykit serve --display` in Debian's Chromium, driven by Playwright with a fake clock.

    display_browser.py --url http://127.0.0.1:PORT --artifacts DIR [--chromium /usr/bin/chromium]
                       [--memory-days N] [--memory-step MINUTES]
    display_browser.py --mosque --url … --artifacts DIR --live-argv JSON --live-env JSON

The server is a real `praykit serve --display` for London with iqama and three Jumu'ah times
(DisplayCommandTests starts it). The page's own files come from it; its model is the server's
`/display.json?date=…` for the day walked, handed to the page with a `Date` header that follows the
page's fake clock (the server's real clock is another day), so that a whole day, a DST night and a
month of Ramadan are walked in seconds. Expectations come from the model's times and phases (the
rules of docs/display.md), not from the page's own functions. The page is then left open for
--memory-days days of its fake clock (40 by default) and its heap and DOM are measured.

With --mosque the server is the screen of a device that follows East London Mosque's space with a
viewer's code (DisplayCommandTests sets it up through a real sync server): its Friday with the
mosque's three Jumu'ah and "silence" switched off, its notices (rotating, beside the times, as text),
Eid al-Fitr, the days its timetable lacks, and, on the real clock, an iqama the mosque's editor
changes (--live-argv and --live-env: the `praykit mosque set` to run) reaching the open page through
the sync server, the screen's sync and /display/events, with no reload.

Prints one line per check that failed and `PASS n checks` or `FAIL n of m checks`; the screenshots
are written to DIR and named in the output. Exit status 0 when every check passed, 1 otherwise,
77 when Playwright is missing.
"""

import argparse
import email.utils
import json
import os
import subprocess
import sys
import urllib.request
from datetime import datetime, timedelta, timezone
from pathlib import Path

try:
    from playwright.sync_api import sync_playwright
except ImportError:
    print("SKIP playwright is not installed (pip install playwright in a venv; .ci/run does)")
    sys.exit(77)

HERE = Path(__file__).resolve().parent
MINUTE = timedelta(minutes=1)
# Hang guards, not deadlines (milliseconds): the walk runs beside the rest of the test suite on two
# busy cores, where a debug server's first answer or Chromium's start can take long.
HANG_GUARD = 300_000
# How long before the first instant a page's fake clock is installed (see Screen): an hour, far more
# than any pause between installing it and pausing it.
CLOCK_LEAD = timedelta(hours=1)


class Checks:
    def __init__(self):
        self.count = 0
        self.failures = []

    def expect(self, condition, message):
        self.count += 1
        if not condition:
            self.failures.append(message)
            print(f"FAILED {message}", flush=True)


def parse(text):
    return None if text is None else datetime.fromisoformat(text)


def countdown(delta):
    total = max(0, -(-int(delta.total_seconds() * 1000) // 1000))
    hours, rest = divmod(total, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


class Screen:
    """One page on the server, whose /display.json is `model` with a Date header at the fake time."""

    def __init__(self, browser, base, model, viewport, query="", start=None):
        self.base = base
        self.model = model
        self.server_up = True
        # The Date header the answers carry: the page's time plus `skew`, or none (when the test
        # walks the clock, a Date dispatched a step late would read as a wrong clock).
        self.skew = None
        self.context = browser.new_context(viewport=viewport, device_scale_factor=1)
        self.context.set_default_timeout(HANG_GUARD)
        self.page = self.context.new_page()
        self.now = start
        # Installed well before `start`: the installed clock runs in real time until paused, and on two
        # busy cores more than a second may pass before the pause (Playwright then refuses to go back).
        # No page is loaded yet, so nothing runs in between.
        self.page.clock.install(time=start - CLOCK_LEAD)
        self.page.clock.pause_at(start)
        self.page.route("**/display.json*", self.fulfill)
        # The server's event stream names the server's own model, not the one handed here: refused, the
        # page keeps its five-minute fetch (the browser tries the stream again by itself, in real time).
        self.page.route("**/display/events", lambda route: route.abort("connectionrefused"))
        self.page.goto(f"{base}/display{query}")
        self.wait("() => document.getElementById('screen').dataset.phase !== 'loading'")

    def fulfill(self, route):
        if not self.server_up:
            route.abort("connectionrefused")
            return
        headers = {"Content-Type": "application/json"}
        if self.skew is not None:
            headers["Date"] = email.utils.format_datetime((self.now + self.skew).astimezone(timezone.utc), usegmt=True)
        route.fulfill(status=200, headers=headers, body=json.dumps(self.model))

    def at(self, instant):
        """Moves the page's paused clock to `instant` (forward only), firing the timers due once, as a
        screen does that wakes up: the second's redraw and, when due, the model's fetch."""
        if instant > self.now:
            # The server's Date follows the page's clock: set before the fetch the jump may fire.
            step, self.now = instant - self.now, instant
            self.page.clock.fast_forward(int(step.total_seconds() * 1000))
        return self

    def settle(self, condition, steps=300):
        """Lets the page's clock run on a second at a time until `condition` (a function's source)
        holds, so that an answer that arrived meanwhile is drawn (the fake clock is paused between
        steps); at most `steps` seconds of the page's time, a hang guard rather than a deadline."""
        for _ in range(steps):
            if self.page.evaluate(condition):
                break
            self.at(self.now + timedelta(seconds=1))
        return self

    def wait(self, script):
        """Waits (a hang guard, not a deadline) for the page to reach `script`'s condition: a function's
        source, since the page's CSP refuses a string evaluated as code."""
        self.page.wait_for_function(script, timeout=HANG_GUARD, polling=100)

    def text(self, selector):
        return self.page.locator(selector).inner_text()

    def state(self):
        return self.page.evaluate(
            """() => ({
                phase: document.getElementById('screen').dataset.phase,
                prayer: document.getElementById('screen').dataset.prayer,
                countdown: document.getElementById('countdown').textContent,
                title: document.getElementById('phase-title').textContent,
                clock: document.getElementById('clock').textContent,
                warning: document.getElementById('warning').hidden ? null : document.getElementById('warning').textContent,
                stale: document.getElementById('screen').classList.contains('stale'),
                rows: [...document.querySelectorAll('#rows tr')].map((tr) => ({
                    row: tr.dataset.row, tomorrow: tr.classList.contains('tomorrow'),
                    adhan: tr.querySelector('.adhan').textContent, iqama: tr.querySelector('.iqama').innerText,
                })),
                notes: document.getElementById('notes').innerText,
                notice: document.getElementById('notice').hidden ? null : {
                    title: document.getElementById('notice-title').textContent,
                    text: document.getElementById('notice-text').textContent,
                    count: document.getElementById('notice-count').textContent,
                    priority: document.getElementById('notice').dataset.priority,
                },
                calculated: [...document.querySelectorAll('#rows tr')].filter((tr) => tr.querySelector('.adhan.calculated'))
                    .map((tr) => tr.dataset.row),
                dir: document.documentElement.dir, lang: document.documentElement.lang,
            })"""
        )

    def screenshot(self, folder, name, shots):
        path = folder / f"{name}.png"
        self.page.screenshot(path=str(path))
        shots.append(str(path))

    def close(self):
        self.context.close()


def fetch_model(base, date):
    with urllib.request.urlopen(f"{base}/display.json?date={date}") as response:
        return json.load(response)


def expected_sequence(model, day, prayer):
    """The phases of one prayer by the rules (docs/display.md), as (phase, start, target); a phase the
    model switches off (0 minutes, or the countdown to iqama off) is not there."""
    p = model["phases"]
    adhan = parse(day[prayer])
    if prayer == "dhuhr" and day["jumuah"]:
        times, length = [parse(t) for t in day["jumuah"]], p["jumuah"]
    else:
        times, length = ([parse(day["iqama"][prayer])] if prayer in day["iqama"] else []), p["prayer"]
    steps = []
    if p["beforeAdhan"] > 0:
        steps.append(("before", adhan - p["beforeAdhan"] * MINUTE, adhan))
    if p["adhan"] > 0:
        steps.append(("adhan", adhan, times[0] if times else adhan))
    previous = adhan + p["adhan"] * MINUTE
    for time in times:
        if p.get("iqama", True) and time - p["silence"] * MINUTE > previous:
            steps.append(("iqama", previous, time))
        if p["silence"] > 0:
            steps.append(("silence", max(previous, time - p["silence"] * MINUTE), time))
        if length > 0:
            steps.append(("prayer", time, time))
        previous = max(previous, time + length * MINUTE)
    if p["after"] > 0:
        steps.append(("after", previous, None))
    return steps, previous


def walk_day(browser, base, folder, checks, shots, prefix="day"):
    """A Friday in London with iqama and three Jumu'ah: every phase boundary, to the second."""
    model = fetch_model(base, "2027-10-29")
    day, tomorrow = model["days"][0], model["days"][1]
    checks.expect(len(day["jumuah"]) == 3, f"three Jumu'ah times on the Friday: {day['jumuah']}")
    start = parse(day["fajr"]) - 20 * MINUTE
    screen = Screen(browser, base, model, {"width": 1920, "height": 1080}, start=start)
    shot_names = set()
    for prayer in ["fajr", "dhuhr", "asr", "maghrib", "isha"]:
        steps, _ = expected_sequence(model, day, prayer)
        name = "jumuah" if prayer == "dhuhr" and day["jumuah"] else prayer
        for phase, begins, target in steps:
            for instant in [begins, begins + timedelta(seconds=1)]:
                state = screen.at(instant).state()
                checks.expect(state["warning"] is None, f"{instant.isoformat()}: no warning, shown {state['warning']}")
                index = ["fajr", "sunrise", "dhuhr", "asr", "maghrib", "isha"].index(prayer)
                row = state["rows"][index]
                # The row turns to tomorrow's once the (last) prayer is over, not before.
                if phase == "after":
                    expected_adhan = parse(tomorrow[prayer]).strftime("%H:%M")
                    checks.expect(
                        row["tomorrow"] and row["adhan"] == expected_adhan,
                        f"{instant.isoformat()}: {prayer}'s row after its prayer is tomorrow's {expected_adhan}: {row}",
                    )
                else:
                    checks.expect(not row["tomorrow"], f"{instant.isoformat()}: {prayer}'s row is today's: {row}")
                checks.expect(
                    (state["phase"], state["prayer"]) == (phase, name),
                    f"{instant.isoformat()}: expected {phase} of {name}, shown {state['phase']} of {state['prayer']}",
                )
                if phase in ("before", "adhan", "iqama", "silence") and target is not None:
                    checks.expect(
                        state["countdown"] == countdown(target - instant),
                        f"{instant.isoformat()} {phase}: countdown {state['countdown']}, expected {countdown(target - instant)}",
                    )
                if phase == "prayer":
                    checks.expect(
                        state["countdown"] == countdown(instant - target),
                        f"{instant.isoformat()} prayer: {state['countdown']} since iqama, expected {countdown(instant - target)}",
                    )
            key = f"{name}-{phase}"
            if key not in shot_names and (prayer == "fajr" or name == "jumuah"):
                shot_names.add(key)
                screen.screenshot(folder, f"{prefix}-{key}", shots)
    screen.screenshot(folder, f"{prefix}-after-isha", shots)
    final = screen.state()
    checks.expect(all(row["tomorrow"] for row in final["rows"]), f"after isha every row is tomorrow's: {final['rows']}")
    screen.close()


def dst_night(browser, base, folder, checks, shots):
    """Europe/London, the last Sunday of October 2027: 02:00 BST becomes 01:00 GMT."""
    model = fetch_model(base, "2027-10-30")
    sunday = model["days"][1]
    checks.expect(
        [o["seconds"] for o in model["offsets"]][:2] == [3600, 0], f"the model's offsets change: {model['offsets']}"
    )
    start = datetime(2027, 10, 30, 22, 0, tzinfo=timezone.utc)
    screen = Screen(browser, base, model, {"width": 1920, "height": 1080}, start=start)
    fajr = parse(sunday["fajr"])
    seen = []
    for minutes in range(0, 8 * 60, 30):
        instant = start + minutes * MINUTE
        state = screen.at(instant).state()
        local = instant.astimezone(timezone(timedelta(hours=1 if instant < datetime(2027, 10, 31, 1, tzinfo=timezone.utc) else 0)))
        checks.expect(state["clock"] == local.strftime("%H:%M:%S"), f"{instant.isoformat()}: clock {state['clock']}, expected {local:%H:%M:%S}")
        checks.expect(state["warning"] is None, f"{instant.isoformat()}: no warning on the DST night: {state['warning']}")
        rows = [row["row"] for row in state["rows"]]
        checks.expect(rows == ["fajr", "sunrise", "dhuhr", "asr", "maghrib", "isha"], f"{instant.isoformat()}: rows {rows}")
        if instant < fajr - model["phases"]["beforeAdhan"] * MINUTE:
            checks.expect(
                state["phase"] == "idle" and state["countdown"] == countdown(fajr - instant),
                f"{instant.isoformat()}: countdown to fajr {state['countdown']}, expected {countdown(fajr - instant)}",
            )
        seen.append(state["rows"][0]["adhan"])
        if minutes == 210:
            screen.screenshot(folder, "dst-night-01-30-gmt", shots)
    checks.expect(len(set(seen)) == 1 and seen[0] == fajr.strftime("%H:%M"), f"one fajr all night, in GMT: {set(seen)}")
    screen.close()


def arabic_portrait(browser, base, folder, checks, shots):
    model = fetch_model(base, "2027-10-29")
    start = parse(model["days"][0]["dhuhr"]) - 30 * MINUTE
    screen = Screen(browser, base, model, {"width": 1080, "height": 1920}, query="?lang=ar", start=start)
    state = screen.at(start).state()
    checks.expect(state["dir"] == "rtl" and state["lang"] == "ar", f"Arabic is right to left: {state['dir']} {state['lang']}")
    checks.expect(all("٠" <= c <= "٩" or c == ":" for c in state["clock"]), f"Arabic-Indic digits: {state['clock']}")
    checks.expect("الجمعة" in screen.text("#rows"), "the Friday row reads الجمعة")
    screen.screenshot(folder, "arabic-portrait-1080x1920", shots)
    latin = Screen(browser, base, model, {"width": 1080, "height": 1920}, query="?lang=ar&digits=latin", start=start)
    checks.expect(latin.at(start).state()["clock"][:2].isdigit(), "digits=latin keeps Western digits in Arabic")
    latin.close()
    screen.close()


LAYOUT_PROBLEMS = """() => {
    const problems = [];
    const ids = ['top', 'status', 'times', 'notes'].concat(document.getElementById('warning').hidden ? [] : ['warning'])
        .concat(document.getElementById('notice').hidden ? [] : ['notice']);
    const boxes = ids.map((id) => [id, document.getElementById(id).getBoundingClientRect()]);
    for (const [id, box] of boxes) {
        if (box.left < 0 || box.top < 0 || box.right > innerWidth + 0.5 || box.bottom > innerHeight + 0.5)
            problems.push(`${id} outside the screen: ${JSON.stringify(box)}`);
    }
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
        const [a, p] = boxes[i], [b, q] = boxes[j];
        if (p.height > 0 && q.height > 0 && p.left < q.right - 0.5 && q.left < p.right - 0.5 && p.top < q.bottom - 0.5 && q.top < p.bottom - 0.5)
            problems.push(`${a} overlaps ${b}`);
    }
    for (const el of document.querySelectorAll('#times td, #times th, #clock, #countdown, #phase-title, #phase-detail, #gregorian, #hijri, #notes div, #warning, #notice-title, #notice-count')) {
        if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
            problems.push(`${el.id || el.className || el.tagName} clipped: ${el.textContent}`);
    }
    // The boxes' content stays inside them (a grid row squeezed below what it holds would spill).
    for (const id of ['status', 'notice', 'top']) {
        const el = document.getElementById(id);
        if (!el.hidden && el.scrollHeight > el.clientHeight + 1) problems.push(`${id} spills: ${el.scrollHeight} > ${el.clientHeight}`);
    }
    const notice = document.getElementById('notice');
    if (!notice.hidden && notice.getBoundingClientRect().height < document.getElementById('notice-title').getBoundingClientRect().height)
        problems.push('the notice is smaller than its title');
    return problems;
}"""


def layouts(browser, base, folder, checks, shots):
    """Nothing clipped or overlapping, measured in the DOM, at three sizes, in both languages: a
    Friday with three Jumu'ah times, a Ramadan day with its notes, and a warning's band."""
    friday = fetch_model(base, "2027-10-29")
    fasting = fetch_model(base, "2027-02-15")
    states = [
        ("friday", friday, parse(friday["days"][0]["dhuhr"]) - 5 * MINUTE),
        ("ramadan", fasting, parse(fasting["days"][0]["asr"]) - 60 * MINUTE),
        ("stale", friday, parse(friday["validUntil"]) + 5 * MINUTE),
    ]
    for width, height in [(1920, 1080), (1080, 1920), (1280, 720)]:
        for query in ["", "?lang=ar"]:
            for label, model, start in states:
                screen = Screen(browser, base, model, {"width": width, "height": height}, query=query, start=start)
                problems = screen.at(start).page.evaluate(LAYOUT_PROBLEMS)
                name = f"{width}x{height}{' ar' if query else ''} {label}"
                checks.expect(problems == [], f"{name}: {problems}")
                if label == "friday" and (query == "" or width == 1280):
                    screen.screenshot(folder, f"layout-{width}x{height}{'-ar' if query else ''}", shots)
                screen.close()


def stale_and_wrong_clock(browser, base, folder, checks, shots):
    model = fetch_model(base, "2027-10-29")
    after = parse(model["validUntil"]) + timedelta(hours=2)
    screen = Screen(browser, base, model, {"width": 1280, "height": 720}, start=after)
    state = screen.at(after).state()
    checks.expect(state["stale"] and state["warning"] == "Times out of date", f"past its last day: {state['warning']}")
    checks.expect(
        state["title"] == "Times out of date" and state["countdown"] == "", f"no next prayer past the last day: {state}"
    )
    screen.screenshot(folder, "stale", shots)
    screen.close()
    start = parse(model["days"][0]["asr"]) - 30 * MINUTE
    wrong = Screen(browser, base, model, {"width": 1280, "height": 720}, start=start)
    wrong.skew = timedelta(minutes=5)
    wrong.at(start + 6 * MINUTE)  # the next fetch (5 minutes) reads the server's Date
    state = wrong.settle("() => !document.getElementById('warning').hidden").state()
    checks.expect(state["warning"] == "This screen's clock is wrong", f"a clock 5 minutes off: {state['warning']}")
    visible = wrong.page.evaluate("getComputedStyle(document.getElementById('countdown')).visibility")
    checks.expect(visible == "hidden", f"no confident countdown with a wrong clock: {visible}")
    wrong.screenshot(folder, "clock-wrong", shots)
    wrong.close()


def server_gone(browser, base, checks):
    """The server stopped for an hour, then back with a changed iqama: the page recovers by itself."""
    model = fetch_model(base, "2027-10-29")
    start = parse(model["days"][0]["fajr"]) - 60 * MINUTE
    screen = Screen(browser, base, model, {"width": 1280, "height": 720}, start=start)
    screen.server_up = False
    for minutes in range(10, 70, 10):
        state = screen.at(start + minutes * MINUTE).state()
        checks.expect(state["rows"][0]["adhan"] == parse(model["days"][0]["fajr"]).strftime("%H:%M"), "runs on what it has")
    changed = json.loads(json.dumps(model))
    changed["days"][0]["iqama"]["asr"] = changed["days"][0]["asr"][:11] + "16:05:00" + changed["days"][0]["asr"][19:]
    screen.model = changed
    screen.server_up = True
    state = screen.at(start + 76 * MINUTE).settle(
        "() => document.querySelector('#rows tr[data-row=asr] .iqama').textContent === '16:05'").state()
    checks.expect(state["rows"][3]["iqama"] == "16:05", f"the changed iqama after the server is back: {state['rows'][3]}")
    screen.close()


def iqama_change(browser, base, folder, checks, shots):
    """A clock-time iqama that changes tomorrow is announced today, in both languages."""
    model = fetch_model(base, "2027-10-25")
    today, tomorrow = model["days"][0], model["days"][1]
    for day, time in [(today, "16:00"), (tomorrow, "16:15")]:
        day["iqama"]["asr"] = day["asr"][:11] + time + ":00" + day["asr"][19:]
        day["fixedIqama"] = sorted(set(day["fixedIqama"]) | {"asr"})
    start = parse(today["dhuhr"])
    screen = Screen(browser, base, model, {"width": 1920, "height": 1080}, start=start)
    notes = screen.at(start).state()["notes"]
    checks.expect("From tomorrow, Asr iqama 16:15" in notes, f"tomorrow's asr iqama announced: {notes}")
    screen.screenshot(folder, "iqama-change", shots)
    screen.close()
    arabic = Screen(browser, base, model, {"width": 1920, "height": 1080}, query="?lang=ar", start=start)
    notes = arabic.at(start).state()["notes"]
    checks.expect("ابتداءً من الغد، إقامة العصر ١٦:١٥" in notes, f"the same in Arabic: {notes}")
    arabic.close()


def ramadan(browser, base, folder, checks, shots):
    model = fetch_model(base, "2027-02-15")
    day = model["days"][0]
    checks.expect(day["ramadan"], f"15 February 2027 is in Ramadan: {day['hijri']}")
    start = parse(day["fajr"]) - 40 * MINUTE
    screen = Screen(browser, base, model, {"width": 1920, "height": 1080}, start=start)
    notes = screen.at(start).state()["notes"]
    checks.expect(f"Suhoor ends {parse(day['fajr']):%H:%M}" in notes, f"suhoor before fajr: {notes}")
    noon = parse(day["dhuhr"]) + 90 * MINUTE
    notes = screen.at(noon).state()["notes"]
    checks.expect(f"Iftar {parse(day['maghrib']):%H:%M} · {countdown(parse(day['maghrib']) - noon)}" in notes, f"iftar: {notes}")
    screen.screenshot(folder, "ramadan-iftar", shots)
    screen.close()


def real_server(browser, base, folder, checks, shots):
    """The page on the real server, its clock the machine's: the server's own model and Date, no warning."""
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    context.set_default_timeout(HANG_GUARD)
    page = context.new_page()
    policies = []
    page.on("response", lambda response: policies.append(response.headers.get("content-security-policy")))
    page.goto(f"{base}/display")
    page.wait_for_function("() => document.getElementById('screen').dataset.phase !== 'loading'", timeout=HANG_GUARD)
    warning = page.evaluate("() => document.getElementById('warning').hidden ? null : document.getElementById('warning').textContent")
    checks.expect(warning is None, f"the real server and this machine's clock agree: {warning}")
    today = datetime.now().astimezone(timezone(timedelta(0))).date()
    shown = page.evaluate("() => document.getElementById('gregorian').textContent")
    checks.expect(str(today.year) in shown, f"today's date from the real server: {shown}")
    checks.expect(policies and all(p and "default-src 'self'" in p for p in policies), f"every answer has the CSP: {policies}")
    page.screenshot(path=str(folder / "real-server-now.png"))
    shots.append(str(folder / "real-server-now.png"))
    context.close()


def local(text):
    """`HH:MM` of an ISO 8601 time of the model (its own offset)."""
    return text[11:16]


def mosque_friday(browser, base, folder, checks, shots):
    """The followed mosque's Friday: its three Jumu'ah and rules walked phase by phase, with "silence
    your phones" switched off by the mosque (the countdown to iqama runs to iqama instead)."""
    model = fetch_model(base, "2027-10-29")
    day = model["days"][0]
    checks.expect(model["name"] == "East London Mosque", f"the mosque's name: {model['name']}")
    checks.expect(model["phases"]["silence"] == 0, f"the mosque switched silence off: {model['phases']}")
    checks.expect([local(t) for t in day["jumuah"]] == ["13:00", "13:40", "14:20"], f"its Jumu'ah: {day['jumuah']}")
    walk_day(browser, base, folder, checks, shots, prefix="mosque")
    screen = Screen(browser, base, model, {"width": 1920, "height": 1080}, start=parse(day["fajr"]))
    for prayer in ["fajr", "asr", "maghrib", "isha"]:
        iqama = parse(day["iqama"][prayer])
        state = screen.at(iqama - timedelta(seconds=30)).state()
        checks.expect(
            state["phase"] == "iqama" and state["countdown"] == "0:30",
            f"{prayer}: half a minute before iqama the countdown, never 'silence': {state['phase']} {state['countdown']}",
        )
    for time in day["jumuah"]:
        state = screen.at(parse(time) - timedelta(seconds=20)).state()
        checks.expect(state["phase"] == "iqama", f"Jumu'ah {local(time)}: no silence phase: {state['phase']}")
    screen.close()


def notices(browser, base, folder, checks, shots):
    """The mosque's notices: those of the page's clock, one at a time in turn, urgent alone, as text."""
    model = fetch_model(base, "2027-10-25")
    listed = {n["id"]: n for n in model["notices"]}
    checks.expect(
        [n["priority"] for n in model["notices"]] == sorted((n["priority"] for n in model["notices"]), key=["urgent", "high", "normal"].index),
        f"the model lists the most urgent first: {[n['id'] for n in model['notices']]}",
    )
    tuesday = datetime(2027, 10, 26, 10, 0, tzinfo=timezone.utc)
    screen = Screen(browser, base, model, {"width": 1920, "height": 1080}, start=tuesday)
    seen = []
    for step in range(6):
        state = screen.at(tuesday + timedelta(seconds=12 * step)).state()
        checks.expect(state["notice"] is not None, f"a notice is shown on Tuesday: {state['notice']}")
        if state["notice"]:
            seen.append(state["notice"]["title"])
        problems = screen.page.evaluate(LAYOUT_PROBLEMS)
        checks.expect(problems == [], f"notice {step}: nothing overlaps: {problems}")
    current = [n["title"] for n in model["notices"] if parse(n["start"]) <= tuesday < parse(n["end"])]
    checks.expect(set(seen) == set(current) and len(current) == 3, f"each current notice in turn: {seen} of {current}")
    checks.expect(seen[0] != seen[1], f"the panel turns every 12 seconds: {seen[:2]}")
    screen.settle("() => document.getElementById('notice-title').textContent.startsWith('Tafsir')", steps=60)
    screen.screenshot(folder, "notice-in-turn", shots)
    script = next(n for n in model["notices"] if "<script>" in n["title"])
    shown = screen.settle(
        "() => document.getElementById('notice-title').textContent.includes('<script>')", steps=60
    ).state()["notice"]
    checks.expect(shown["title"] == script["title"] and shown["text"] == script["text"], f"the markup is text: {shown}")
    injected = screen.page.evaluate(
        "() => [document.querySelectorAll('#notice script, #notice img, #notice b').length, window.hacked ?? null]"
    )
    checks.expect(injected == [0, None], f"no element made of a notice, no script run: {injected}")
    screen.screenshot(folder, "notice-as-text", shots)
    screen.close()
    # The Friday's urgent notice (a funeral prayer) is alone while it is on; the others come back after.
    friday = fetch_model(base, "2027-10-29")
    urgent = next(n for n in friday["notices"] if n["priority"] == "urgent")
    start = parse(urgent["start"]) + 5 * MINUTE
    screen = Screen(browser, base, friday, {"width": 1920, "height": 1080}, start=start)
    for seconds in (0, 12, 24):
        state = screen.at(start + timedelta(seconds=seconds)).state()
        checks.expect(
            state["notice"] and state["notice"]["title"] == urgent["title"] and state["notice"]["priority"] == "urgent"
            and state["notice"]["count"] == "",
            f"the urgent notice alone: {state['notice']}",
        )
    screen.screenshot(folder, "notice-urgent", shots)
    state = screen.at(parse(urgent["end"]) + timedelta(seconds=1)).state()
    checks.expect(state["notice"] and state["notice"]["priority"] != "urgent", f"after its end, the others: {state['notice']}")
    screen.close()
    checks.expect(len(listed) == len(model["notices"]), "each notice once")


def eid(browser, base, folder, checks, shots):
    """Eid al-Fitr 1448 (9 March 2027) at 07:30 and 09:00: announced the day before, counted down, prayed."""
    model = fetch_model(base, "2027-03-08")
    eve, day = model["days"][0], model["days"][1]
    checks.expect(day["eid"] and day["eid"]["kind"] == "fitr", f"the model's Eid: {day['eid']}")
    prayers = [parse(t) for t in day["eid"]["prayers"]]
    noon = parse(eve["dhuhr"])
    screen = Screen(browser, base, model, {"width": 1920, "height": 1080}, start=noon)
    state = screen.at(noon).state()
    row = next((r for r in state["rows"] if r["row"] == "eid"), None)
    checks.expect(
        row and row["tomorrow"] and row["iqama"].split("\n") == ["07:30", "09:00"], f"the eve shows tomorrow's Eid: {row}"
    )
    screen.screenshot(folder, "eid-eve", shots)
    morning = parse(day["fajr"]) + 60 * MINUTE
    state = screen.at(morning).state()
    checks.expect(
        state["phase"] == "idle" and state["prayer"] == "eid-fitr" and state["countdown"] == countdown(prayers[0] - morning),
        f"after fajr the next is the Eid prayer: {state['phase']} {state['prayer']} {state['countdown']}",
    )
    for at, phase, target in [
        (prayers[0] - 60 * MINUTE, "iqama", prayers[0]),
        (prayers[0] - 10 * MINUTE, "iqama", prayers[0]),
        (prayers[0], "prayer", prayers[0]),
        (prayers[0] + 30 * MINUTE, "iqama", prayers[1]),
        (prayers[1] + 5 * MINUTE, "prayer", prayers[1]),
        (prayers[1] + 30 * MINUTE, "after", None),
    ]:
        state = screen.at(at).state()
        checks.expect(
            (state["phase"], state["prayer"]) == (phase, "eid-fitr"),
            f"{at.isoformat()}: expected {phase} of Eid, shown {state['phase']} of {state['prayer']}",
        )
        if phase == "iqama":
            checks.expect(
                state["countdown"] == countdown(target - at) and state["title"] == "Eid al-Fitr prayer in",
                f"{at.isoformat()}: the countdown to the Eid prayer: {state['title']} {state['countdown']}",
            )
        if at == prayers[0] - 10 * MINUTE:
            screen.screenshot(folder, "eid-countdown", shots)
            row = next((r for r in state["rows"] if r["row"] == "eid"), None)
            checks.expect(row and not row["tomorrow"], f"the Eid row on its day: {row}")
    state = screen.at(prayers[1] + 31 * MINUTE).state()
    checks.expect(all(r["row"] != "eid" for r in state["rows"]), f"the Eid row goes once its prayers are over: {state['rows']}")
    screen.close()
    arabic = Screen(browser, base, model, {"width": 1080, "height": 1920}, query="?lang=ar", start=prayers[0] - 20 * MINUTE)
    state = arabic.at(prayers[0] - 20 * MINUTE).state()
    checks.expect("عيد الفطر" in arabic.text("#rows") and "صلاة عيد الفطر بعد" == state["title"], f"Eid in Arabic: {state['title']}")
    arabic.screenshot(folder, "eid-arabic-portrait", shots)
    arabic.close()


def gaps(browser, base, folder, checks, shots):
    """The days the mosque's timetable lacks are calculated and marked: Thursday 28 October is not in
    it, and Wednesday's asr was left empty."""
    model = fetch_model(base, "2027-10-25")
    by_date = {d["date"]: d for d in model["days"]}
    checks.expect(by_date["2027-10-28"]["calculated"] == ["fajr", "sunrise", "dhuhr", "asr", "maghrib", "isha"],
                  f"Thursday is calculated: {by_date['2027-10-28']['calculated']}")
    checks.expect(by_date["2027-10-27"]["calculated"] == ["asr"], f"Wednesday's asr: {by_date['2027-10-27']['calculated']}")
    screen = Screen(browser, base, model, {"width": 1920, "height": 1080}, start=datetime(2027, 10, 26, 3, 0, tzinfo=timezone.utc))
    for date, expected in [
        ("2027-10-26", []),
        ("2027-10-27", ["asr"]),
        ("2027-10-28", ["fajr", "sunrise", "dhuhr", "asr", "maghrib", "isha"]),
    ]:
        at = datetime.fromisoformat(date + "T03:00:00+00:00")
        state = screen.at(at).state()
        checks.expect(state["calculated"] == expected, f"{date}: rows marked calculated {state['calculated']}, expected {expected}")
        legend = "calculated: not in the mosque's timetable" in state["notes"]
        checks.expect(legend == bool(expected), f"{date}: the legend says what the mark means: {state['notes']!r}")
        if date == "2027-10-28":
            screen.settle("() => document.getElementById('notice-title').textContent.startsWith('Tafsir')", steps=60)
            screen.screenshot(folder, "timetable-gap", shots)
    screen.close()


def mosque_layouts(browser, base, folder, checks, shots):
    """Nothing clipped or overlapping with the mosque's notices on, the urgent one, and Eid's seven rows,
    at three sizes in both languages."""
    tuesday = fetch_model(base, "2027-10-25")
    friday = fetch_model(base, "2027-10-29")
    eid_day = fetch_model(base, "2027-03-08")
    urgent = next(n for n in friday["notices"] if n["priority"] == "urgent")
    states = [
        ("notices", tuesday, datetime(2027, 10, 26, 10, 0, tzinfo=timezone.utc)),
        ("urgent", friday, parse(urgent["start"]) + 5 * MINUTE),
        ("eid", eid_day, parse(eid_day["days"][1]["eid"]["prayers"][0]) - 20 * MINUTE),
    ]
    for width, height in [(1920, 1080), (1080, 1920), (1280, 720)]:
        for query in ["", "?lang=ar"]:
            for label, model, start in states:
                screen = Screen(browser, base, model, {"width": width, "height": height}, query=query, start=start)
                for step in range(4):  # each notice of the turn
                    problems = screen.at(start + timedelta(seconds=12 * step)).page.evaluate(LAYOUT_PROBLEMS)
                    name = f"{width}x{height}{' ar' if query else ''} {label} +{12 * step}s"
                    checks.expect(problems == [], f"{name}: {problems}")
                if label in ("notices", "eid") and (query == "" or width == 1080):
                    if label == "notices" and query:
                        # The Arabic notice on the Arabic page.
                        screen.settle("() => document.getElementById('notice-title').textContent.startsWith('درس')", steps=60)
                        checks.expect(screen.page.evaluate(LAYOUT_PROBLEMS) == [], f"{width}x{height} ar: the Arabic notice")
                    screen.screenshot(folder, f"mosque-layout-{label}-{width}x{height}{'-ar' if query else ''}", shots)
                screen.close()


def live(browser, base, folder, checks, shots, argv, env):
    """On the real clock: the mosque's editor moves asr's iqama on their own device; the change goes
    through the sync server to this screen's `serve --display` (its sync holds the event stream), and
    /display/events makes the open page fetch it — no reload, long before its five-minute fetch."""
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    context.set_default_timeout(HANG_GUARD)
    page = context.new_page()
    fetches = []
    streams = []
    page.on("request", lambda request: fetches.append(request.url) if "/display.json" in request.url else None)
    page.on("response", lambda response: streams.append(response.status) if "/display/events" in response.url else None)
    page.goto(f"{base}/display")
    page.wait_for_function("() => document.getElementById('screen').dataset.phase !== 'loading'", timeout=HANG_GUARD)
    page.wait_for_function("() => document.querySelector('#rows tr[data-row=asr] .iqama').textContent !== ''", timeout=HANG_GUARD)
    for _ in range(600):
        if streams:
            break
        page.wait_for_timeout(100)
    checks.expect(streams == [200], f"the page holds /display/events: {streams}")
    page.evaluate("() => { window.praykitSameDocument = true; }")
    before = page.evaluate("() => document.querySelector('#rows tr[data-row=asr] .iqama').textContent")
    fetched = len(fetches)
    result = subprocess.run(argv, env={**os.environ, **env}, capture_output=True, text=True, timeout=300)
    checks.expect(result.returncode == 0, f"the editor's change: {result.returncode} {result.stderr[-500:]}")
    # A hang guard, not a deadline: the page's own fetch would come after 5 minutes.
    page.wait_for_function(
        f"() => document.querySelector('#rows tr[data-row=asr] .iqama').textContent !== {json.dumps(before)}",
        timeout=HANG_GUARD, polling=100)
    after = page.evaluate("() => document.querySelector('#rows tr[data-row=asr] .iqama').textContent")
    model = json.loads(page.evaluate("() => localStorage.getItem('praykit.display.model:' + location.pathname)"))
    checks.expect(page.evaluate("() => window.praykitSameDocument === true"), "the page was not reloaded")
    checks.expect(len(fetches) > fetched, f"the page fetched the model again when told: {len(fetches)} after {fetched}")
    asr = [d for d in model["days"] if local(d["iqama"].get("asr", "")) == after]
    checks.expect(before != after and asr, f"asr's iqama moved on the open page: {before} -> {after}")
    page.screenshot(path=str(folder / "live-after-change.png"))
    shots.append(str(folder / "live-after-change.png"))
    context.close()


def memory_walk(browser, base, folder, checks, shots, days, step_minutes):
    """The page left open for `days` days of its fake clock: the clock ticks, the model is fetched every
    five minutes (a new first day each day, as the server answers), and the heap and the DOM are
    measured after a garbage collection (Chrome DevTools Protocol) at the start and every few days."""
    models = {}
    start = datetime(2027, 10, 25, 0, 0, tzinfo=timezone.utc)
    now = [start]

    def fulfill(route):
        date = now[0].date().isoformat()
        if date not in models:
            models[date] = fetch_model(base, date)
        route.fulfill(status=200, headers={"Content-Type": "application/json"}, body=json.dumps(models[date]))

    context = browser.new_context(viewport={"width": 1920, "height": 1080}, device_scale_factor=1)

    context.set_default_timeout(HANG_GUARD)
    page = context.new_page()
    page.clock.install(time=start - CLOCK_LEAD)
    page.clock.pause_at(start)
    page.route("**/display.json*", fulfill)
    page.route("**/display/events", lambda route: route.abort("connectionrefused"))
    page.goto(f"{base}/display")
    page.wait_for_function("() => document.getElementById('screen').dataset.phase !== 'loading'", timeout=HANG_GUARD)
    cdp = context.new_cdp_session(page)

    def measure(day):
        cdp.send("HeapProfiler.collectGarbage")
        heap = cdp.send("Runtime.getHeapUsage")
        counters = cdp.send("Memory.getDOMCounters")
        return {"day": day, "heap": heap["usedSize"], "nodes": counters["nodes"], "listeners": counters["jsEventListeners"]}

    samples = []
    step = timedelta(minutes=step_minutes)
    for day in range(days + 1):
        if day == 1 or day % 5 == 0 or day == days:
            samples.append(measure(day))
        if day == days:
            break
        end = start + timedelta(days=day + 1)
        while now[0] < end:
            now[0] += step
            page.clock.fast_forward(int(step.total_seconds() * 1000))
            if now[0].minute == 0 and now[0].hour % 6 == 0:
                # A minute of ordinary seconds: every tick runs, as on the wall.
                now[0] += MINUTE
                page.clock.run_for(60000)
    final = page.evaluate("() => [document.getElementById('screen').dataset.phase, document.getElementById('clock').textContent]")
    page.screenshot(path=str(folder / f"memory-day-{days}.png"))
    shots.append(str(folder / f"memory-day-{days}.png"))
    context.close()
    first, last = samples[1] if len(samples) > 1 else samples[0], samples[-1]
    for sample in samples:
        print(f"memory day {sample['day']}: heap {sample['heap'] / 1e6:.2f} MB, {sample['nodes']} DOM nodes, "
              f"{sample['listeners']} listeners", flush=True)
    checks.expect(final[0] != "loading", f"the page still runs after {days} days: {final}")
    checks.expect(last["nodes"] <= first["nodes"] + 100, f"DOM nodes flat over {days} days: {first['nodes']} -> {last['nodes']}")
    checks.expect(last["listeners"] <= first["listeners"], f"listeners flat: {first['listeners']} -> {last['listeners']}")
    checks.expect(last["heap"] <= first["heap"] + 2_000_000, f"heap flat: {first['heap']} -> {last['heap']} bytes")


def unit_tests(browser, base, checks):
    context = browser.new_context()
    context.set_default_timeout(HANG_GUARD)
    page = context.new_page()
    tests = (HERE / "display-model-tests.js").read_text()
    harness = "<!doctype html><script type=module>import {run} from './display-model-tests.js'; window.results = run();</script>"
    page.route("**/__tests__/display-model-tests.js", lambda route: route.fulfill(body=tests, content_type="text/javascript"))
    page.route("**/__tests__/index.html", lambda route: route.fulfill(body=harness, content_type="text/html"))
    page.goto(f"{base}/__tests__/index.html")
    page.wait_for_function("window.results !== undefined")
    failures = page.evaluate("window.results")
    checks.expect(failures == [], f"display-model.js unit tests: {failures}")
    context.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--artifacts", required=True)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--mosque", action="store_true", help="the followed mosque's steps")
    parser.add_argument("--live-argv", help="JSON list: the command that changes the mosque's iqama")
    parser.add_argument("--live-env", default="{}", help="JSON object: its environment")
    parser.add_argument("--memory-days", type=int, default=40)
    parser.add_argument("--memory-step", type=int, default=30, help="minutes of each step of the memory walk")
    parser.add_argument("--only", help="run only the steps of these names, comma-separated")
    arguments = parser.parse_args()
    folder = Path(arguments.artifacts)
    folder.mkdir(parents=True, exist_ok=True)
    checks, shots = Checks(), []
    only = set(arguments.only.split(",")) if arguments.only else None
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=arguments.chromium, args=["--no-sandbox"], timeout=HANG_GUARD)
        if arguments.mosque:
            steps = [mosque_friday, notices, eid, gaps, mosque_layouts]
            plain = []
        else:
            steps = [real_server, walk_day, dst_night, arabic_portrait, layouts, stale_and_wrong_clock, iqama_change, ramadan]
            plain = [unit_tests, server_gone]
        for step in plain:
            if only is None or step.__name__ in only:
                step(browser, arguments.url, checks)
        for step in steps:
            if only is None or step.__name__ in only:
                step(browser, arguments.url, folder, checks, shots)
        if arguments.mosque and arguments.live_argv and (only is None or "live" in only):
            live(browser, arguments.url, folder, checks, shots, json.loads(arguments.live_argv), json.loads(arguments.live_env))
        if not arguments.mosque and arguments.memory_days > 0 and (only is None or "memory_walk" in only):
            memory_walk(browser, arguments.url, folder, checks, shots, arguments.memory_days, arguments.memory_step)
        browser.close()
    for shot in shots:
        print(f"screenshot {shot}")
    if checks.failures:
        print(f"FAIL {len(checks.failures)} of {checks.count} checks")
        return 1
    print(f"PASS {checks.count} checks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
