#!/usr/bin/env python3
"""Generate the NREL-SPA reference fixture for the PrayServices Swift tests.

What it computes
----------------
For every test case (a place, a local calendar date and a fixed whole-hour UTC
offset) this script computes, with the NREL Solar Position Algorithm (SPA) as
implemented in ``pvlib.spa`` (pure numpy implementation, numba disabled):

* ``transit`` -- the instant at which the sun's GEOCENTRIC apparent local hour
  angle ``H = nu + lambda - alpha`` is 0 (mod 360 deg).  ``nu`` is the apparent
  sidereal time at Greenwich, ``lambda`` the observer longitude (east
  positive) and ``alpha`` the geocentric apparent right ascension, all taken
  from pvlib.spa's own building blocks (julian day, heliocentric L/B/R,
  nutation, aberration, apparent sidereal time, geocentric RA).  Of all
  transits, the one nearest to 12:00 local clock time (date + fixed UTC
  offset) is used.  Solved with ``scipy.optimize.brentq`` to 1e-5 s.
* ``prevLowerTransit`` / ``nextLowerTransit`` -- the instants where H = 180
  deg immediately before / after that transit (brentq, 1e-5 s).
* Altitude events.  ``e0(t)`` is pvlib.spa's TOPOCENTRIC elevation angle
  WITHOUT atmospheric refraction (4th element of the tuple returned by
  ``pvlib.spa.solar_position``: theta, theta0, e, e0, phi, eot); the
  observer elevation in metres is passed to SPA (it changes the parallax
  very slightly).  For a threshold altitude ``h0``:

  - the *morning half-day* is [prevLowerTransit, transit], the *evening
    half-day* is [transit, nextLowerTransit];
  - e0 is sampled every 120 s over each half-day (end points included), the
    sampled maximum and minimum are refined with a bounded Brent search
    (``scipy.optimize.minimize_scalar``) between the neighbouring samples,
    and the refined extreme instants are inserted into the sample grid (so a
    sign change is always bracketed when the threshold lies between the
    half-day's extremes, even on knife-edge days);
  - morning event = the LAST upward crossing (e0 - h0 going from <= 0 to > 0)
    in the morning half-day; evening event = the FIRST downward crossing
    (from > 0 to <= 0) in the evening half-day; refined with brentq to
    1e-4 s.  No such crossing -> ``null``.
  - margin (degrees) = min(maxAlt - h0, h0 - minAlt) over that half-day: the
    signed distance from h0 to the nearest extreme.  Positive <=> the event
    exists, negative <=> it does not (the sun never gets up to h0, or never
    gets down to h0, on that half-day).  It tells a test how "knife-edge" a
    case is.

  Thresholds (degrees):

  ==========  ========  =================================================
  event       half      h0
  ==========  ========  =================================================
  sunrise     morning   -(0.8333 + 0.0347*sqrt(elevation_m))
  sunset      evening   same as sunrise
  fajr18      morning   -18
  fajr15      morning   -15
  fajr195     morning   -19.5
  isha18      evening   -18
  isha17      evening   -17
  isha15      evening   -15
  asr1        evening   atan(1 / (1 + tan|phi - delta|))
  asr2        evening   atan(1 / (2 + tan|phi - delta|))
  ==========  ========  =================================================

  where phi is the latitude and delta the GEOCENTRIC apparent declination of
  the sun at the transit instant.  If |phi - delta| >= 90 deg the Asr
  threshold (and event) is null.

Delta T
-------
One Delta T (TT - UT1, seconds) per case:
``pvlib.spa.calculate_deltat(year, month)`` (Espenak & Meeus polynomials)
evaluated for the year and month of the case's LOCAL DATE.  The value is
stored in each case (``deltaT``) and used for every instant of that case, so
the result is a smooth function of time (using the month of each instant
would introduce step discontinuities of a few milliseconds in Delta T at
month boundaries; the effect on any event is < 1e-4 s).

Time representation
-------------------
All instants are Unix seconds (UTC, POSIX, float, rounded to 1e-4 s; negative
before 1970).  Note that pvlib converts them to a Julian day as
``unix/86400 + 2440587.5``; in double precision that quantises time to about
40 microseconds, which is the real floor of the reference precision.

Cases
-----
* ``general`` (1500): hand-picked cases first (Makkah, London solstices,
  +/-179.9 deg longitude, latitude exactly +/-65, dates 1900-01-01 and
  2100-12-31, ...), then random ones: latitude uniform in [-65, 65],
  longitude uniform in [-180, 180), elevation 0 m with probability 2/3 else
  uniform in [0, 3000] m, local date uniform over 1900-01-01 .. 2100-12-31.
* ``polar`` (600): groups of 5 consecutive dates (flip day -2 .. +2) around a
  day on which the existence of sunrise/sunset (-0.8333), the 15 deg or the
  18 deg twilight flips, found by a daily scan of a random year 1950..2050 at
  a random latitude in [60, 89.5] or [-89.5, -60] (exact poles are skipped),
  random longitude, elevation 0.

For every case ``utcOffsetHours = clamp(round(longitude / 15), -12, 14)``
(round half away from zero).  Inputs are rounded (lat/lon to 1e-6 deg,
elevation to 0.1 m) BEFORE the computation, so the stored inputs are exactly
the ones used.  The random generator is ``numpy.random.default_rng(SEED)``,
so the output is deterministic.

Output
------
``Tests/PrayServicesTests/Resources/spa-reference.json`` (relative to the
repository root), compact JSON with one case per line.  Schema::

    {"generator": str, "pvlib": str, "numpy": str, "scipy": str,
     "seed": int, "conventions": str, "deltaTModel": str,
     "thresholds": {"sunrise": "...", "fajr18": -18.0, ...},  (documentation)
     "cases": [
       {"id": int (0-based, = index),
        "kind": "general" | "polar",
        "label": str            (only on hand-picked and polar cases; polar
                                 labels are "<sunrise|twilight15|twilight18>
                                 -flip<-2..+2>", the day offset from the
                                 approximate existence-flip day),
        "latitude": deg, "longitude": deg (east +), "elevation": metres,
        "date": "YYYY-MM-DD"    (local calendar date),
        "utcOffsetHours": int   (local clock = UTC + offset),
        "deltaT": seconds       (TT - UT1, used for every instant of the case),
        "transitDeclination": deg (geocentric apparent declination at the
                                 transit instant; Asr thresholds follow from
                                 it: atan(1/(N + tan|lat - dec|))),
        "events": {"prevLowerTransit", "transit", "nextLowerTransit",
                   "sunrise", "sunset", "fajr18", "isha18", "fajr15",
                   "isha15", "isha17", "fajr195", "asr1", "asr2"}
                   -> unix seconds (UTC, 4 decimals) | null,
        "margins": {"sunrise", "sunset", "fajr18", "isha18", "fajr15",
                    "isha15", "isha17", "fajr195", "asr1", "asr2"}
                   -> degrees | null (null only for Asr when
                   |lat - dec| >= 90); rounded to 1e-5 deg when
                   |margin| < 1 deg, to 1e-3 deg otherwise}
       , ...]}

The three transits are never null.  An event is null exactly when its
margin is <= 0 (checked by the script; any disagreement is reported on
stderr and would indicate a sampling problem).

How to run
----------
::

    python3 -m venv /tmp/spa-venv
    /tmp/spa-venv/bin/pip install pvlib numpy scipy pandas
    /tmp/spa-venv/bin/python Scripts/reference/spa_reference.py            # writes the fixture
    /tmp/spa-venv/bin/python Scripts/reference/spa_reference.py --verify   # sanity checks only

Single process, single thread; about 10 minutes on one core (596 s for the
full 2100 cases on the reference machine, ~0.28 s per case).
Generated with pvlib 0.16.1, numpy 2.4.6, scipy 1.17.1, Python 3.11.
"""

