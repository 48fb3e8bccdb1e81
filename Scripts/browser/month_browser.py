#!/usr/bin/env python3
"""The month page in Debian's Chromium, driven by Playwright.

    month_browser.py --url http://127.0.0.1:PORT --timetable FILE.html --published http://127.0.0.1:P/m/SLUG
                     --mosque NAME --artifacts DIR [--chromium /usr/bin/chromium]

`--url` is a real `praykit serve --display` for London with iqama and three Jumu'ah times, `--timetable`
the page `praykit timetable --month 2027-07` wrote for the same home, and `--published` a mosque published
on a real sync server (PublishedPagesProcessTests starts them). Checks:

- the unit tests of month-model.js (Scripts/browser/month-model-tests.js);
- the same values: every time and iqama cell of July 2027 on /month is the text of `praykit timetable`'s;
- one sheet: the month (five Fridays, three Jumu'ah times, iqama columns) printed to PDF by Chromium on A4
  and on Letter, in English and Arabic, is one page (`pdfinfo`), and so is Chromium's own --print-to-pdf;
- nothing clipped and nothing wider than the screen, measured in the DOM, on a desktop and on phones;
- the published mosque's month: its notice's markup shown as text (no element made of it, no dialog),
  the days its timetable does not give marked, its calendar feed's webcal:// link; its screen shows it
  and holds its event stream beside it (display/events).

Prints one line per check that failed and `PASS n checks` or `FAIL n of m checks`; the screenshots and the
PDFs are written to DIR and named in the output. Exit status 0 when every check passed, 1 otherwise, 77 when
Playwright is missing.
"""

import argparse
import subprocess
import sys
from pathlib import Path

try:
    from playwright.sync_api import sync_playwright
except ImportError:
    print("SKIP playwright is not installed (pip install playwright in a venv; .ci/run does)")
    sys.exit(77)

HERE = Path(__file__).resolve().parent
MONTH = "2027-07"


class Checks:
    def __init__(self):
        self.count = 0
        self.failures = []

    def expect(self, condition, message):
        self.count += 1
        if not condition:
            self.failures.append(message)
            print(f"FAILED {message}", flush=True)


# Each day's row: its date and the text of its time and iqama cells, whitespace made single spaces.
ROWS = """() => [...document.querySelectorAll('tbody tr[data-date]')].map((row) => ({
    date: row.dataset.date,
    cells: [...row.querySelectorAll('td.time, td.iqama')].map((cell) => cell.innerText.trim().split(/\\s+/).join(' ')),
}))"""

# Every cell whose content is wider or taller than its box, and the page wider than the window.
LAYOUT_PROBLEMS = """() => {
    const problems = [];
    for (const el of document.querySelectorAll('#month td, #month th, h1, p.sub, nav, footer p, #notices li')) {
        if (el.scrollWidth > el.clientWidth + 1) problems.push(`${el.tagName}.${el.className} clipped: ${el.textContent}`);
    }
    if (document.documentElement.scrollWidth > innerWidth + 1)
        problems.push(`the page is ${document.documentElement.scrollWidth}px wide in ${innerWidth}px`);
    return problems;
}"""

# Hang guards, not deadlines (milliseconds): the walk runs beside the rest of the test suite on two
# busy cores, where a debug server's first answer or Chromium's start can take long.
HANG_GUARD = 300_000


def wait(page, expression, tries=600):
    """Until `expression` is true in the page: page.evaluate in a loop (wait_for_function evaluates a
    string, which the pages' Content-Security-Policy refuses, as it should)."""
    for _ in range(tries):
        if page.evaluate(expression):
            return True
        page.wait_for_timeout(100)
    return False


def open_month(context, url, dialogs=None):
    page = context.new_page()
    if dialogs is not None:
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(url)
    wait(page, "document.body.dataset.state !== 'loading'")
    return page


def pages_of(path):
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, timeout=120)
    for line in info.stdout.splitlines():
        if line.startswith("Pages:"):
            return int(line.split()[1])
    return -1


