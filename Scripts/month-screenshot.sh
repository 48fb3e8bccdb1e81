#!/usr/bin/env bash
# Renders the pictures of the month page in docs/pages.md: London, July 2027 (five Fridays, three Jumu'ah
# times, iqama columns), served by `praykit serve --display` from a home of its own and laid out by
# Debian's Chromium through Playwright — docs/month-2027-07.png, the page printed to A4 (page.pdf, then
# poppler's pdftoppm at 100 dpi), and docs/month-phone.png, what a 390 px phone shows when it opens.
#
#   apt-get install chromium poppler-utils pngquant
#   python3 -m venv .build/browser-venv && .build/browser-venv/bin/pip install playwright
#   Scripts/month-screenshot.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product praykit
work=$(mktemp -d)
server=""
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
export PRAYKIT_DATABASE="$work/praykit.sqlite"
.build/debug/praykit config set city London >/dev/null
.build/debug/praykit config set iqama "fajr=+20,dhuhr=13:30,asr=+15,maghrib=+5,isha=+15" >/dev/null
.build/debug/praykit config set jumuah "13:00,13:40,14:20" >/dev/null
.build/debug/praykit serve --display --port 0 --threads 1 >"$work/out" 2>"$work/err" &
server=$!
for _ in $(seq 1 600); do grep -q "^Listening on" "$work/out" 2>/dev/null && break; sleep 0.1; done
url=$(sed -n 's/^Listening on \(http:[^ ]*\)$/\1/p' "$work/out")
[ -n "$url" ] || { cat "$work/err" >&2; exit 1; }
.build/browser-venv/bin/python - "$url" "$work" <<'PY'
import sys
from playwright.sync_api import sync_playwright
url, work = sys.argv[1], sys.argv[2]
with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
    for name, width, height in [("sheet", 1280, 900), ("phone", 390, 844)]:
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(f"{url}/month?month=2027-07")
        for _ in range(600):
            if page.evaluate("document.body.dataset.state === 'ready'"):
                break
            page.wait_for_timeout(100)
        if name == "sheet":
            page.pdf(path=f"{work}/month.pdf", format="A4", print_background=True)
        else:
            page.screenshot(path=f"{work}/phone.png")
    browser.close()
PY
pdftoppm -r 100 -png -singlefile "$work/month.pdf" "$work/month"
mkdir -p docs
for pair in "month.png:docs/month-2027-07.png" "phone.png:docs/month-phone.png"; do
    from="$work/${pair%%:*}"
    to="${pair#*:}"
    if command -v pngquant >/dev/null; then
        pngquant --quality 70-90 --speed 1 --force --output "$to" "$from"
    else
        cp "$from" "$to"
    fi
done
ls -l docs/month-2027-07.png docs/month-phone.png