import argparse
import datetime as dt
import json
import math
import os
import sys
import time

os.environ["PVLIB_USE_NUMBA"] = "0"  # numpy implementation of SPA, always

import numpy as np  # noqa: E402
import scipy  # noqa: E402
from scipy.optimize import brentq, minimize_scalar  # noqa: E402

import pvlib  # noqa: E402
from pvlib import spa  # noqa: E402

assert not spa.USE_NUMBA, "pvlib.spa must use the numpy implementation"

SEED = 20261129
N_GENERAL = 1500
N_POLAR = 600
STEP = 120.0            # coarse sampling step of e0, seconds
XTOL_TRANSIT = 1e-5     # seconds
XTOL_EVENT = 1e-4       # seconds
XTOL_EXTREME = 1e-3     # seconds (altitude is stationary there)
EPOCH = dt.date(1970, 1, 1)
REPO_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUTPUT = os.path.join(REPO_ROOT, "Tests", "PrayServicesTests", "Resources",
                      "spa-reference.json")

# (name, half, fixed h0 or None)  -- order is the order in the JSON
MORNING, EVENING = 0, 1
ALT_EVENTS = [
    ("sunrise", MORNING, None),
    ("sunset", EVENING, None),
    ("fajr18", MORNING, -18.0),
    ("isha18", EVENING, -18.0),
    ("fajr15", MORNING, -15.0),
    ("isha15", EVENING, -15.0),
    ("isha17", EVENING, -17.0),
    ("fajr195", MORNING, -19.5),
    ("asr1", EVENING, None),
    ("asr2", EVENING, None),
]


