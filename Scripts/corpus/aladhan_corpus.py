#!/usr/bin/env python3
"""A deterministic corpus of HTTP requests against `praykit serve` (the AlAdhan-compatible API).

The corpus is a fixed list of about 2,000 GET requests, generated from a fixed random seed, covering
every route the server answers, its parameters and its errors. Recording sends each request and
writes one JSON line per request:

    {"path": ..., "status": ..., "headers": {...}, "body": ..., "dependsOnNow": bool}

`headers` keeps only the headers that do not change from run to run (Content-Type, Cache-Control,
Access-Control-Allow-Origin, Allow): no ETag (a hash of the body) and no Date. Requests whose answer
depends on the current day or minute (no date given, /v1/currentTime, …) are kept but marked
`dependsOnNow`; `compare` reports them and does not fail for them.

Usage:
    aladhan_corpus.py run --praykit /work/baseline/praykit --out corpus.jsonl
    aladhan_corpus.py record --url http://127.0.0.1:8080 --out corpus.jsonl
    aladhan_corpus.py compare A.jsonl B.jsonl
    aladhan_corpus.py list            # the requests, one a line (D marks dependsOnNow)

`run` starts `BINARY serve --port 0` itself (in a temporary HOME, TZ=UTC, LC_ALL=C), reads the port
from its first line, records, then stops it with SIGTERM and checks that it exits 0.
`compare` exits 1 when a request not marked dependsOnNow differs (status, kept headers or body) or
is missing from either side; 0 otherwise; 2 when a file cannot be read.
"""

import argparse
import calendar as pycalendar
import datetime
import difflib
import http.client
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse

SEED = 20261129
KEPT_HEADERS = ("content-type", "cache-control", "access-control-allow-origin", "allow")

# --------------------------------------------------------------------------------------------------
# Corpus data

# (name, latitude, longitude, zone for timezonestring)
PLACES = [
    ("Makkah", 21.4225, 39.8262, "Asia/Riyadh"),
    ("Madinah", 24.4686, 39.6142, "Asia/Riyadh"),
    ("London", 51.5074, -0.1278, "Europe/London"),
    ("Cairo", 30.0444, 31.2357, "Africa/Cairo"),
    ("Istanbul", 41.0082, 28.9784, "Europe/Istanbul"),
    ("Jakarta", -6.2088, 106.8456, "Asia/Jakarta"),
    ("KualaLumpur", 3.139, 101.6869, "Asia/Kuala_Lumpur"),
    ("Karachi", 24.8607, 67.0011, "Asia/Karachi"),
    ("Dhaka", 23.8103, 90.4125, "Asia/Dhaka"),
    ("Kolkata", 22.5726, 88.3639, "Asia/Calcutta"),
    ("Kathmandu", 27.7172, 85.324, "Asia/Kathmandu"),
    ("Tehran", 35.6892, 51.389, "Asia/Tehran"),
    ("Dubai", 25.2048, 55.2708, "Asia/Dubai"),
    ("Casablanca", 33.5731, -7.5898, "Africa/Casablanca"),
    ("Paris", 48.8566, 2.3522, "Europe/Paris"),
    ("Moscow", 55.7558, 37.6173, "Europe/Moscow"),
    ("NewYork", 40.7128, -74.006, "America/New_York"),
    ("Toronto", 43.6532, -79.3832, "America/Toronto"),
    ("LosAngeles", 34.0522, -118.2437, "America/Los_Angeles"),
    ("Anchorage", 61.2181, -149.9003, "America/Anchorage"),
    ("Honolulu", 21.3069, -157.8583, "Pacific/Honolulu"),
    ("SaoPaulo", -23.5505, -46.6333, "America/Sao_Paulo"),
    ("Santiago", -33.4489, -70.6693, "America/Santiago"),
    ("Ushuaia", -54.8019, -68.303, "America/Argentina/Ushuaia"),
    ("CapeTown", -33.9249, 18.4241, "Africa/Johannesburg"),
    ("Lagos", 6.5244, 3.3792, "Africa/Lagos"),
    ("Sydney", -33.8688, 151.2093, "Australia/Sydney"),
    ("Adelaide", -34.9285, 138.6007, "Australia/Adelaide"),
    ("LordHowe", -31.5553, 159.0821, "Australia/Lord_Howe"),
    ("Auckland", -36.8485, 174.7633, "Pacific/Auckland"),
    ("Tromso", 69.6492, 18.9553, "Europe/Oslo"),
    ("Reykjavik", 64.1466, -21.9426, "Atlantic/Reykjavik"),
    ("Longyearbyen", 78.2232, 15.6267, "Arctic/Longyearbyen"),
    ("Murmansk", 68.9585, 33.0827, "Europe/Moscow"),
    ("Kiritimati", 1.8721, -157.4278, "Pacific/Kiritimati"),
    ("Chatham", -43.9535, -176.5597, "Pacific/Chatham"),
    ("Apia", -13.8333, -171.7667, "Pacific/Apia"),
    ("Tongatapu", -21.1394, -175.2049, "Pacific/Tongatapu"),
    ("McMurdo", -77.846, 166.676, "Antarctica/McMurdo"),
    ("NorthPole", 89.9, 0.0, "UTC"),
    ("SouthPole", -89.9, 0.0, "UTC"),
    ("Antimeridian", 0.0, 180.0, "UTC"),
    ("NullIsland", 0.0, 0.0, "UTC"),
    ("DeadSea", 31.5, 35.4, "Asia/Jerusalem"),
]
PLACE = {p[0]: p for p in PLACES}

# Days worth a look: solstices and equinoxes, DST changes, Ramadan 1448, year ends, leap days, the
# edges of the Umm al-Qura table (1924-08-01 … 2077-11-16) and of the years 1…9999.
FIXED_DATES = [
    "01-03-2027", "21-06-2026", "21-12-2026", "20-03-2027", "22-09-2027", "28-03-2027", "31-10-2027",
    "14-03-2027", "07-11-2027", "08-02-2027", "09-03-2027", "10-03-2027", "16-05-2027", "31-12-2026",
    "01-01-2027", "29-02-2028", "28-02-2027", "01-01-2000", "15-06-1990", "01-08-1924", "31-07-1924",
    "16-11-2077", "17-11-2077", "01-01-1900", "04-07-2050", "01-01-0001", "31-12-9999", "1-1-2027",
    "29-12-2011", "30-12-2011",
]

