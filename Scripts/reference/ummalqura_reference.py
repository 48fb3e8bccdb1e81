#!/usr/bin/env python3
"""Generate the Umm al-Qura (Hijri) calendar fixtures for the PrayServices tests.

What it produces
----------------
1. ``Tests/PrayServicesTests/Resources/hijri-umm-al-qura.json`` -- every
   Hijri month from 1 Muharram 1343 AH to the end of Dhu al-Hijjah 1500 AH
   (158 years, 1896 months), in order, each with the Gregorian date of its
   first day and its length in days.  The lengths are the differences of
   consecutive month starts (the length of Dhu al-Hijjah 1500 uses the
   table's closing entry, the start of 1501-01); they are NOT assumed to be
   29 or 30 -- the table has eight months of 28 or 31 days in 1343-1364 AH.
2. ``Tests/PrayServicesTests/Resources/hijri-spot-checks.json`` -- 60 random
   Gregorian days (``random.Random(SEED)``, uniform over the whole range,
   no repeats) plus named edge days, each converted with hijridate's public
   API (``Gregorian(y, m, d).to_hijri()``), sorted by date.

Source
------
The ``hijridate`` package (PyPI; formerly ``hijri-converter``; MIT; by
Mohammed Alshehri, https://github.com/dralshehri/hijridate, citation
https://doi.org/10.5281/zenodo.11200950), version 2.6.0 when this fixture
was generated.  Its table lives in ``hijridate/ummalqura.py``:

* ``MONTH_STARTS`` -- a tuple of 1897 ints: the Reduced Julian Day
  (RJD = JDN - 2400000, where JDN is the integer Julian Day Number of the
  civil date, i.e. of its noon) of the first day of each month from
  1343-01 to 1500-12, plus a closing entry for 1501-01.  NB: this is
  RJD, not MJD; the MJD of the same civil day (at 00:00 UTC) is RJD - 1.
  First value 23999 = 1924-08-01, last 79990 = 2077-11-17 (1 Muharram
  1501, which is outside the supported range; the last supported day is
  RJD 79989 = 2077-11-16).
* ``HIJRI_OFFSET = 1342 * 12`` -- months before the first table entry, so
  entry i is month ``(i + HIJRI_OFFSET) % 12 + 1`` of year
  ``(i + HIJRI_OFFSET) // 12 + 1``.
* ``HIJRI_RANGE`` = (1343, 1, 1)..(1500, 12, 30) and ``GREGORIAN_RANGE`` =
  (1924, 8, 1)..(2077, 11, 16), both inclusive.

According to the project's documentation ("Background -- Primary Source
Verification"), the month starts were verified against: the archived Umm
al-Qura newspaper (official month-start announcements) for 1343-1355 AH;
the KFUPM (King Fahd University of Petroleum and Minerals) Comparison
Calendar for 1356-1411 AH; the official Umm al-Qura Comparative Calendar
books (Taqwim Umm al-Qura al-muqaran) for 1412-1450 AH; and KACST's
official website data for 1451-1500 AH.  It therefore follows what was
published and used, which for the historical years differs in many months
from the computed KACST table shipped by other implementations (Oracle's
JDK hijrah-config, ICU); see the hijridate issue tracker.

Checks (all must pass, otherwise the script exits non-zero)
----------------------------------------------------------
* The table is strictly increasing and has (1500 - 1343 + 1) * 12 + 1
  entries; its first start / last day agree with GREGORIAN_RANGE and the
  length of 1500-12 with HIJRI_RANGE.
* The RJD -> Gregorian conversion used here (``date.fromordinal(rjd +
  2400000 - 1721425)``) is anchored independently: 2000-01-01 is JDN
  2451545.
* For every month: ``Hijri(y, m, 1).to_gregorian()`` is the start,
  ``Hijri(y, m, 1).month_length()`` the length, day ``length`` is valid and
  day ``length + 1`` is rejected (ValueError).
* Every Gregorian day from firstDay to lastDay (55,991 days) is converted
  with ``Gregorian(y, m, d).to_hijri()`` and compared with the Hijri date
  obtained by walking the month table built here; then converted back with
  ``Hijri(y, m, d).to_gregorian()`` (with hijridate's validation on) and
  compared with the original day; the Hijri weekday must equal the
  Gregorian one.  The number of days equals the sum of the month lengths.
* The day before firstDay, the day after lastDay, 29/12/1342 and 1/1/1501
  are rejected (OverflowError).

Output format
-------------
Both files are JSON objects, written compactly with one record per line.

``hijri-umm-al-qura.json``::

    {"generator": "Scripts/reference/ummalqura_reference.py",
     "source": str, "hijridate": "2.6.0",
     "firstDay": "1924-08-01", "lastDay": "2077-11-16",
     "monthCount": 1896, "dayCount": 55991,
     "months": [{"year": 1343, "month": 1, "start": "1924-08-01",
                 "length": 30}, ...]}

``hijri-spot-checks.json``::

    {"generator": ..., "source": ..., "hijridate": ..., "seed": int,
     "randomCount": 60,
     "edgeDays": {"<label>": "YYYY-MM-DD", ...}     (documentation)
     "days": [{"gregorian": "YYYY-MM-DD",
               "hijri": {"year": int, "month": int, "day": int},
               "weekday": "Sunday" (English name of the Gregorian date's
                          weekday, proleptic Gregorian, Monday..Sunday),
               "monthLength": int (days in that Hijri month)}, ...]}

How to run
----------
::

    python3 -m venv /tmp/hijri-venv
    /tmp/hijri-venv/bin/pip install hijridate==2.6.0
    /tmp/hijri-venv/bin/python Scripts/reference/ummalqura_reference.py
    /tmp/hijri-venv/bin/python Scripts/reference/ummalqura_reference.py --verify

The first run writes both fixtures (paths relative to the repository root,
found from this file's location); ``--verify`` runs the checks and writes
nothing.  Deterministic: the same hijridate version gives byte-identical
files.  Takes about a second.
"""