# --------------------------------------------------------------------------
# SPA building blocks
# --------------------------------------------------------------------------

def geocentric_sun(t, delta_t):
    """Apparent sidereal time at Greenwich (deg), geocentric apparent right
    ascension (deg) and declination (deg) at unix times ``t`` (array).
    Same composition as pvlib.spa.solar_position_numpy(..., sst=True)."""
    t = np.atleast_1d(np.asarray(t, dtype=float))
    jd = spa.julian_day(t)
    jde = spa.julian_ephemeris_day(jd, delta_t)
    jc = spa.julian_century(jd)
    jce = spa.julian_ephemeris_century(jde)
    jme = spa.julian_ephemeris_millennium(jce)
    R = spa.heliocentric_radius_vector(jme)
    L = spa.heliocentric_longitude(jme)
    B = spa.heliocentric_latitude(jme)
    theta = spa.geocentric_longitude(L)
    beta = spa.geocentric_latitude(B)
    x0 = spa.mean_elongation(jce)
    x1 = spa.mean_anomaly_sun(jce)
    x2 = spa.mean_anomaly_moon(jce)
    x3 = spa.moon_argument_latitude(jce)
    x4 = spa.moon_ascending_longitude(jce)
    nut = np.empty((2, len(t)))
    spa.longitude_obliquity_nutation(jce, x0, x1, x2, x3, x4, nut)
    delta_psi, delta_eps = nut[0], nut[1]
    eps = spa.true_ecliptic_obliquity(spa.mean_ecliptic_obliquity(jme),
                                      delta_eps)
    lamd = spa.apparent_sun_longitude(theta, delta_psi,
                                      spa.aberration_correction(R))
    nu = spa.apparent_sidereal_time(spa.mean_sidereal_time(jd, jc),
                                    delta_psi, eps)
    alpha = spa.geocentric_sun_right_ascension(lamd, eps, beta)
    delta = spa.geocentric_sun_declination(lamd, eps, beta)
    return nu, alpha, delta


def hour_angle(t, lon, delta_t):
    """Geocentric apparent local hour angle in [0, 360) deg."""
    nu, alpha, _ = geocentric_sun(t, delta_t)
    return spa.local_hour_angle(nu, lon, alpha)


def e0(t, lat, lon, elev, delta_t):
    """Topocentric elevation without refraction (deg) at unix times t."""
    t = np.atleast_1d(np.asarray(t, dtype=float))
    # pressure / temperature / atmos_refract do not influence e0
    theta, theta0, e, e_0, phi, eot = spa.solar_position(
        t, lat, lon, elev, 1013.25, 12.0, delta_t, 0.5667, numthreads=1)
    return e_0


def wrap180(x):
    return (x + 180.0) % 360.0 - 180.0


# --------------------------------------------------------------------------
# Case solver
# --------------------------------------------------------------------------

def utc_offset_for(lon):
    return int(min(14, max(-12, math.floor(abs(lon) / 15.0 + 0.5)
                           * (1 if lon >= 0 else -1))))


def local_noon_unix(date, offset_hours):
    return ((date - EPOCH).days * 86400.0 + 12 * 3600.0
            - offset_hours * 3600.0)


def _solve_hour_angle(target, t_guess, lon, delta_t):
    """Instant near t_guess where H == target (0 or 180 deg)."""
    def f(x):
        return wrap180(hour_angle(t_guess + x, lon, delta_t)[0] - target)
    # refine the guess twice with the mean solar rate (360 deg / day)
    x = 0.0
    for _ in range(2):
        x -= f(x) / 360.0 * 86400.0
    half = 600.0
    while True:
        a, b = x - half, x + half
        fa, fb = f(a), f(b)
        if fa < 0.0 < fb or fa == 0.0 or fb == 0.0:
            break
        half *= 2
        if half > 7200:
            raise RuntimeError("cannot bracket hour angle root")
    root = brentq(f, a, b, xtol=XTOL_TRANSIT, rtol=4 * np.finfo(float).eps,
                  maxiter=200)
    return t_guess + root