def unit_tests(browser, base, checks):
    context = browser.new_context()
    context.set_default_timeout(HANG_GUARD)
    page = context.new_page()
    tests = (HERE / "month-model-tests.js").read_text()
    harness = "<!doctype html><script type=module>import {run} from './month-model-tests.js'; window.results = run();</script>"
    page.route("**/__tests__/month-model-tests.js", lambda route: route.fulfill(body=tests, content_type="text/javascript"))
    page.route("**/__tests__/index.html", lambda route: route.fulfill(body=harness, content_type="text/html"))
    page.goto(f"{base}/__tests__/index.html")
    wait(page, "window.results !== undefined")
    failures = page.evaluate("window.results")
    checks.expect(failures == [], f"month-model.js unit tests: {failures}")
    context.close()


def same_values(browser, base, timetable, checks):
    """/month's cells are `praykit timetable`'s, day by day."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(HANG_GUARD)
    page = open_month(context, f"{base}/month?month={MONTH}")
    served = page.evaluate(ROWS)
    printed_page = context.new_page()
    printed_page.set_content(Path(timetable).read_text())
    printed = printed_page.evaluate(ROWS)
    checks.expect(len(served) == 31 and len(printed) == 31, f"31 days each: {len(served)}, {len(printed)}")
    for mine, theirs in zip(served, printed):
        checks.expect(mine["date"] == theirs["date"], f"the same day: {mine['date']} {theirs['date']}")
        checks.expect(mine["cells"] == theirs["cells"], f"{mine['date']}: {mine['cells']} ≠ {theirs['cells']}")
    fridays = [row for row in served if page.evaluate(f"document.querySelector('tr[data-date=\"{row['date']}\"]').dataset.jumuah === 'true'")]
    checks.expect(len(fridays) == 5, f"five Fridays: {len(fridays)}")
    # Each row: fajr, its iqama, sunrise, dhuhr, its iqama (three Jumu'ah times on a Friday), …
    checks.expect(all(len(row["cells"][4].split()) == 3 for row in fridays), f"three Jumu'ah times: {fridays[:1]}")
    print(f"same values: {sum(len(row['cells']) for row in served)} cells of {len(served)} days", flush=True)
    context.close()


def one_sheet(browser, base, chromium, folder, checks, shots):
    """The month prints on one sheet, A4 and Letter, English and Arabic; nothing clipped in print."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(HANG_GUARD)
    for lang in ["en", "ar"]:
        page = open_month(context, f"{base}/month?month={MONTH}&lang={lang}")
        page.emulate_media(media="print")
        problems = page.evaluate(LAYOUT_PROBLEMS)
        checks.expect(problems == [], f"{lang} in print: {problems[:5]}")
        for paper in ["A4", "Letter"]:
            path = folder / f"month-{MONTH}-{lang}-{paper.lower()}.pdf"
            page.pdf(path=str(path), format=paper, print_background=True)
            count = pages_of(path)
            checks.expect(count == 1, f"{lang} on {paper}: {count} pages")
            shots.append(str(path))
        page.close()
    # Chromium's own print (Letter, the headless default), once the page has loaded its model.
    path = folder / f"month-{MONTH}-chromium-letter.pdf"
    subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer", "--virtual-time-budget=20000",
         f"--print-to-pdf={path}", f"{base}/month?month={MONTH}"], capture_output=True, timeout=300)
    count = pages_of(path)
    checks.expect(count == 1, f"chromium --print-to-pdf: {count} pages")
    text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, timeout=120).stdout
    checks.expect("Jumu'ah" in text and "Isha" in text, "the printed page has the table, not a page still loading")
    shots.append(str(path))
    context.close()


def layouts(browser, base, folder, checks, shots):
    """A desktop and two phones, both languages: nothing clipped, nothing wider than the screen."""
    for name, width, height in [("desktop", 1280, 1000), ("phone", 390, 844), ("small-phone", 360, 740)]:
        for lang in ["en", "ar"]:
            context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1)
            context.set_default_timeout(HANG_GUARD)
            page = open_month(context, f"{base}/month?month={MONTH}&lang={lang}")
            layout = page.evaluate("document.body.dataset.layout")
            checks.expect(layout == ("sheet" if width > 640 else "phone"), f"{name}: layout {layout}")
            problems = page.evaluate(LAYOUT_PROBLEMS)
            checks.expect(problems == [], f"{name} {lang}: {problems[:5]}")
            if name != "small-phone":
                path = folder / f"month-{name}-{lang}.png"
                page.screenshot(path=str(path), full_page=True)
                shots.append(str(path))
                # What a phone shows when the page opens (docs/month-phone.png).
                path = folder / f"month-{name}-{lang}-screen.png"
                page.screenshot(path=str(path))
                shots.append(str(path))
            context.close()