ZONES_VALID = [
    "Asia/Riyadh", "Europe/London", "America/New_York", "Asia/Calcutta", "Asia/Kathmandu",
    "Asia/Katmandu", "Australia/Lord_Howe", "Pacific/Chatham", "Pacific/Kiritimati", "Pacific/Apia",
    "America/St_Johns", "Asia/Tehran", "Africa/Casablanca", "Antarctica/Troll", "Europe/Kyiv",
    "Europe/Kiev", "America/Nuuk", "America/Godthab", "Asia/Rangoon", "Asia/Yangon", "Pacific/Kanton",
    "Pacific/Enderbury", "America/Ciudad_Juarez", "UTC", "GMT", "Asia/Ho_Chi_Minh", "America/Caracas",
    "Asia/Pyongyang", "Europe/Dublin", "Asia/Gaza",
]
ZONES_ODD = [
    "Asia/Kolkata", "US/Eastern", "Asia/Saigon", "Etc/GMT-3", "Etc/GMT+12", "EST5EDT", "asia/riyadh",
    "Etc/UTC", "Etc/GMT", "UTC+3", "+03:00", "Z", "Europe/Londn", "Mars/Olympus", "Local", "local",
    "EST", "CET", "Factory", "Asia/Riyadh/", " Asia/Riyadh ", "Asia%2FRiyadh", "Europe/London\u00a0",
    "ASIA/RIYADH", "America/Indiana/Indianapolis", "America/Argentina/Buenos_Aires", "Zulu", "UCT",
]

METHOD_IDS = list(range(0, 24)) + [99]
BAD_METHODS = ["6", "24", "98", "100", "-1", "abc", "3.0", "3a", "0x3", "+3", "1e1", " 3 ", "03", "MWL"]
METHOD_SETTINGS = [
    "18.5,null,90 min", "18,1,17", "15,null,15", "19.5, 3 min ,17.5", "null,null,null", "", "20,4.5,18",
    "18.5", "18.5,null", "17,0,0", "abc,null,17", "18,null,90min", "18,null,90 MIN", "18,null,x min",
    "18,null,17,5", "-5,null,17", "90,null,90", "1e1,null,17", "18,5 min,17", "18,null,-30 min",
    "12.5,null,100 min", "0,0,0", "NULL,NULL,NULL", "18,,17", ",,", "18;null;17",
]
TUNES = [
    "0,0,0,0,0,0,0,0,0", "0,2,0,0,0,0,0,-3,0", "1,2,3,4,5,6,7,8,9", "-1,-2,-3,-4,-5,-6,-7,-8,-9", "5",
    "0,0,0,0,0,0,0,0,0,0", "x", "0,,0,,0", "1440,0,0,0,0,0,0,0,-1440", "1441", "0, 2 ,0", "2.5",
    "0,0,0,0,0,0,0,0,30", "60,60,60,60,60,60,60,60,60", ",,,,,,,,", "+3,-3",
]