def _refine_extreme(ts, vs, sign, alt):
    """Refine max (sign=+1) or min (sign=-1) of the sampled e0 on a half-day.
    Returns (t, value)."""
    i = int(np.argmax(sign * vs))
    best_t, best_v = float(ts[i]), float(vs[i])
    lo = float(ts[max(i - 1, 0)])
    hi = float(ts[min(i + 1, len(ts) - 1)])
    if hi > lo:
        res = minimize_scalar(lambda x: -sign * alt(lo + x)[0],
                              bounds=(0.0, hi - lo), method="bounded",
                              options={"xatol": XTOL_EXTREME})
        v = float(alt(lo + res.x)[0])
        if sign * v > sign * best_v:
            best_t, best_v = lo + float(res.x), v
    return best_t, best_v


def _round_margin(m):
    """Margins near zero matter (knife-edge days): 1e-5 deg below 1 deg,
    1e-3 deg otherwise (keeps the fixture small)."""
    if m is None:
        return None
    return round(m, 5) if abs(m) < 1.0 else round(m, 3)


def solve_case(case):
    lat, lon, elev = case["latitude"], case["longitude"], case["elevation"]
    date = dt.date.fromisoformat(case["date"])
    offset = case["utcOffsetHours"]
    delta_t = round(float(spa.calculate_deltat(date.year, date.month)), 6)

    def alt(t):
        return e0(t, lat, lon, elev, delta_t)

    noon = local_noon_unix(date, offset)
    transit = _solve_hour_angle(0.0, noon, lon, delta_t)
    prev_lower = _solve_hour_angle(180.0, transit - 43200.0, lon, delta_t)
    next_lower = _solve_hour_angle(180.0, transit + 43200.0, lon, delta_t)
    assert prev_lower < transit < next_lower
    assert abs(transit - noon) < 12 * 3600

    _, _, dec = geocentric_sun(transit, delta_t)
    dec = float(dec[0])

    # coarse sampling of both half-days in one vectorised SPA call
    grid = [np.append(np.arange(prev_lower, transit, STEP), transit),
            np.append(np.arange(transit, next_lower, STEP), next_lower)]
    vals_all = alt(np.concatenate(grid))
    n0 = len(grid[0])
    vals = [vals_all[:n0], vals_all[n0:]]

    halves = []
    for ts, vs in zip(grid, vals):
        tmax, vmax = _refine_extreme(ts, vs, +1, alt)
        tmin, vmin = _refine_extreme(ts, vs, -1, alt)
        # insert the refined extreme instants into the grid
        extra_t = np.array([tmax, tmin])
        extra_v = np.array([vmax, vmin])
        tt = np.concatenate([ts, extra_t])
        vv = np.concatenate([vs, extra_v])
        order = np.argsort(tt, kind="stable")
        tt, vv = tt[order], vv[order]
        keep = np.concatenate([[True], np.diff(tt) > 0])
        halves.append({"t": tt[keep], "v": vv[keep],
                       "min": min(vmin, float(vs.min())),
                       "max": max(vmax, float(vs.max()))})

    z = abs(lat - dec)
    h0_sunrise = -(0.8333 + 0.0347 * math.sqrt(elev))
    thresholds = {
        "sunrise": h0_sunrise,
        "sunset": h0_sunrise,
        "asr1": (math.degrees(math.atan(1.0 / (1.0 + math.tan(math.radians(z)))))
                 if z < 90.0 else None),
        "asr2": (math.degrees(math.atan(1.0 / (2.0 + math.tan(math.radians(z)))))
                 if z < 90.0 else None),
    }

    events = {"prevLowerTransit": prev_lower, "transit": transit,
              "nextLowerTransit": next_lower}
    margins = {}
    inconsistent = []
    for name, half, fixed in ALT_EVENTS:
        h0 = fixed if fixed is not None else thresholds[name]
        if h0 is None:
            events[name] = None
            margins[name] = None
            continue
        hd = halves[half]
        margin = min(hd["max"] - h0, h0 - hd["min"])
        above = hd["v"] - h0 > 0.0
        if half == MORNING:
            idx = np.nonzero(~above[:-1] & above[1:])[0]
            i = idx[-1] if len(idx) else None
        else:
            idx = np.nonzero(above[:-1] & ~above[1:])[0]
            i = idx[0] if len(idx) else None
        if i is None:
            t_ev = None
        else:
            a, b = float(hd["t"][i]), float(hd["t"][i + 1])
            t_ev = a + brentq(lambda x: alt(a + x)[0] - h0, 0.0, b - a,
                              xtol=XTOL_EVENT, rtol=4 * np.finfo(float).eps,
                              maxiter=200)
        if (t_ev is not None) != (margin > 0):
            inconsistent.append(name)
        events[name] = t_ev
        margins[name] = margin

    out = {"id": case["id"], "kind": case["kind"]}
    if case.get("label"):
        out["label"] = case["label"]
    out.update({
        "latitude": lat, "longitude": lon, "elevation": elev,
        "date": case["date"], "utcOffsetHours": offset,
        "deltaT": delta_t,
        "transitDeclination": round(dec, 8),
        "events": {k: (None if v is None else round(v, 4))
                   for k, v in events.items()},
        "margins": {k: _round_margin(v) for k, v in margins.items()},
    })
    return out, inconsistent


