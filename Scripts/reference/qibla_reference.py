#!/usr/bin/env python3
"""Generate the GeographicLib qibla fixture for the PrayServices Swift tests.

What it computes
----------------
For every place (latitude, longitude in degrees on WGS84) it solves the
inverse geodesic problem from the place to the Kaaba (21.4225241 N,
39.8261818 E) with GeographicLib's ``Geodesic.WGS84.Inverse`` -- C. F. F.
Karney, "Algorithms for geodesics", J. Geodesy 87 (2013) 43-55, accurate to
round-off (about 15 nm) -- and records:

* ``azimuth`` -- ``azi1``, the initial azimuth at the place towards the
  Kaaba (the qibla), degrees clockwise from true north, normalised to
  [0, 360).
* ``finalAzimuth`` -- ``azi2``, the azimuth at the Kaaba, facing on along
  the geodesic, normalised to [0, 360).
* ``distance`` -- ``s12`` in metres.
* ``sphericalAzimuth`` -- the great-circle initial bearing on a sphere,
  ``atan2(sin dL * cos p2, cos p1 * sin p2 - sin p1 * cos p2 * cos dL)``
  with p the latitudes and dL = lon2 - lon1, in degrees, normalised to
  [0, 360).  Computed here with plain ``math`` so the Swift test can check
  its own formula to 1e-9 degrees.
* ``label`` -- what the place is: ``city:<name>``, ``random``,
  ``near-antipode:<offset>``, ``kaaba``, ``antipode``, ``pole:*``,
  ``equator:*``, ``meridian:*``, ``antimeridian:*``, ``from-kaaba:*``,
  ``dateline:*``.
* ``degenerate`` -- true where the azimuth is not unique: the Kaaba itself
  (distance 0, every direction) and its exact antipode (every direction is
  a shortest path, to round-off).  What GeographicLib returns is recorded,
  but a test should only check that the Swift result is finite and that
  the distance agrees.
* ``twoGeodesics`` -- true for places on the antipodal parallel (latitude
  exactly -21.4225241) inside the cut locus, where two mirror-image
  geodesics of equal length reach the Kaaba (azimuths a and 180 - a).
  GeographicLib picks one; which one depends only on its arithmetic, so an
  implementation that follows it step by step picks the same one.  The
  flag is found by solving the direct problem along the mirrored azimuth.

The places
----------
* 42 real cities (coordinates to 4 decimals, from public gazetteers).
* 150 random points uniform on the sphere (latitude = asin(u), u uniform in
  [-1, 1]; longitude uniform in [-180, 180)), ``random.Random(SEED)``.
* 80 points near the Kaaba's antipode (-21.4225241, -140.1738182): offsets
  of r degrees in direction t, dlat = r cos t, dlon = r sin t, with t = 0,
  4.5, 9, ... 355.5 degrees (so every direction, including due north,
  south, east and west, i.e. on the antipodal meridian and parallel) and
  r log-uniform in [0.001, 2] degrees from the same generator.
* the exact antipode and the Kaaba itself (both degenerate);
* points 1 m, 10 m and 1 km from the Kaaba in the 8 principal directions
  (GeographicLib ``Direct``);
* both poles at several longitudes;
* points on the equator, on the Kaaba's meridian, on its antimeridian
  (longitude -140.1738182, where the geodesic runs over a pole), and on the
  +-180 degree date line.

Deterministic: fixed seed, fixed lists, no clock; the output is identical
from run to run for one GeographicLib version.

Usage
-----
    python3 -m venv /tmp/geo-venv && /tmp/geo-venv/bin/pip install geographiclib
    /tmp/geo-venv/bin/python Scripts/reference/qibla_reference.py \\
        [--output Tests/PrayServicesTests/Resources/qibla-geographiclib.json]
"""

import argparse
import json
import math
import os
import random
import sys

import geographiclib
from geographiclib.geodesic import Geodesic

SEED = 20240521
KAABA_LAT = 21.4225241
KAABA_LON = 39.8261818
ANTIPODE_LAT = -21.4225241
ANTIPODE_LON = -140.1738182
DEFAULT_OUTPUT = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests",
    "PrayServicesTests", "Resources", "qibla-geographiclib.json")