def fmt_num(value):
    """A coordinate as a URL value: 21.4225, -0.1278, 0, 180."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def build(path, params=()):
    """The path with its query: values percent-encoded except the characters AlAdhan users type raw."""
    if not params:
        return path
    parts = []
    for key, value in params:
        parts.append(urllib.parse.quote(key, safe="") + "=" + urllib.parse.quote(value, safe=",/:-._~"))
    return path + "?" + "&".join(parts)


def coords(place):
    return [("latitude", fmt_num(place[1])), ("longitude", fmt_num(place[2]))]


def ddmmyyyy(date):
    return "%02d-%02d-%04d" % (date.day, date.month, date.year)


class Corpus:
    def __init__(self):
        self.items = []
        self.seen = set()

    def add(self, path, now=False):
        if path in self.seen:
            return
        self.seen.add(path)
        self.items.append({"path": path, "dependsOnNow": bool(now)})


def random_date(rng, start=1950, end=2100):
    first = datetime.date(start, 1, 1).toordinal()
    last = datetime.date(end, 12, 31).toordinal()
    return datetime.date.fromordinal(rng.randint(first, last))


def random_settings(rng, place, valid_bias=0.9):
    """Random AlAdhan settings: mostly valid values, sometimes a wrong one."""
    params = []
    valid = rng.random() < valid_bias
    roll = rng.random
    if roll() < 0.85:
        method = rng.choice(METHOD_IDS)
        if not valid and roll() < 0.3:
            params.append(("method", rng.choice(BAD_METHODS)))
        else:
            params.append(("method", str(method)))
            if method == 99:
                params.append(("methodSettings", rng.choice(METHOD_SETTINGS[:12] if valid else METHOD_SETTINGS)))
            if method == 15 and roll() < 0.7:
                params.append(("shafaq", rng.choice(["general", "ahmer", "abyad", "Ahmer"])))
    if roll() < 0.4:
        params.append(("school", rng.choice(["0", "1"] if valid else ["0", "1", "2", "hanafi"])))
    if roll() < 0.3:
        params.append(("midnightMode", rng.choice(["0", "1"] if valid else ["0", "1", "2"])))
    if roll() < 0.35:
        params.append(("latitudeAdjustmentMethod", rng.choice(["0", "1", "2", "3"] if valid else ["4", "x", "3"])))
    if roll() < 0.3:
        params.append(("tune", rng.choice(TUNES[:5] if valid else TUNES)))
    if roll() < 0.3:
        params.append(("iso8601", rng.choice(["true", "false"] if valid else ["TRUE", "1", "yes"])))
    if roll() < 0.25:
        params.append(("adjustment", rng.choice(["-2", "-1", "0", "1", "2"] if valid else ["3", "-3", "x"])))
    if roll() < 0.25:
        params.append(("calendarMethod", rng.choice(
            ["HJCoSA", "UAQ", "DIYANET", "MATHEMATICAL"] if valid else ["hjcosa", "ISLAMIC", "mathematical"])))
    if roll() < 0.6:
        params.append(("timezonestring", place[3] if valid or roll() < 0.5 else rng.choice(ZONES_ODD)))
    rng.shuffle(params)
    return params


# --------------------------------------------------------------------------------------------------
# The requests


def generate():
    rng = random.Random(SEED)
    c = Corpus()
    mk, lon, cai, tro, rey, kir, cha = (PLACE[n] for n in
                                        ("Makkah", "London", "Cairo", "Tromso", "Reykjavik", "Kiritimati", "Chatham"))

    # Routes without parameters.
    c.add("/status")
    c.add("/v1/methods")
    c.add("/v1/methods?x=1")

    # The README's examples.
    c.add("/v1/timings/01-03-2027?latitude=21.4225&longitude=39.8262&method=4&timezonestring=Asia/Riyadh")
    c.add("/v1/timings/1803884400?latitude=21.4225&longitude=39.8262&iso8601=true")
    c.add("/v1/calendar/2027/3?latitude=51.5074&longitude=-0.1278&method=15&tune=0,2,0,0,0,0,0,-3,0")
    c.add("/v1/hijriCalendar/1448/9?latitude=21.4225&longitude=39.8262&method=4")
    c.add("/v1/gToH/01-03-2027")
    c.add("/v1/hToG/01-10-1448")
    c.add("/v1/qibla/40.7128/-74.006")

    # Every method at a few places and days, with and without the zone.
    for method in METHOD_IDS:
        for place, date in ((mk, "01-03-2027"), (lon, "21-06-2026"), (kir, "31-12-2026")):
            params = coords(place) + [("method", str(method))]
            if method == 99:
                params.append(("methodSettings", "18.5,null,90 min"))
            if place is not kir:
                params.append(("timezonestring", place[3]))
            c.add(build("/v1/timings/" + date, params))
        c.add(build("/v1/calendar/2027/2", coords(cai) + [("method", str(method)), ("timezonestring", cai[3])]))
    # Method 99 without methodSettings, and every methodSettings.
    c.add(build("/v1/timings/01-03-2027", coords(mk) + [("method", "99")]))
    for settings in METHOD_SETTINGS:
        for place in (mk, lon):
            c.add(build("/v1/timings/21-06-2026", coords(place) + [
                ("method", "99"), ("methodSettings", settings), ("timezonestring", place[3])]))
    c.add(build("/v1/timings/01-03-2027", coords(mk) + [("method", "3"), ("methodSettings", "18.5,null,90 min")]))
    for bad in BAD_METHODS + [""]:
        c.add(build("/v1/timings/01-03-2027", coords(mk) + [("method", bad), ("timezonestring", "Asia/Riyadh")]))
    # Absent method: the nearest authority.
    for place in PLACES:
        c.add(build("/v1/timings/01-03-2027", coords(place)))
        c.add(build("/v1/timings/21-06-2026", coords(place) + [("timezonestring", place[3])]))

    # Each setting on its own.
    for place in (mk, tro):
        base = coords(place) + [("timezonestring", place[3])]
        for value in ["0", "1", "2", "hanafi", "HANAFI", "", " 1 ", "-1"]:
            c.add(build("/v1/timings/16-05-2027", base + [("school", value)]))
        for value in ["0", "1", "2", "x", ""]:
            c.add(build("/v1/timings/16-05-2027", base + [("midnightMode", value)]))
            c.add(build("/v1/timings/16-05-2027", base + [("method", "7"), ("midnightMode", value)]))
        for value in ["0", "1", "2", "3", "4", "x", ""]:
            c.add(build("/v1/timings/21-06-2026", base + [("latitudeAdjustmentMethod", value)]))
        for value in TUNES:
            c.add(build("/v1/timings/16-05-2027", base + [("tune", value)]))
        for value in ["true", "false", "TRUE", "1", "yes", ""]:
            c.add(build("/v1/timings/16-05-2027", base + [("iso8601", value)]))
        for value in ["-2", "-1", "0", "1", "2", "3", "-3", "x", "1.5", ""]:
            c.add(build("/v1/timings/16-05-2027", base + [("adjustment", value)]))
        for value in ["HJCoSA", "UAQ", "DIYANET", "MATHEMATICAL", "mathematical", "hjcosa", "ISLAMIC", ""]:
            c.add(build("/v1/timings/09-03-2027", base + [("calendarMethod", value)]))
        for method in ("15", "3"):
            for value in ["general", "ahmer", "abyad", "Abyad", "red", ""]:
                c.add(build("/v1/timings/21-06-2026", base + [("method", method), ("shafaq", value)]))
    # Settings together, and AlAdhan parameters this server ignores.
    c.add(build("/v1/timings/09-03-2027", coords(mk) + [
        ("method", "4"), ("school", "1"), ("midnightMode", "1"), ("latitudeAdjustmentMethod", "1"),
        ("tune", "1,2,3,4,5,6,7,8,9"), ("iso8601", "true"), ("adjustment", "-1"), ("calendarMethod", "UAQ"),
        ("timezonestring", "Asia/Riyadh")]))
    c.add(build("/v1/timings/09-03-2027", coords(mk) + [("x7xxxxxxx", "1"), ("unknown", "yes")]))
    c.add("/v1/timings/01-03-2027?latitude=21.4225&longitude=39.8262&method=3&method=4")
    c.add("/v1/timings/01-03-2027?latitude=21.4225&longitude=39.8262&latitude=51.5&longitude=0")
    c.add("/v1/timings/01-03-2027?latitude=21.4225&longitude=39.8262&&method=3")
    c.add("/v1/timings/01-03-2027?latitude=21.4225&longitude=39.8262&method")
    c.add("/v1/timings/01-03-2027?latitude=21.4225&longitude=39.8262&method=")
    c.add("/v1/timings/01-03-2027?latitude=21.4225&longitude=39.8262&timezonestring=")
    c.add("/v1/timings/01-03-2027?LATITUDE=21.4225&LONGITUDE=39.8262")
    c.add("/v1/timings/01-03-2027?latitude=21%2E4225&longitude=39%2E8262")
    c.add("/v1/timings/01-03-2027?latitude=21.4225+&longitude=+39.8262")
    c.add("/v1/timings/01-03-2027?latitude=21.4225%20&longitude=%2039.8262")
    c.add("/v1/timings/01-03-2027?latitude=21.4225&longitude=39.8262&timezonestring=%2B03:00")
    c.add("/v1/timings/01-03-2027?latitude=21.4225&longitude=39.8262&timezonestring=Asia%2FRiyadh")
    c.add("/v1/timings/01-03-2027?latitude=21.4225&longitude=39.8262#fragment")
    c.add("/v1/timings/01-03-2027?latitude=21.4225&longitude=39.8262&timezonestring=Asia/Riyadh%00")
    c.add("/v1/timings/01-03-2027?latitude=21.4225&longitude=39.8262&method=%FF")

    # Zones by name.
    for index, zone in enumerate(ZONES_VALID + ZONES_ODD):
        c.add(build("/v1/timings/01-03-2027", coords(mk) + [("timezonestring", zone)]))
        c.add(build("/v1/timings/28-03-2027", coords(lon) + [("timezonestring", zone), ("iso8601", "true")]))
        if index % 4 == 0:
            c.add(build("/v1/calendar/2027/3", coords(lon) + [("timezonestring", zone), ("method", "3")]))
    for zone in ["Asia/Kolkata", "US/Eastern", "Asia/Saigon", "Etc/GMT-3", "EST5EDT", "asia/riyadh", "UTC", "GMT"]:
        c.add(build("/v1/timingsByCity/01-03-2027", [("city", "London"), ("country", "GB"), ("timezonestring", zone)]))
        c.add(build("/v1/hijriCalendar/1448/9", coords(mk) + [("timezonestring", zone)]))
        c.add(build("/v1/timings/1803884400", coords(mk) + [("timezonestring", zone)]))

    # Date forms: DD-MM-YYYY, ?date=, UNIX timestamps, and the wrong ones.
    for date in FIXED_DATES:
        for place in (mk, cha):
            c.add(build("/v1/timings/" + date, coords(place) + [("timezonestring", place[3])]))
        c.add(build("/v1/timings", coords(lon) + [("date", date)]))
        c.add(build("/v1/timingsByCity/" + date, [("city", "Cairo"), ("country", "Egypt")]))
    for stamp in ["1803884400", "1803873600", "0", "-1", "86399", "86400", "1", "-62135596800",
                  "-62135596801", "253402300799", "253402300800", "999999999999", "1000000000000", "-999999999999",
                  "1798761599", "1798761600", "1798718400", "+1803884400", "18038844OO", "1803884400.5"]:
        c.add(build("/v1/timings/" + stamp, coords(mk) + [("timezonestring", "Asia/Riyadh")]))
        c.add(build("/v1/timings/" + stamp, coords(kir)))
    for stamp in ["1798761600", "1798718400", "1798804800"]:  # around 2027-01-01 UTC, in far zones
        for place in (kir, cha, PLACE["Honolulu"], PLACE["Apia"]):
            c.add(build("/v1/timings/" + stamp, coords(place) + [("timezonestring", place[3])]))
    for bad in ["31-02-2027", "29-02-2027", "00-01-2027", "32-01-2027", "01-00-2027", "01-13-2027", "2027-03-01",
                "01-03-27", "01/03/2027", "1-3-27", "001-03-2027", "01-03-02027", "01-03-0000", "today", "abc",
                "01-03-2027x", "-01-03-2027", "01--03-2027", "٠١-٠٣-٢٠٢٧", "01-03-10000"]:
        # `today` is a word the routes read (MagicMirror's MMM-PrayerTimes sends it): today's answer.
        c.add(build("/v1/timings/" + urllib.parse.quote(bad, safe="-/"), coords(mk)), now=bad == "today")
        c.add(build("/v1/timings", coords(mk) + [("date", bad)]), now=bad == "today")
    c.add(build("/v1/timings/01-03-2027", coords(mk) + [("date", "02-03-2027")]))

    # Coordinates, right and wrong.
    for lat, lng in [("90", "0"), ("-90", "0"), ("91", "0"), ("-90.0001", "0"), ("0", "180"), ("0", "-180"),
                     ("0", "180.5"), ("0", "-181"), ("abc", "0"), ("0", "abc"), ("NaN", "0"), ("inf", "0"),
                     ("1e1", "2e1"), ("21,4225", "39,8262"), ("", "39.8262"), ("21.4225", ""), ("+21.4225", "+39.8262"),
                     ("0x10", "0"), ("21.4225.1", "39"), ("-0", "-0"), ("1e400", "0"), ("89.99999", "179.99999"),
                     ("21.42250000000000001", "39.826200000000001"), (".5", "-.5"), ("5.", "5.")]:
        c.add(build("/v1/timings/01-03-2027", [("latitude", lat), ("longitude", lng)]))
    c.add(build("/v1/timings/01-03-2027", [("latitude", "21.4225")]))
    c.add(build("/v1/timings/01-03-2027", [("longitude", "39.8262")]))
    c.add(build("/v1/timings/01-03-2027"))
    c.add(build("/v1/timings/01-03-2027", [("latitude", "999"), ("longitude", "0"), ("method", "99")]))
    c.add(build("/v1/timings/31-02-2027", [("latitude", "999"), ("longitude", "0")]))
    c.add(build("/v1/timings/31-02-2027", coords(mk) + [("method", "6")]))
    c.add(build("/v1/timings/31-02-2027", coords(mk) + [("timezonestring", "Nowhere/Nada")]))

    # High latitudes across the year, every latitude rule.
    for place in (tro, rey, PLACE["Longyearbyen"], PLACE["Murmansk"], PLACE["McMurdo"], PLACE["NorthPole"],
                  PLACE["SouthPole"], PLACE["Anchorage"], PLACE["Ushuaia"]):
        for date in ("21-06-2026", "21-12-2026", "20-03-2027", "15-05-2027", "01-08-2027"):
            for rule in ("", "1", rng.choice(["0", "2", "3"])):
                params = coords(place) + [("timezonestring", place[3]), ("method", rng.choice(["2", "3", "15", "12"]))]
                if rule:
                    params.append(("latitudeAdjustmentMethod", rule))
                c.add(build("/v1/timings/" + date, params))

    # Cities.
    cities = [
        ("London", "GB", None), ("London", "UK", None), ("London", "United Kingdom", None), ("London", "Canada", None),
        ("London", "CA", None), ("Makkah", "SA", None), ("Mecca", "Saudi Arabia", None),
        ("Makkah", "Saudi Arabia", None),
        ("Cairo", "Egypt", None), ("Cairo", "EG", None), ("Springfield", "US", None), ("Springfield", "USA", None),
        ("Springfield", "US", "Illinois"), ("Springfield", "US", "IL"), ("Springfield", "US", "Massachusetts"),
        ("Springfield", "United States", "Missouri"), ("Paris", "FR", None), ("Paris", "US", "Texas"),
        ("Tromsø", "NO", None), ("Tromso", "Norway", None), ("Reykjavik", "IS", None), ("Reykjavík", "Iceland", None),
        ("Köln", "DE", None), ("Cologne", "Germany", None), ("مكة", "SA", None), ("القاهرة", "مصر", None),
        ("São Paulo", "BR", None), ("Sao Paulo", "Brazil", None), ("New York", "US", None), ("new york", "us", None),
        ("New York City", "US", "New York"), ("Istanbul", "TR", None), ("Jakarta", "ID", None),
        ("Kuala Lumpur", "MY", None), ("Karachi", "PK", None), ("Kolkata", "IN", None), ("Calcutta", "India", None),
        ("Atlantis", "XX", None), ("Nowhere", "GB", None), ("London", "France", None), ("Birmingham", "AL", None),
        ("Birmingham", "GB", None), ("Birmingham", "US", "Alabama"), ("Medina", "SA", None), ("Medina", "US", None),
        ("Auckland", "NZ", None), ("Honolulu", "US", "Hawaii"), ("Anchorage", "US", None), ("Dubai", "AE", None),
        ("  London  ", "GB", None), ("London", "  GB ", None), ("L", "GB", None), ("Londn", "GB", None),
    ]
    for city, country, state in cities:
        params = [("city", city), ("country", country)] + ([("state", state)] if state else [])
        c.add(build("/v1/timingsByCity/01-03-2027", params))
    for city, country, state in cities[:15]:
        params = [("city", city), ("country", country)] + ([("state", state)] if state else [])
        c.add(build("/v1/timingsByCity/21-12-2026", params + [("method", "3"), ("school", "1"), ("iso8601", "true")]))
        c.add(build("/v1/calendarByCity/2027/3", params))
    c.add(build("/v1/timingsByCity/01-03-2027", [("city", "London")]))
    c.add(build("/v1/timingsByCity/01-03-2027", [("country", "GB")]))
    c.add(build("/v1/timingsByCity/01-03-2027", [("city", ""), ("country", "GB")]))
    c.add(build("/v1/timingsByCity/01-03-2027", [("city", "London"), ("country", "")]))
    c.add(build("/v1/timingsByCity/01-03-2027", [("city", "London"), ("country", "GB"), ("state", "")]))
    c.add(build("/v1/timingsByCity/01-03-2027", coords(mk)))
    c.add(build("/v1/timingsByCity", [("city", "London"), ("country", "GB"), ("date", "01-03-2027")]))
    c.add(build("/v1/timingsByCity/1803884400", [("city", "Makkah"), ("country", "SA")]))
    c.add(build("/v1/timingsByCity/31-02-2027", [("city", "Makkah"), ("country", "SA")]))
    c.add(build("/v1/timingsByCity/01-03-2027", [("city", "Makkah"), ("country", "SA"), ("method", "6")]))
    c.add(build("/v1/timingsByCity/01-03-2027", [("city", "Atlantis"), ("country", "XX"), ("method", "6")]))

    # Random timings requests (the bulk of the corpus).
    for _ in range(380):
        place = rng.choice(PLACES)
        date = random_date(rng)
        params = coords(place) + random_settings(rng, place)
        form = rng.random()
        if form < 0.7:
            c.add(build("/v1/timings/" + ddmmyyyy(date), params))
        elif form < 0.85:
            stamp = pycalendar.timegm(date.timetuple()) + rng.randint(0, 86399)
            c.add(build("/v1/timings/" + str(stamp), params))
        else:
            c.add(build("/v1/timings", params + [("date", ddmmyyyy(date))]))
    for _ in range(60):
        city, country, state = rng.choice(cities[:30])
        place = PLACE["London"]
        date = random_date(rng, 2000, 2060)
        params = [("city", city), ("country", country)] + ([("state", state)] if state else [])
        params += [p for p in random_settings(rng, place) if p[0] != "timezonestring"]
        c.add(build("/v1/timingsByCity/" + ddmmyyyy(date), params))

    # Gregorian calendars: path and query forms, annual.
    for place in (mk, lon, tro, rey, kir, cha, PLACE["Sydney"], PLACE["NewYork"], PLACE["Casablanca"],
                  PLACE["Santiago"], PLACE["LordHowe"], PLACE["Apia"]):
        for year, month in ((2027, 3), (2026, 10), (2027, 12), (2028, 2)):
            c.add(build("/v1/calendar/%d/%d" % (year, month), coords(place) + [("timezonestring", place[3])]))
        c.add(build("/v1/calendar/2027/%d" % rng.randint(1, 12), coords(place)))
    for _ in range(40):
        place = rng.choice(PLACES)
        year = rng.randint(1950, 2100)
        month = rng.randint(1, 12)
        params = coords(place) + random_settings(rng, place)
        if rng.random() < 0.5:
            c.add(build("/v1/calendar/%d/%d" % (year, month), params))
        else:
            c.add(build("/v1/calendar", params + [("year", str(year)), ("month", str(month))]))
    for year, place in ((2027, mk), (2026, tro), (2028, cha)):
        c.add(build("/v1/calendar/%d" % year, coords(place) + [("timezonestring", place[3])]))
    c.add(build("/v1/calendar", coords(lon) + [("year", "2027"), ("annual", "true"),
                                                ("timezonestring", "Europe/London")]))
    c.add(build("/v1/calendar", coords(lon) + [("year", "2027"), ("month", "5"), ("annual", "false")]))
    c.add(build("/v1/calendar", coords(lon) + [("year", "2027"), ("month", "5"), ("annual", "TRUE")]))
    c.add(build("/v1/calendar", coords(lon) + [("year", "2027"), ("month", "5"), ("annual", "true")]))
    c.add(build("/v1/calendar/2027/5", coords(lon) + [("annual", "true")]))
    c.add(build("/v1/calendar/2027/05", coords(lon)))
    c.add(build("/v1/calendar/02027/5", coords(lon)))
    for year, month in (("2027", "0"), ("2027", "13"), ("0", "1"), ("10000", "1"), ("x", "1"), ("2027", "x"),
                        ("1", "1"), ("9999", "12"), ("-1", "1"), ("2027", "-1"), ("2027", "1.0")):
        c.add(build("/v1/calendar/%s/%s" % (year, month), coords(mk)))
        c.add(build("/v1/calendar", coords(mk) + [("year", year), ("month", month)]))
    c.add(build("/v1/calendar/2027/3"))
    c.add(build("/v1/calendar/2027/3", [("latitude", "95"), ("longitude", "0")]))
    c.add(build("/v1/calendar/2027/3", coords(mk) + [("method", "6")]))
    c.add(build("/v1/calendar/2027/3", coords(mk) + [("iso8601", "true"), ("tune", "1,1,1,1,1,1,1,1,1")]))
    # calendarByCity
    for params in ([("city", "Makkah"), ("country", "SA")], [("city", "London"), ("country", "GB")],
                   [("city", "Atlantis"), ("country", "XX")], [("city", "Springfield"), ("country", "US")]):
        c.add(build("/v1/calendarByCity/2027/2", params))
        c.add(build("/v1/calendarByCity", params + [("year", "2027"), ("month", "2")]))
        c.add(build("/v1/calendarByCity/2027/13", params))
    c.add(build("/v1/calendarByCity/2027", [("city", "Reykjavik"), ("country", "IS")]))
    c.add(build("/v1/calendarByCity/2027/2", [("city", "Makkah")]))

    # Hijri calendars.
    for place in (mk, lon, tro, kir, cha, PLACE["Jakarta"]):
        for year, month in ((1448, 9), (1448, 10), (1448, 12), (1449, 1)):
            c.add(build("/v1/hijriCalendar/%d/%d" % (year, month), coords(place) + [("timezonestring", place[3])]))
    for _ in range(25):
        place = rng.choice(PLACES)
        year = rng.randint(1343, 1520)
        month = rng.randint(1, 12)
        params = coords(place) + random_settings(rng, place)
        if rng.random() < 0.5:
            c.add(build("/v1/hijriCalendar/%d/%d" % (year, month), params))
        else:
            c.add(build("/v1/hijriCalendar", params + [("year", str(year)), ("month", str(month))]))
    c.add(build("/v1/hijriCalendar/1448", coords(mk) + [("timezonestring", "Asia/Riyadh")]))
    c.add(build("/v1/hijriCalendar", coords(mk) + [("year", "1449"), ("annual", "true")]))
    for year, month in (("1342", "12"), ("1343", "1"), ("1500", "12"), ("1501", "1"), ("1", "1"), ("9999", "12"),
                        ("1448", "0"), ("1448", "13"), ("0", "1"), ("10000", "1"), ("x", "1"), ("1448", "x")):
        c.add(build("/v1/hijriCalendar/%s/%s" % (year, month), coords(mk)))
    for calendar_method in ("HJCoSA", "UAQ", "DIYANET", "MATHEMATICAL", "bad"):
        for adjustment in ("", "-1", "2"):
            params = coords(mk) + [("calendarMethod", calendar_method)]
            if adjustment:
                params.append(("adjustment", adjustment))
            c.add(build("/v1/hijriCalendar/1448/9", params))
    for params in ([("city", "Makkah"), ("country", "SA")], [("city", "Cairo"), ("country", "Egypt")],
                   [("city", "Atlantis"), ("country", "XX")]):
        c.add(build("/v1/hijriCalendarByCity/1448/9", params))
        c.add(build("/v1/hijriCalendarByCity", params + [("year", "1448"), ("month", "10")]))
    c.add(build("/v1/hijriCalendarByCity/1448", [("city", "Makkah"), ("country", "SA")]))

    # Date conversion.
    calendar_options = [[], [("calendarMethod", "HJCoSA")], [("calendarMethod", "UAQ")],
                        [("calendarMethod", "DIYANET")],
                        [("calendarMethod", "MATHEMATICAL")], [("adjustment", "1")], [("adjustment", "-2")],
                        [("calendarMethod", "MATHEMATICAL"), ("adjustment", "2")], [("calendarMethod", "x")],
                        [("adjustment", "3")]]
    for date in FIXED_DATES:
        c.add(build("/v1/gToH/" + date))
        c.add(build("/v1/gToH", [("date", date)]))
    for _ in range(40):
        date = random_date(rng, 1, 9999) if rng.random() < 0.2 else random_date(rng, 1900, 2100)
        c.add(build("/v1/gToH/" + ddmmyyyy(date), rng.choice(calendar_options)))
    for bad in ["31-02-2027", "2027-03-01", "abc", "00-00-0000", "1803884400", "01-03-27", "32-12-2027"]:
        c.add(build("/v1/gToH/" + bad))
    hijri_dates = ["01-09-1448", "01-10-1448", "30-09-1448", "29-09-1448", "10-12-1448", "01-01-1343", "30-12-1342",
                   "29-12-1500", "30-12-1500", "01-01-1501", "01-01-1", "1-1-1", "12-03-1448", "27-07-1448",
                   "15-08-1448", "01-01-9999", "29-12-9666", "01-13-1448", "00-01-1448", "31-01-1448", "30-02-1448",
                   "abc", "2027-03-01", "01-09-14480", "01/09/1448"]
    for date in hijri_dates:
        c.add(build("/v1/hToG/" + date))
        c.add(build("/v1/hToG", [("date", date)]))
    for _ in range(40):
        date = "%02d-%02d-%d" % (rng.randint(1, 30), rng.randint(1, 12), rng.randint(1300, 1550))
        c.add(build("/v1/hToG/" + date, rng.choice(calendar_options)))
    for month, year in ((3, 2027), (2, 2028), (2, 2100), (12, 1924), (8, 1924), (11, 2077), (1, 1), (12, 9999),
                        (0, 2027), (13, 2027), (3, 0), (3, 10000), ("x", 2027), (3, "x")):
        c.add(build("/v1/gToHCalendar/%s/%s" % (month, year)))
        c.add(build("/v1/hToGCalendar/%s/%s" % (month, str(year).replace("2027", "1448").replace("2028", "1449"))))
    for options in calendar_options:
        c.add(build("/v1/gToHCalendar/3/2027", options))
        c.add(build("/v1/hToGCalendar/9/1448", options))
    for _ in range(20):
        c.add(build("/v1/gToHCalendar/%d/%d" % (rng.randint(1, 12), rng.randint(1900, 2100))))
        c.add(build("/v1/hToGCalendar/%d/%d" % (rng.randint(1, 12), rng.randint(1300, 1550))))
    c.add("/v1/gToHCalendar/3")
    c.add("/v1/hToGCalendar/9")
    c.add("/v1/gToHCalendar/3/2027/1")

    # Qibla.
    for place in PLACES:
        c.add("/v1/qibla/%s/%s" % (fmt_num(place[1]), fmt_num(place[2])))
    for lat, lng in [("21.4225", "39.8262"), ("21.422487", "39.826206"), ("-21.4225", "-140.1738"), ("90", "0"),
                     ("-90", "0"), ("91", "0"), ("0", "181"), ("abc", "0"), ("0", ""), ("1e1", "1e1"), ("NaN", "0"),
                     ("%2B21.4", "39.8"), ("21,4", "39,8")]:
        c.add("/v1/qibla/%s/%s" % (lat, lng))
    for _ in range(15):
        c.add("/v1/qibla/%s/%s" % (fmt_num(round(rng.uniform(-90, 90), 4)), fmt_num(round(rng.uniform(-180, 180), 4))))
    c.add("/v1/qibla/21.4225")
    c.add("/v1/qibla")
    c.add("/v1/qibla/1/2/3")

    # Routes that are not there, or not served.
    for path in ["/", "/v1", "/v1/", "/v2/timings", "/V1/timings", "/v1/Timings/01-03-2027", "/v1/timing",
                 "/v1/timings/01-03-2027/extra", "/v1/methods/3", "/status/x", "/favicon.ico", "/v1/status",
                 "/v1/asmaAlHusna", "/v1/islamicYearFromGregorianForRamadan", "/v1/currentTime/x",
                 "/v1/calendar/2027/3/1",
                 "/v1/hijriCalendar/1448/9/1", "/v1/gToH/01-03-2027/x", "/v1//timings", "//v1/methods", "/v1/methods/",
                 "/status/", "/v1/%74imings/01-03-2027?latitude=1&longitude=1",
                 "/v1/timings/%30%31-03-2027?latitude=1&longitude=1",
                 "/v1/qibla/21.4225/39.8262/", "/v1/gToHCalendar", "/v1/hToGCalendar/1/2/3", "/v1/methods?method=3",
                 "/" + "a" * 300, "/v1/timings/" + "9" * 40 + "?latitude=1&longitude=1"]:
        c.add(path)

    # Current time and requests without a date: they depend on "now" (kept, marked).
    for zone in ["Asia/Riyadh", "UTC", "Pacific/Kiritimati"]:
        c.add(build("/v1/currentTime", [("zone", zone)]), now=True)
        c.add(build("/v1/currentDate", [("zone", zone)]), now=True)
        c.add(build("/v1/currentTimestamp", [("zone", zone)]), now=True)
    for route in ("currentTime", "currentDate", "currentTimestamp"):
        c.add("/v1/" + route)  # errors: no zone
        c.add(build("/v1/" + route, [("zone", "Asia/Kolkata")]), now=True)  # a valid zone: the current time there
        c.add(build("/v1/" + route, [("zone", "Nowhere/Nada")]))
        c.add(build("/v1/" + route, [("zone", "")]))
    c.add(build("/v1/timings", coords(mk) + [("timezonestring", "Asia/Riyadh")]), now=True)
    c.add(build("/v1/timings", coords(kir)), now=True)
    c.add(build("/v1/timingsByCity", [("city", "London"), ("country", "GB")]), now=True)
    c.add(build("/v1/calendar", coords(mk)), now=True)
    c.add(build("/v1/calendar", coords(mk) + [("year", "2027")]), now=True)  # the month is this month
    c.add(build("/v1/calendar", coords(mk) + [("month", "3")]), now=True)  # the year is this year
    c.add(build("/v1/hijriCalendar", coords(mk)), now=True)
    c.add(build("/v1/hijriCalendar", coords(mk) + [("year", "1448")]), now=True)
    c.add("/v1/gToH", now=True)
    c.add("/v1/hToG", now=True)
    c.add(build("/v1/gToH", [("calendarMethod", "MATHEMATICAL")]), now=True)
    # Errors found before "now" matters.
    c.add(build("/v1/timings", [("latitude", "95"), ("longitude", "0")]))
    c.add(build("/v1/timings", coords(mk) + [("method", "6")]))
    c.add(build("/v1/gToH", [("calendarMethod", "x")]))
    c.add(build("/v1/hToG", [("adjustment", "9")]))

    # Addresses, the next prayer, the holidays and the calendar's lists (issue 24). Kept after the
    # others, without the random generator, so that the requests above stay the same.
    addresses = ["Makkah, Saudi Arabia", "makkah", "MAKKAH, SA", "London", "London, United Kingdom", "Zürich",
                 "zurich, switzerland", "Masjid al-Haram, Makkah, Saudi Arabia", "10 Downing Street, London, UK",
                 "Cairo, EG", "القاهرة", "Springfield", "Springfield, US", "Springfield, Illinois, US", "Egypt",
                 "Qwxzqv Plmkj", "", " , , ", "Gate 79, Masjid al-Haram", "Hyderabad", "Paris, TX"]
    c.add("/v1/timingsByAddress/01-03-2027?address=London")
    c.add("/v1/calendarByAddress?address=London", now=True)  # this month
    c.add("/v1/hijriCalendarByAddress?address=London", now=True)
    c.add("/v1/nextPrayer")  # errors: no latitude and longitude
    for address in addresses:
        c.add(build("/v1/timingsByAddress/01-03-2027", [("address", address)]))
        c.add(build("/v1/timingsByAddress/21-06-2027", [("address", address), ("method", "3"), ("school", "1")]))
    for address in addresses[:6]:
        c.add(build("/v1/timingsByAddress/01-03-2027", [("address", address), ("timezonestring", "UTC")]))
        c.add(build("/v1/calendarByAddress/2027/3", [("address", address), ("method", "4")]))
        c.add(build("/v1/hijriCalendarByAddress/1448/9", [("address", address)]))
        c.add(build("/v1/timingsByAddress", [("address", address)]), now=True)
        c.add(build("/v1/nextPrayerByAddress/01-03-2027", [("address", address)]), now=True)
    for path in ["/v1/timingsByAddress", "/v1/timingsByAddress/01-03-2027", "/v1/calendarByAddress/2027/3",
                 "/v1/nextPrayerByAddress", "/v1/timingsByAddress/31-02-2027?address=London",
                 "/v1/timingsByAddress/01-03-2027?address=London&method=6",
                 "/v1/timingsByAddress/01-03-2027/x?address=London", "/v1/calendarByAddress/2027/13?address=London"]:
        c.add(path)
    for place in (mk, lon, tro, kir):
        for date in ("01-03-2027", "21-06-2027", "1803884400"):
            c.add(build("/v1/nextPrayer/" + date, coords(place) + [("timezonestring", place[3])]), now=True)
        c.add(build("/v1/nextPrayer", coords(place)), now=True)
        c.add(build("/v1/nextPrayer/01-03-2027", coords(place) + [("iso8601", "true"), ("method", "3")]), now=True)
    c.add(build("/v1/nextPrayer/21-06-2027", coords(tro) + [("latitudeAdjustmentMethod", "0")]), now=True)
    for query in ["latitude=21.4", "latitude=91&longitude=0", "latitude=1&longitude=1&method=6",
                  "latitude=1&longitude=1&timezonestring=Mars/Base", "latitude=1&longitude=1&tune=x"]:
        c.add("/v1/nextPrayer/01-03-2027?" + query)
    for date in ["31-02-2027", "2027-03-01", "01-03-0999", "x"]:
        c.add("/v1/nextPrayer/%s?latitude=1&longitude=1" % date)
    c.add("/v1/nextPrayer/01-03-2027/x?latitude=1&longitude=1")
    for year in ["1", "1300", "1356", "1446", "1447", "1448", "1500", "1501", "2000", "9999", "0", "-1", "abc",
                 "1446.5", "99999999999999999999"]:
        c.add("/v1/islamicHolidaysByHijriYear/" + year)
    for options in [[("calendarMethod", "MATHEMATICAL")], [("calendarMethod", "UAQ")], [("adjustment", "1")],
                    [("adjustment", "-2"), ("calendarMethod", "MATHEMATICAL")], [("calendarMethod", "x")],
                    [("adjustment", "9")]]:
        c.add(build("/v1/islamicHolidaysByHijriYear/1446", options))
    c.add("/v1/islamicHolidaysByHijriYear")
    c.add("/v1/islamicHolidaysByHijriYear/1446/1")
    for month in range(1, 13):
        for day in range(1, 31):
            c.add("/v1/hijriHolidays/%d/%d" % (day, month))
    for day, month in [("0", "1"), ("31", "1"), ("1", "0"), ("1", "13"), ("x", "1"), ("1", "x"), ("01", "09")]:
        c.add("/v1/hijriHolidays/%s/%s" % (day, month))
    for path in ["/v1/hijriHolidays/1", "/v1/hijriHolidays", "/v1/specialDays", "/v1/specialDays/1",
                 "/v1/islamicMonths", "/v1/islamicMonths/9"]:
        c.add(path)
    for route in ("nextHijriHoliday", "currentIslamicYear", "currentIslamicMonth"):
        c.add("/v1/" + route, now=True)
        c.add(build("/v1/" + route, [("calendarMethod", "MATHEMATICAL"), ("adjustment", "1")]), now=True)
        c.add(build("/v1/" + route, [("calendarMethod", "x")]))
        c.add(build("/v1/" + route, [("adjustment", "3")]))
    for year in ["600", "622", "623", "1900", "1997", "2025", "2027", "2030", "2077", "9999", "10000", "x"]:
        c.add("/v1/islamicYearFromGregorianForRamadan/" + year)
    return c.items


# --------------------------------------------------------------------------------------------------
# Recording


class Client:
    def __init__(self, url, timeout=60):
        parsed = urllib.parse.urlsplit(url)
        if parsed.scheme != "http" or not parsed.hostname:
            raise SystemExit("--url must be http://HOST:PORT, got %r" % url)
        self.host = parsed.hostname
        self.port = parsed.port or 80
        self.prefix = parsed.path.rstrip("/")
        self.timeout = timeout
        self.connection = None

    def get(self, path):
        for attempt in range(3):
            try:
                if self.connection is None:
                    self.connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
                self.connection.putrequest("GET", self.prefix + path, skip_accept_encoding=True)
                self.connection.endheaders()
                response = self.connection.getresponse()
                body = response.read()
                headers = {k.lower(): v for k, v in response.getheaders()}
                if headers.get("connection", "").lower() == "close":
                    self.close()
                return response.status, headers, body
            except (http.client.HTTPException, OSError):
                self.close()
                if attempt == 2:
                    raise
                time.sleep(0.2)

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def record(url, out):
    items = generate()
    client = Client(url)
    started = time.monotonic()
    counts = {}
    with open(out, "w", encoding="utf-8") as handle:
        for item in items:
            status, headers, body = client.get(item["path"])
            counts[status] = counts.get(status, 0) + 1
            try:
                text = body.decode("utf-8")
            except UnicodeDecodeError:
                text = body.decode("utf-8", errors="backslashreplace")
            kept = {name: headers[name] for name in KEPT_HEADERS if name in headers}
            line = {"path": item["path"], "status": status, "headers": kept, "body": text,
                    "dependsOnNow": item["dependsOnNow"]}
            cache = headers.get("cache-control", "")
            if status == 200 and not item["dependsOnNow"] and cache not in ("public, max-age=86400", "no-store"):
                print("warning: %s answers Cache-Control %r but is not marked dependsOnNow" % (item["path"], cache),
                      file=sys.stderr)
            handle.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")
    client.close()
    elapsed = time.monotonic() - started
    summary = ", ".join("%d: %d" % (k, counts[k]) for k in sorted(counts))
    print("Recorded %d requests in %.1f s to %s (status %s)" % (len(items), elapsed, out, summary))


def run(binary, out):
    binary = os.path.abspath(binary)
    home = tempfile.mkdtemp(prefix="aladhan-corpus-")
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "XDG_DATA_HOME": home, "TZ": "UTC",
        "LC_ALL": "C", "PRAYKIT_DATABASE": os.path.join(home, "praykit.sqlite"),
    }
    stderr_path = os.path.join(home, "serve.stderr")
    with open(stderr_path, "wb") as stderr:
        server = subprocess.Popen([binary, "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=stderr,
                                  stdin=subprocess.DEVNULL, env=env, cwd=home)
    try:
        line = server.stdout.readline().decode("utf-8", "replace").strip()
        prefix = "Listening on "
        if not line.startswith(prefix):
            server.kill()
            server.wait()
            with open(stderr_path, "rb") as handle:
                sys.stderr.write(handle.read().decode("utf-8", "replace"))
            raise SystemExit("the server did not say where it listens: %r" % line)
        url = line[len(prefix):]
        print("Server: %s (pid %d)" % (url, server.pid))
        record(url, out)
    finally:
        if server.poll() is None:
            stopping = time.monotonic()
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=20)
                print("Server stopped %.2f s after SIGTERM (exit status %s)" % (time.monotonic() - stopping,
                                                                               server.returncode))
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
                print("warning: the server did not stop within 20 s of SIGTERM; killed", file=sys.stderr)
        rest = server.stdout.read().decode("utf-8", "replace")
        server.stdout.close()
    with open(stderr_path, "rb") as handle:
        log = handle.read().decode("utf-8", "replace")
    if server.returncode != 0:
        print("warning: the server exited with %s after SIGTERM" % server.returncode, file=sys.stderr)
    if rest.strip():
        print("note: the server wrote more on standard output:\n" + rest, file=sys.stderr)
    if log.strip():
        print("note: the server's standard error:\n" + log[-4000:], file=sys.stderr)
    shutil.rmtree(home, ignore_errors=True)
    return server.returncode


# --------------------------------------------------------------------------------------------------
# Comparing


def load(path):
    entries = {}
    order = []
    if not os.path.isfile(path):
        print("cannot read %s" % path, file=sys.stderr)
        sys.exit(2)
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            line = line.strip()
            if not line:
                continue
            entry = json.loads(line)
            if entry["path"] in entries:
                raise SystemExit("%s:%d: the path %s is there twice" % (path, number, entry["path"]))
            entries[entry["path"]] = entry
            order.append(entry["path"])
    return entries, order


def pretty(body):
    try:
        return json.dumps(json.loads(body), indent=1, ensure_ascii=False, sort_keys=False).splitlines()
    except ValueError:
        return body.splitlines()


def compare(path_a, path_b, max_lines=60):
    a, order_a = load(path_a)
    b, order_b = load(path_b)
    order = order_a + [p for p in order_b if p not in a]
    failing = 0
    ignored = 0
    for path in order:
        left, right = a.get(path), b.get(path)
        now = bool((left or {}).get("dependsOnNow") or (right or {}).get("dependsOnNow"))
        tag = " (dependsOnNow: ignored)" if now else ""
        if left is None or right is None:
            print("=== %s: only in %s%s" % (path, path_a if right is None else path_b, tag))
        else:
            problems = []
            if left["status"] != right["status"]:
                problems.append("status %s -> %s" % (left["status"], right["status"]))
            if left.get("headers") != right.get("headers"):
                problems.append("headers %s -> %s" % (json.dumps(left.get("headers"), sort_keys=True),
                                                      json.dumps(right.get("headers"), sort_keys=True)))
            if left["body"] != right["body"]:
                problems.append("body differs")
            if not problems:
                continue
            print("=== %s: %s%s" % (path, "; ".join(problems), tag))
            if left["body"] != right["body"] and not now:
                diff = list(difflib.unified_diff(pretty(left["body"]), pretty(right["body"]), path_a, path_b,
                                                 lineterm="", n=2))
                for line in diff[:max_lines]:
                    print("  " + line)
                if len(diff) > max_lines:
                    print("  … %d more diff lines" % (len(diff) - max_lines))
        if now:
            ignored += 1
        else:
            failing += 1
    print("%d of %d requests differ%s" % (failing + ignored, len(order),
                                           " (%d of them dependsOnNow, ignored)" % ignored if ignored else ""))
    return 1 if failing else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="mode", required=True)
    p = sub.add_parser("record", help="record the corpus against a running server")
    p.add_argument("--url", required=True)
    p.add_argument("--out", required=True)
    p = sub.add_parser("run", help="start `praykit serve --port 0`, record, stop it")
    p.add_argument("--praykit", required=True)
    p.add_argument("--out", required=True)
    p = sub.add_parser("compare", help="compare two recordings")
    p.add_argument("a")
    p.add_argument("b")
    sub.add_parser("list", help="print the requests")
    args = parser.parse_args()
    if args.mode == "record":
        record(args.url, args.out)
    elif args.mode == "run":
        code = run(args.praykit, args.out)
        sys.exit(0 if code == 0 else 2)
    elif args.mode == "compare":
        sys.exit(compare(args.a, args.b))
    else:
        items = generate()
        for item in items:
            print(("D " if item["dependsOnNow"] else "  ") + item["path"])
        print("%d requests" % len(items), file=sys.stderr)


if __name__ == "__main__":
    main()