# --------------------------------------------------------------------------
# Case generation
# --------------------------------------------------------------------------

def _mk(kind, lat, lon, elev, date, label=None):
    lat = round(float(lat), 6)
    lon = round(float(lon), 6)
    elev = round(float(elev), 1)
    return {"kind": kind, "label": label, "latitude": lat, "longitude": lon,
            "elevation": elev, "date": date.isoformat(),
            "utcOffsetHours": utc_offset_for(lon)}


def hand_picked():
    d = dt.date
    return [
        _mk("general", 21.4225, 39.8262, 0, d(2026, 11, 29), "makkah"),
        _mk("general", 21.4225, 39.8262, 277, d(2026, 11, 29), "makkah-277m"),
        _mk("general", 51.5074, -0.1278, 0, d(2026, 6, 21), "london-june"),
        _mk("general", 51.5074, -0.1278, 0, d(2026, 12, 21), "london-december"),
        _mk("general", -17.7134, 179.9, 0, d(2026, 3, 20), "east-179.9"),
        _mk("general", 13.0, -179.9, 0, d(2026, 9, 23), "west-179.9"),
        _mk("general", 65.0, 25.0, 0, d(2026, 6, 21), "lat+65-june"),
        _mk("general", 65.0, 25.0, 0, d(2026, 12, 21), "lat+65-december"),
        _mk("general", 65.0, 25.0, 3000, d(2026, 6, 21), "lat+65-june-3000m"),
        _mk("general", -65.0, -70.0, 0, d(2026, 12, 21), "lat-65-december"),
        _mk("general", -65.0, 140.0, 0, d(2026, 6, 21), "lat-65-june"),
        _mk("general", 0.0, 179.9, 0, d(1900, 1, 1), "first-day-east"),
        _mk("general", 40.0, -150.0, 0, d(1900, 1, 1), "first-day-west"),
        _mk("general", 65.0, 0.0, 0, d(1900, 1, 1), "first-day-lat+65"),
        _mk("general", 0.0, -179.9, 0, d(2100, 12, 31), "last-day-west"),
        _mk("general", -30.0, 100.0, 0, d(2100, 12, 31), "last-day-east"),
        _mk("general", -65.0, 0.0, 0, d(2100, 12, 31), "last-day-lat-65"),
    ]


def general_cases(rng):
    cases = hand_picked()
    first, last = dt.date(1900, 1, 1), dt.date(2100, 12, 31)
    ndays = (last - first).days + 1
    while len(cases) < N_GENERAL:
        lat = rng.uniform(-65.0, 65.0)
        lon = rng.uniform(-180.0, 180.0)
        elev = 0.0 if rng.random() < 2.0 / 3.0 else rng.uniform(0.0, 3000.0)
        date = first + dt.timedelta(days=int(rng.integers(0, ndays)))
        cases.append(_mk("general", lat, lon, elev, date))
    return cases


FLIP_KINDS = [("sunrise", -0.8333), ("twilight15", -15.0),
              ("twilight18", -18.0)]


