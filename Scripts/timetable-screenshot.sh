#!/usr/bin/env bash
# Renders docs/timetable-2027-03.png, the picture of a printed month in docs/mosques.md: Makkah, March 2027,
# with Umm al-Qura's iqama minutes, printed to PDF by `praykit timetable` (WeasyPrint), rasterised at
# 100 dpi by poppler's pdftoppm and reduced to a palette by pngquant when it is installed.
#
#   apt-get install weasyprint poppler-utils pngquant
#   Scripts/timetable-screenshot.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product praykit
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
PRAYKIT_DATABASE="$work/praykit.sqlite" .build/debug/praykit timetable --city Makkah --month 2027-03 \
    --iqama fajr=+25,dhuhr=+20,asr=+20,maghrib=+10,isha=+20 --format pdf --output "$work/month.pdf"
pdftoppm -r 100 -png -singlefile "$work/month.pdf" "$work/month"
mkdir -p docs
if command -v pngquant >/dev/null; then
    pngquant --quality 70-90 --speed 1 --force --output docs/timetable-2027-03.png "$work/month.png"
else
    cp "$work/month.png" docs/timetable-2027-03.png
fi
ls -l docs/timetable-2027-03.png
