#!/usr/bin/env python3
"""The screen of `praykit serve --display` in Debian's Chromium, driven by Playwright with a fake clock.

    display_browser.py --url http://127.0.0.1:PORT --artifacts DIR [--chromium /usr/bin/chromium]

The server is a real `praykit serve --display` for London with iqama and three Jumu'ah times
(DisplayBrowserTests starts it). The page's own files come from it; its model is the server's
`/display.json?date=…` for the day walked, handed to the page with a `Date` header that follows the
page's fake clock (the server's real clock is another day), so that a whole day, a DST night and a
month of Ramadan are walked in seconds. Expectations come from the model's times and phases (the
rules of docs/display.md), not from the page's own functions.

Prints one line per check that failed and `PASS n checks` or `FAIL n of m checks`; the screenshots
are written to DIR and named in the output. Exit status 0 when every check passed, 1 otherwise,
77 when Playwright is missing.
"""

import argparse
import email.utils
import json
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
        self.page = self.context.new_page()
        self.now = start
        self.page.clock.install(time=start - timedelta(seconds=1))
        self.page.clock.pause_at(start)
        self.page.route("**/display.json*", self.fulfill)
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
        self.page.wait_for_function(script, timeout=60000, polling=100)

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
    """The phases of one prayer by the rules (docs/display.md), as (phase, start, target)."""
    p = model["phases"]
    adhan = parse(day[prayer])
    if prayer == "dhuhr" and day["jumuah"]:
        times, length = [parse(t) for t in day["jumuah"]], p["jumuah"]
    else:
        times, length = ([parse(day["iqama"][prayer])] if prayer in day["iqama"] else []), p["prayer"]
    steps = [("before", adhan - p["beforeAdhan"] * MINUTE, adhan), ("adhan", adhan, times[0] if times else adhan)]
    previous = adhan + p["adhan"] * MINUTE
    for time in times:
        if time - p["silence"] * MINUTE > previous:
            steps.append(("iqama", previous, time))
        steps.append(("silence", max(previous, time - p["silence"] * MINUTE), time))
        steps.append(("prayer", time, time))
        previous = max(previous, time + length * MINUTE)
    steps.append(("after", previous, None))
    return steps, previous


def walk_day(browser, base, folder, checks, shots):
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
                screen.screenshot(folder, f"day-{key}", shots)
    screen.screenshot(folder, "day-after-isha", shots)
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
    const ids = ['top', 'status', 'times', 'notes'].concat(document.getElementById('warning').hidden ? [] : ['warning']);
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
    for (const el of document.querySelectorAll('#times td, #times th, #clock, #countdown, #phase-title, #phase-detail, #gregorian, #hijri, #notes div, #warning')) {
        if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
            problems.push(`${el.id || el.className || el.tagName} clipped: ${el.textContent}`);
    }
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
    page = context.new_page()
    policies = []
    page.on("response", lambda response: policies.append(response.headers.get("content-security-policy")))
    page.goto(f"{base}/display")
    page.wait_for_function("() => document.getElementById('screen').dataset.phase !== 'loading'", timeout=60000)
    warning = page.evaluate("() => document.getElementById('warning').hidden ? null : document.getElementById('warning').textContent")
    checks.expect(warning is None, f"the real server and this machine's clock agree: {warning}")
    today = datetime.now().astimezone(timezone(timedelta(0))).date()
    shown = page.evaluate("() => document.getElementById('gregorian').textContent")
    checks.expect(str(today.year) in shown, f"today's date from the real server: {shown}")
    checks.expect(policies and all(p and "default-src 'self'" in p for p in policies), f"every answer has the CSP: {policies}")
    page.screenshot(path=str(folder / "real-server-now.png"))
    shots.append(str(folder / "real-server-now.png"))
    context.close()


def unit_tests(browser, base, checks):
    context = browser.new_context()
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
    arguments = parser.parse_args()
    folder = Path(arguments.artifacts)
    folder.mkdir(parents=True, exist_ok=True)
    checks, shots = Checks(), []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=arguments.chromium, args=["--no-sandbox"])
        for step in [unit_tests, server_gone]:
            step(browser, arguments.url, checks)
        for step in [real_server, walk_day, dst_night, arabic_portrait, layouts, stale_and_wrong_clock, iqama_change, ramadan]:
            step(browser, arguments.url, folder, checks, shots)
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