def _flip_days(lat, lon, year):
    """Approximate existence of each FLIP_KINDS event per local day of
    `year` (+/- 5 days) from the geocentric noon declination:
    exists <=> (lower culmination) < h0 < (upper culmination).
    Returns {kind: [first local date of each new state]}."""
    start = dt.date(year, 1, 1) - dt.timedelta(days=5)
    days = [start + dt.timedelta(days=k) for k in range(376)]
    offset = utc_offset_for(lon)
    t = np.array([local_noon_unix(d_, offset) for d_ in days])
    _, _, dec = geocentric_sun(t, float(spa.calculate_deltat(year, 7)))
    upper = 90.0 - np.abs(lat - dec)
    lower = np.abs(lat + dec) - 90.0
    out = {}
    for kind, h0 in FLIP_KINDS:
        exists = (lower < h0) & (h0 < upper)
        flips = np.nonzero(exists[1:] != exists[:-1])[0] + 1
        out[kind] = [days[i] for i in flips if days[i].year == year]
    return out


def polar_cases(rng):
    cases = []
    lo, hi = dt.date(1950, 1, 1), dt.date(2050, 12, 31)
    while len(cases) < N_POLAR:
        lat = rng.uniform(60.0, 89.5) * (1 if rng.random() < 0.5 else -1)
        lon = rng.uniform(-180.0, 180.0)
        year = int(rng.integers(1950, 2051))
        lat, lon = round(lat, 6), round(lon, 6)
        flips = _flip_days(lat, lon, year)
        kinds = [k for k, _ in FLIP_KINDS if flips[k]]
        if not kinds:
            continue
        kind = kinds[int(rng.integers(0, len(kinds)))]
        flip = flips[kind][int(rng.integers(0, len(flips[kind])))]
        for k in range(-2, 3):
            date = flip + dt.timedelta(days=k)
            if lo <= date <= hi and len(cases) < N_POLAR:
                cases.append(_mk("polar", lat, lon, 0.0, date,
                                 f"{kind}-flip{k:+d}"))
    return cases


# --------------------------------------------------------------------------
# Verification helpers
# --------------------------------------------------------------------------

def _fmt_local(t, offset):
    if t is None:
        return "null"
    tz = dt.timezone(dt.timedelta(hours=offset))
    return dt.datetime.fromtimestamp(t, tz).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]


def verify():
    import pandas as pd
    from pvlib.solarposition import sun_rise_set_transit_spa

    # 1. explicit composition == pvlib's own sst=True path
    t = np.array([-2.2e9, 0.0, 1.7647e9, 4.1e9])
    nu, alpha, delta = geocentric_sun(t, 69.0)
    ref = spa.solar_position(t, 0, 0, 0, 0, 0, 69.0, 0, sst=True)
    assert np.allclose(nu, ref[0], atol=1e-12, rtol=0)
    assert np.allclose(alpha, ref[1], atol=1e-12, rtol=0)
    assert np.allclose(delta, ref[2], atol=1e-12, rtol=0)
    print("geocentric composition matches solar_position(sst=True)")

    # 2. Makkah / London print-out and comparison with pvlib's
    #    sun_rise_set_transit_spa (geocentric, -0.8333 deg, SPA appendix A.2)
    checks = hand_picked()[:4] + [
        _mk("general", 35.0, 10.0, 0, dt.date(2001, 3, 15), "check-1"),
        _mk("general", -33.9, 18.4, 0, dt.date(1955, 7, 4), "check-2"),
        _mk("general", 48.85, 2.35, 0, dt.date(2080, 10, 1), "check-3"),
        _mk("general", 60.0, 5.0, 0, dt.date(2020, 6, 10), "check-4"),
    ]
    for i, c in enumerate(checks):
        c["id"] = -1 - i
        r, bad = solve_case(c)
        ev, off = r["events"], r["utcOffsetHours"]
        print(f"{r.get('label', ''):16s} {r['date']} UTC{off:+d} dT={r['deltaT']:.2f}")
        for k in ("fajr18", "sunrise", "transit", "asr1", "sunset", "isha18"):
            print(f"    {k:8s} {_fmt_local(ev[k], off)}")
        tz = dt.timezone(dt.timedelta(hours=off))
        times = pd.DatetimeIndex([pd.Timestamp(r["date"] + " 12:00", tz=tz)])
        p = sun_rise_set_transit_spa(times, r["latitude"], r["longitude"],
                                     delta_t=r["deltaT"])
        for k in ("sunrise", "transit", "sunset"):
            pv = p[k].iloc[0].timestamp()
            print(f"    pvlib {k:8s} {_fmt_local(pv, off)}  "
                  f"ours - pvlib = {ev[k] - pv:+.2f} s")
        if bad:
            print("    INCONSISTENT:", bad)