def published(browser, url, mosque, folder, checks, shots):
    """The published mosque's month and screen: notices as text, gaps marked, its feed's link."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.set_default_timeout(HANG_GUARD)
    dialogs = []
    page = open_month(context, f"{url}/month?month={MONTH}", dialogs)
    checks.expect(page.evaluate("document.body.dataset.state") == "ready", "the published month loads")
    titles = page.evaluate("[...document.querySelectorAll('#notices li strong')].map((e) => e.textContent)")
    checks.expect("<b>Janazah</b> after Dhuhr" in titles, f"the notice's markup is text: {titles}")
    made = page.evaluate("document.querySelectorAll('#notices b, #notices script, #notices img').length")
    checks.expect(made == 0, f"no element made of a notice: {made}")
    marked = page.evaluate("document.querySelectorAll('tr.calculated').length")
    checks.expect(marked == 21, f"the 21 days the timetable does not give are marked: {marked}")
    link = page.evaluate("document.getElementById('subscribe').href")
    slug = url.rstrip("/").rsplit("/", 1)[1]
    checks.expect(link.startswith("webcal://") and link.endswith(f"/m/{slug}.ics"), f"the feed's link: {link}")
    checks.expect(page.evaluate(LAYOUT_PROBLEMS) == [], f"published phone: {page.evaluate(LAYOUT_PROBLEMS)[:5]}")
    path = folder / "month-published-phone.png"
    page.screenshot(path=str(path), full_page=True)
    shots.append(str(path))
    sheet = browser.new_context(viewport={"width": 1280, "height": 900})
    sheet.set_default_timeout(HANG_GUARD)
    printed = open_month(sheet, f"{url}/month?month={MONTH}")
    pdf = folder / "month-published-a4.pdf"
    printed.pdf(path=str(pdf), format="A4", print_background=True)
    checks.expect(pages_of(pdf) == 1, f"the published month on A4: {pages_of(pdf)} pages")
    shots.append(str(pdf))
    screen = context.new_page()
    streams = []
    screen.on("response", lambda response: streams.append((response.url, response.status))
              if "/display/events" in response.url else None)
    screen.set_viewport_size({"width": 1280, "height": 720})
    # The page opens its event stream after it loads: waited for as an event, not for a while (the
    # `response` listener above runs first, so the stream is in `streams` when the wait ends).
    with screen.expect_response(lambda response: "/display/events" in response.url, timeout=HANG_GUARD):
        screen.goto(f"{url}/display")
    shown = wait(screen, f"document.getElementById('name').textContent === {mosque!r}")
    checks.expect(shown, f"the published screen shows {mosque}")
    checks.expect(streams == [(f"{url}/display/events", 200)], f"the published screen holds its events: {streams}")
    path = folder / "display-published.png"
    screen.screenshot(path=str(path))
    shots.append(str(path))
    checks.expect(dialogs == [], f"no script of a notice ran: {dialogs}")
    sheet.close()
    context.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--timetable", required=True)
    parser.add_argument("--published", required=True)
    parser.add_argument("--mosque", required=True)
    parser.add_argument("--artifacts", required=True)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    arguments = parser.parse_args()
    folder = Path(arguments.artifacts)
    folder.mkdir(parents=True, exist_ok=True)
    checks, shots = Checks(), []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=arguments.chromium, args=["--no-sandbox"], timeout=HANG_GUARD)
        unit_tests(browser, arguments.url, checks)
        same_values(browser, arguments.url, arguments.timetable, checks)
        one_sheet(browser, arguments.url, arguments.chromium, folder, checks, shots)
        layouts(browser, arguments.url, folder, checks, shots)
        published(browser, arguments.published, arguments.mosque, folder, checks, shots)
        browser.close()
    for shot in shots:
        print(f"artifact {shot}")
    if checks.failures:
        print(f"FAIL {len(checks.failures)} of {checks.count} checks")
        return 1
    print(f"PASS {checks.count} checks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