import argparse
import datetime as dt
import json
import os
import random
import sys

import hijridate
from hijridate import Gregorian, Hijri, ummalqura

try:
    from importlib.metadata import version as _dist_version
    HIJRIDATE_VERSION = _dist_version("hijridate")
except Exception:  # pragma: no cover
    HIJRIDATE_VERSION = getattr(hijridate, "__version__", "unknown")

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
RESOURCES = os.path.join(ROOT, "Tests", "PrayServicesTests", "Resources")
TABLE_OUTPUT = os.path.join(RESOURCES, "hijri-umm-al-qura.json")
SPOT_OUTPUT = os.path.join(RESOURCES, "hijri-spot-checks.json")
GENERATOR = "Scripts/reference/ummalqura_reference.py"

SEED = 1447
RANDOM_COUNT = 60
FIRST_YEAR, LAST_YEAR = 1343, 1500
JDN_OF_ORDINAL_ZERO = 1721425  # JDN(0001-01-01) = 1721426 = ordinal 1 + this
RJD_OFFSET = 2400000           # RJD = JDN - 2400000
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
            "Saturday", "Sunday")  # index = datetime.date.weekday()

SOURCE = (
    "hijridate (PyPI, formerly hijri-converter; "
    "https://github.com/dralshehri/hijridate; "
    "https://doi.org/10.5281/zenodo.11200950), table "
    "hijridate/ummalqura.py MONTH_STARTS (Reduced Julian Day = JDN - 2400000 "
    "of each month's first day, 1343-01..1501-01). Per its documentation the "
    "month starts follow the officially published Umm al-Qura calendar: "
    "Umm al-Qura newspaper (1343-1355 AH), KFUPM Comparison Calendar "
    "(1356-1411 AH), official Umm al-Qura Comparative Calendar books "
    "(1412-1450 AH), KACST website data (1451-1500 AH). length = difference "
    "of consecutive month starts.")


class CheckError(Exception):
    pass


def check(cond, message):
    if not cond:
        raise CheckError(message)


def rjd_to_date(rjd):
    """Gregorian (proleptic) date of a Reduced Julian Day number."""
    return dt.date.fromordinal(rjd + RJD_OFFSET - JDN_OF_ORDINAL_ZERO)


def iso(d):
    return d.isoformat()