CITIES = [
    ("New York", 40.7128, -74.0060),
    ("London", 51.5074, -0.1278),
    ("Jakarta", -6.2088, 106.8456),
    ("Sydney", -33.8688, 151.2093),
    ("Honolulu", 21.3069, -157.8583),
    ("Santiago", -33.4489, -70.6693),
    ("Anchorage", 61.2181, -149.9003),
    ("Reykjavik", 64.1466, -21.9426),
    ("Cape Town", -33.9249, 18.4241),
    ("Tokyo", 35.6762, 139.6503),
    ("Wellington", -41.2865, 174.7762),
    ("Papeete", -17.5516, -149.5585),
    ("Lima", -12.0464, -77.0428),
    ("Medina", 24.5247, 39.5692),
    ("Jeddah", 21.4858, 39.1925),
    ("Cairo", 30.0444, 31.2357),
    ("Istanbul", 41.0082, 28.9784),
    ("Tehran", 35.6892, 51.3890),
    ("Karachi", 24.8607, 67.0011),
    ("Delhi", 28.6139, 77.2090),
    ("Dhaka", 23.8103, 90.4125),
    ("Kuala Lumpur", 3.1390, 101.6869),
    ("Singapore", 1.3521, 103.8198),
    ("Beijing", 39.9042, 116.4074),
    ("Moscow", 55.7558, 37.6173),
    ("Paris", 48.8566, 2.3522),
    ("Berlin", 52.5200, 13.4050),
    ("Lagos", 6.5244, 3.3792),
    ("Nairobi", -1.2921, 36.8219),
    ("Johannesburg", -26.2041, 28.0473),
    ("Los Angeles", 34.0522, -118.2437),
    ("Chicago", 41.8781, -87.6298),
    ("Toronto", 43.6532, -79.3832),
    ("Mexico City", 19.4326, -99.1332),
    ("Sao Paulo", -23.5505, -46.6333),
    ("Buenos Aires", -34.6037, -58.3816),
    ("Auckland", -36.8485, 174.7633),
    ("Perth", -31.9505, 115.8605),
    ("Suva", -18.1248, 178.4501),
    ("Longyearbyen", 78.2232, 15.6267),
    ("McMurdo Station", -77.8419, 166.6863),
    ("Adamstown", -25.0660, -130.1015),
]


def normalized(degrees):
    """Reduce an angle to [0, 360); a tiny negative angle gives 0, not 360."""
    value = math.fmod(degrees, 360.0)
    if value < 0:
        value += 360.0
    return 0.0 if value >= 360.0 else value


def spherical_bearing(lat1, lon1, lat2, lon2):
    """Great-circle initial bearing from point 1 to point 2, [0, 360)."""
    p1 = math.radians(lat1)
    p2 = math.radians(lat2)
    dl = math.radians(lon2 - lon1)
    theta = math.atan2(math.sin(dl) * math.cos(p2),
                       math.cos(p1) * math.sin(p2)
                       - math.sin(p1) * math.cos(p2) * math.cos(dl))
    return normalized(math.degrees(theta))


def has_two_geodesics(lat, lon, azi1, s12):
    """True if a mirror-image geodesic of the same length also reaches the
    Kaaba: only possible on the antipodal parallel inside the cut locus."""
    if lat != ANTIPODE_LAT or s12 < 1.9e7:
        return False
    mirrored = 180.0 - azi1
    if abs(normalized(mirrored) - normalized(azi1)) < 1e-9:
        return False
    end = Geodesic.WGS84.Direct(lat, lon, mirrored, s12)
    back = Geodesic.WGS84.Inverse(end["lat2"], end["lon2"],
                                  KAABA_LAT, KAABA_LON)
    return back["s12"] < 1e-3