# --------------------------------------------------------------------------

CONVENTIONS = (
    "NREL SPA (pvlib.spa, numpy). Instants are Unix seconds (UTC). "
    "transit: geocentric apparent local hour angle H = nu + lon - alpha = 0 "
    "nearest 12:00 local clock time (date + utcOffsetHours); "
    "prev/nextLowerTransit: H = 180 before/after it. Altitude events use the "
    "topocentric elevation WITHOUT refraction (pvlib e0, observer elevation "
    "passed to SPA): morning events = last upward crossing of h0 in "
    "[prevLowerTransit, transit], evening events = first downward crossing "
    "in [transit, nextLowerTransit]; null if none. margin = min(max - h0, "
    "h0 - min) of e0 over that half-day (deg; > 0 iff the event exists). "
    "sunrise/sunset h0 = -(0.8333 + 0.0347*sqrt(elevation)); fajr18/isha18 "
    "-18, fajr15/isha15 -15, isha17 -17, fajr195 -19.5; asrN h0 = "
    "atan(1/(N + tan|lat - dec|)), dec = geocentric apparent declination at "
    "transit, null if |lat - dec| >= 90. One deltaT per case = "
    "pvlib.spa.calculate_deltat(year, month of the local date).")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--verify", action="store_true",
                    help="run sanity checks only, write nothing")
    ap.add_argument("--limit", type=int, default=None,
                    help="only solve the first N general and N polar cases "
                         "(for testing); output goes to stdout")
    ap.add_argument("--output", default=OUTPUT)
    args = ap.parse_args()

    if args.verify:
        verify()
        return

    t_start = time.time()
    rng = np.random.default_rng(SEED)
    cases = general_cases(rng) + polar_cases(rng)
    if args.limit is not None:
        cases = ([c for c in cases if c["kind"] == "general"][:args.limit]
                 + [c for c in cases if c["kind"] == "polar"][:args.limit])
    for i, c in enumerate(cases):
        c["id"] = i

    results = []
    n_inconsistent = 0
    for i, c in enumerate(cases):
        r, bad = solve_case(c)
        if bad:
            n_inconsistent += 1
            print(f"case {i}: crossing/extreme inconsistency for {bad}",
                  file=sys.stderr)
        results.append(r)
        if (i + 1) % 100 == 0:
            print(f"{i + 1}/{len(cases)} cases, "
                  f"{time.time() - t_start:.0f} s", file=sys.stderr)

    header = {
        "generator": "Scripts/reference/spa_reference.py",
        "pvlib": pvlib.__version__,
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "seed": SEED,
        "conventions": CONVENTIONS,
        "deltaTModel": "pvlib.spa.calculate_deltat(year, month) "
                       "(Espenak & Meeus 2006 polynomials) of the case's "
                       "local date, constant over the case",
        "thresholds": {"sunrise": "-(0.8333 + 0.0347*sqrt(elevation))",
                       "sunset": "-(0.8333 + 0.0347*sqrt(elevation))",
                       "fajr18": -18.0, "isha18": -18.0,
                       "fajr15": -15.0, "isha15": -15.0,
                       "isha17": -17.0, "fajr195": -19.5,
                       "asr1": "atan(1/(1 + tan|lat - dec|))",
                       "asr2": "atan(1/(2 + tan|lat - dec|))"},
    }
    head = json.dumps(header, separators=(",", ":"), allow_nan=False)
    lines = [json.dumps(r, separators=(",", ":"), allow_nan=False)
             for r in results]
    text = head[:-1] + ',"cases":[\n' + ",\n".join(lines) + "\n]}\n"
    json.loads(text)  # round-trip check

    if args.limit is not None:
        sys.stdout.write(text)
    else:
        os.makedirs(os.path.dirname(args.output), exist_ok=True)
        with open(args.output, "w") as fh:
            fh.write(text)
    print(f"{len(results)} cases, {n_inconsistent} inconsistent, "
          f"{len(text)} bytes, {time.time() - t_start:.1f} s",
          file=sys.stderr)


if __name__ == "__main__":
    main()