def build_months():
    """The month table from hijridate's MONTH_STARTS, with its own checks."""
    starts = ummalqura.MONTH_STARTS
    n_months = (LAST_YEAR - FIRST_YEAR + 1) * 12
    check(len(starts) == n_months + 1,
          f"MONTH_STARTS has {len(starts)} entries, expected {n_months + 1}")
    check(all(b > a for a, b in zip(starts, starts[1:])),
          "MONTH_STARTS is not strictly increasing")
    check(ummalqura.HIJRI_OFFSET == (FIRST_YEAR - 1) * 12,
          f"unexpected HIJRI_OFFSET {ummalqura.HIJRI_OFFSET}")
    # Independent anchor for the RJD -> date conversion: JDN 2451545 is
    # 2000-01-01 (J2000.0 is its noon).
    check(rjd_to_date(2451545 - RJD_OFFSET) == dt.date(2000, 1, 1),
          "RJD anchor 2000-01-01 failed")
    months = []
    for i in range(n_months):
        total = i + ummalqura.HIJRI_OFFSET
        year, month = total // 12 + 1, total % 12 + 1
        start = rjd_to_date(starts[i])
        length = starts[i + 1] - starts[i]
        months.append({"year": year, "month": month, "start": start,
                       "length": length, "rjd": starts[i]})
    check(months[0]["year"] == FIRST_YEAR and months[0]["month"] == 1,
          "first month is not 1343-01")
    check(months[-1]["year"] == LAST_YEAR and months[-1]["month"] == 12,
          "last month is not 1500-12")
    first_day = months[0]["start"]
    last_day = rjd_to_date(starts[-1] - 1)
    g0, g1 = ummalqura.GREGORIAN_RANGE
    check(first_day == dt.date(*g0),
          f"first day {first_day} != GREGORIAN_RANGE start {g0}")
    check(last_day == dt.date(*g1),
          f"last day {last_day} != GREGORIAN_RANGE end {g1}")
    h0, h1 = ummalqura.HIJRI_RANGE
    check(h0 == (FIRST_YEAR, 1, 1), f"HIJRI_RANGE start {h0}")
    check(h1 == (LAST_YEAR, 12, months[-1]["length"]),
          f"HIJRI_RANGE end {h1} != last month length {months[-1]['length']}")
    return months, first_day, last_day


def check_months_api(months):
    """hijridate's Hijri API agrees with the table month by month."""
    for m in months:
        y, mo, n = m["year"], m["month"], m["length"]
        h = Hijri(y, mo, 1)
        check(h.to_gregorian() == m["start"],
              f"{y}-{mo}: Hijri.to_gregorian {h.to_gregorian()} != {m['start']}")
        check(h.month_length() == n,
              f"{y}-{mo}: month_length {h.month_length()} != {n}")
        Hijri(y, mo, n)  # must be valid
        try:
            Hijri(y, mo, n + 1)
        except ValueError:
            pass
        else:
            raise CheckError(f"{y}-{mo}: day {n + 1} accepted")


def check_every_day(months, first_day, last_day):
    """Round-trip every Gregorian day of the range; return the day count."""
    count = 0
    day = first_day
    one = dt.timedelta(days=1)
    for m in months:
        check(m["start"] == day,
              f"{m['year']}-{m['month']}: start {m['start']} != {day} (gap)")
        for hd in range(1, m["length"] + 1):
            expected = (m["year"], m["month"], hd)
            h = Gregorian(day.year, day.month, day.day).to_hijri()
            check(h.datetuple() == expected,
                  f"{day}: to_hijri {h.datetuple()} != table {expected}")
            back = Hijri(*expected).to_gregorian()  # validates the date
            check(back == day, f"{expected}: to_gregorian {back} != {day}")
            check(h.weekday() == day.weekday(),
                  f"{day}: Hijri weekday {h.weekday()} != {day.weekday()}")
            count += 1
            day += one
    check(day - one == last_day, f"walk ended at {day - one}, not {last_day}")
    check(count == (last_day - first_day).days + 1, "day count mismatch")
    check(count == sum(m["length"] for m in months), "length sum mismatch")
    # Outside the range hijridate must refuse.
    for g in (first_day - one, last_day + one):
        try:
            Gregorian(g.year, g.month, g.day).to_hijri()
        except OverflowError:
            pass
        else:
            raise CheckError(f"{g} converted although outside the range")
    for y, mo, d in ((FIRST_YEAR - 1, 12, 29), (LAST_YEAR + 1, 1, 1)):
        try:
            Hijri(y, mo, d)
        except OverflowError:
            pass
        else:
            raise CheckError(f"{y}-{mo}-{d} accepted although outside the range")
    return count