def places():
    """The list of (label, latitude, longitude, degenerate)."""
    rng = random.Random(SEED)
    out = [("city:" + name, lat, lon, False) for name, lat, lon in CITIES]
    for _ in range(150):
        lat = math.degrees(math.asin(rng.uniform(-1.0, 1.0)))
        lon = rng.uniform(-180.0, 180.0)
        out.append(("random", lat, lon, False))
    for k in range(80):
        direction = 4.5 * k
        radius = math.exp(rng.uniform(math.log(0.001), math.log(2.0)))
        t = math.radians(direction)
        # Exact zeros for the four principal directions, so those points lie
        # exactly on the antipodal meridian or parallel.
        dlat = 0.0 if direction in (90.0, 270.0) else radius * math.cos(t)
        dlon = 0.0 if direction in (0.0, 180.0) else radius * math.sin(t)
        out.append((f"near-antipode:r={radius:.6g},t={direction:g}",
                    ANTIPODE_LAT + dlat, ANTIPODE_LON + dlon, False))
    out.append(("antipode", ANTIPODE_LAT, ANTIPODE_LON, True))
    out.append(("kaaba", KAABA_LAT, KAABA_LON, True))
    for metres in (1.0, 10.0, 1000.0):
        for azimuth in range(0, 360, 45):
            end = Geodesic.WGS84.Direct(KAABA_LAT, KAABA_LON, azimuth, metres)
            out.append((f"from-kaaba:{metres:g}m,azi={azimuth}",
                        end["lat2"], end["lon2"], False))
    for lon in (0.0, KAABA_LON, ANTIPODE_LON, 123.0, -45.0, 180.0):
        out.append((f"pole:north,lon={lon:g}", 90.0, lon, False))
        out.append((f"pole:south,lon={lon:g}", -90.0, lon, False))
    for lon in (-180.0, -150.0, -120.0, -90.0, -60.0, -30.0, 0.0, 30.0,
                60.0, 90.0, 120.0, 150.0, 180.0, KAABA_LON, ANTIPODE_LON):
        out.append((f"equator:lon={lon:g}", 0.0, lon, False))
    for lat in (-89.0, -75.0, -60.0, -45.0, -30.0, -21.4225241, -15.0, 0.0,
                15.0, 30.0, 45.0, 60.0, 75.0, 89.0):
        out.append((f"meridian:lat={lat:g}", lat, KAABA_LON, False))
    for lat in (-89.0, -60.0, -30.0, -21.0, -22.0, 0.0, 21.4225241, 30.0,
                60.0, 89.0):
        out.append((f"antimeridian:lat={lat:g}", lat, ANTIPODE_LON, False))
    for lat in (-60.0, -21.4225241, 0.0, 21.4225241, 60.0):
        out.append((f"dateline:lat={lat:g},lon=180", lat, 180.0, False))
        out.append((f"dateline:lat={lat:g},lon=-180", lat, -180.0, False))
    return out


def case(label, lat, lon, degenerate):
    """Solve one place."""
    g = Geodesic.WGS84.Inverse(lat, lon, KAABA_LAT, KAABA_LON)
    for key in ("azi1", "azi2", "s12"):
        if not math.isfinite(g[key]):
            raise ValueError(f"{label}: GeographicLib returned {key}={g[key]}")
    return {
        "label": label,
        "latitude": lat,
        "longitude": lon,
        "azimuth": normalized(g["azi1"]),
        "finalAzimuth": normalized(g["azi2"]),
        "distance": g["s12"],
        "sphericalAzimuth": spherical_bearing(lat, lon, KAABA_LAT, KAABA_LON),
        "degenerate": degenerate,
        "twoGeodesics": has_two_geodesics(lat, lon, g["azi1"], g["s12"]),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--output", default=DEFAULT_OUTPUT)
    args = parser.parse_args()

    cases = [case(*p) for p in places()]
    header = {
        "generator": "Scripts/reference/qibla_reference.py",
        "geographiclib": geographiclib.__version__,
        "ellipsoid": {"a": Geodesic.WGS84.a, "f": Geodesic.WGS84.f},
        "kaaba": {"latitude": KAABA_LAT, "longitude": KAABA_LON},
        "seed": SEED,
        "conventions": "azimuth/finalAzimuth/sphericalAzimuth: degrees "
                       "clockwise from north in [0, 360); distance: metres; "
                       "geodesic from the place to the Kaaba",
    }
    head = json.dumps(header, separators=(",", ":"), allow_nan=False)
    lines = [json.dumps(c, separators=(",", ":"), allow_nan=False)
             for c in cases]
    text = head[:-1] + ',"cases":[\n' + ",\n".join(lines) + "\n]}\n"
    json.loads(text)  # round-trip check

    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "w") as fh:
        fh.write(text)
    degenerate = sum(c["degenerate"] for c in cases)
    two = sum(c["twoGeodesics"] for c in cases)
    print(f"{len(cases)} cases ({degenerate} degenerate, {two} with two "
          f"geodesics), {len(text)} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