def edge_days(first_day, last_day):
    return {
        "firstDay": first_day,
        "lastDay": last_day,
        "1 Ramadan 1447": Hijri(1447, 9, 1).to_gregorian(),
        "1 Shawwal 1447": Hijri(1447, 10, 1).to_gregorian(),
        "10 Dhu al-Hijjah 1447": Hijri(1447, 12, 10).to_gregorian(),
        "2026-11-29": dt.date(2026, 11, 29),
    }


def spot_record(day):
    g = Gregorian(day.year, day.month, day.day)
    h = g.to_hijri()
    weekday = WEEKDAYS[day.weekday()]
    check(g.day_name("en") == weekday,
          f"{day}: hijridate day_name {g.day_name('en')} != {weekday}")
    return {"gregorian": iso(day),
            "hijri": {"year": h.year, "month": h.month, "day": h.day},
            "weekday": weekday,
            "monthLength": h.month_length()}


def spot_checks(months, first_day, last_day):
    rng = random.Random(SEED)
    n_days = (last_day - first_day).days + 1
    offsets = rng.sample(range(n_days), RANDOM_COUNT)
    days = {first_day + dt.timedelta(days=o) for o in offsets}
    check(len(days) == RANDOM_COUNT, "random days repeat")
    edges = edge_days(first_day, last_day)
    days |= set(edges.values())
    records = [spot_record(d) for d in sorted(days)]
    # The spot records must agree with the month table too.
    by_month = {(m["year"], m["month"]): m for m in months}
    for r in records:
        h = r["hijri"]
        m = by_month[(h["year"], h["month"])]
        d = dt.date.fromisoformat(r["gregorian"])
        check(d == m["start"] + dt.timedelta(days=h["day"] - 1),
              f"spot {r['gregorian']} disagrees with the month table")
        check(r["monthLength"] == m["length"],
              f"spot {r['gregorian']} month length disagrees")
    return records, {k: iso(v) for k, v in edges.items()}


def dumps(obj):
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False)


def render(header, key, records):
    text = (dumps(header)[:-1] + f',"{key}":[\n'
            + ",\n".join(dumps(r) for r in records) + "\n]}\n")
    json.loads(text)  # round-trip check
    return text


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--verify", action="store_true",
                    help="run the checks only, write nothing")
    args = ap.parse_args()

    try:
        months, first_day, last_day = build_months()
        check_months_api(months)
        n_days = check_every_day(months, first_day, last_day)
        spots, edges = spot_checks(months, first_day, last_day)
    except CheckError as e:
        print(f"CHECK FAILED: {e}", file=sys.stderr)
        sys.exit(1)

    lengths = {}
    for m in months:
        lengths[m["length"]] = lengths.get(m["length"], 0) + 1
    irregular = [f"{m['year']}-{m['month']:02d}={m['length']}"
                 for m in months if m["length"] not in (29, 30)]
    print(f"hijridate {HIJRIDATE_VERSION}: {len(months)} months "
          f"{first_day}..{last_day}, {n_days} days round-tripped, "
          f"lengths {dict(sorted(lengths.items()))}, irregular "
          f"{', '.join(irregular) or 'none'}; {len(spots)} spot days",
          file=sys.stderr)
    if args.verify:
        return

    table_header = {
        "generator": GENERATOR,
        "source": SOURCE,
        "hijridate": HIJRIDATE_VERSION,
        "firstDay": iso(first_day),
        "lastDay": iso(last_day),
        "monthCount": len(months),
        "dayCount": n_days,
    }
    table = [{"year": m["year"], "month": m["month"], "start": iso(m["start"]),
              "length": m["length"]} for m in months]
    spot_header = {
        "generator": GENERATOR,
        "source": "hijridate Gregorian(y, m, d).to_hijri() and "
                  "Hijri.month_length(); weekday = English name of the "
                  "Gregorian date's weekday",
        "hijridate": HIJRIDATE_VERSION,
        "seed": SEED,
        "randomCount": RANDOM_COUNT,
        "edgeDays": edges,
    }
    os.makedirs(RESOURCES, exist_ok=True)
    for path, text in ((TABLE_OUTPUT, render(table_header, "months", table)),
                       (SPOT_OUTPUT, render(spot_header, "days", spots))):
        with open(path, "w") as fh:
            fh.write(text)
        print(f"wrote {os.path.relpath(path, ROOT)} ({len(text)} bytes)",
              file=sys.stderr)


if __name__ == "__main__":
    main()
