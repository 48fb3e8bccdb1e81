#!/usr/bin/env python3
"""Write Tests/PrayPlacesTests/Resources/timezone-reference.tsv: points and the zones that the
full-precision timezone-boundary-builder polygons give them, to check the simplified data of
TimeZoneServiceBoundaries against (Tests/PrayPlacesTests/TimeZoneBoundaryTests.swift).

Same pinned inputs as generate_timezones.py (timezonefinder 9.0.0, timezonefinder-data
3.2026.3.post1 = timezone-boundary-builder 2026c with oceans, shapely 2.2.0), plus the GeoNames
cities of /work/shared/data/cities15000.tsv (or the path given as the first argument):

    /tmp/venv-tz/bin/python Scripts/data/generate_timezone_fixtures.py [cities15000.tsv]

Points, with a fixed random seed:
- city: every city of cities15000.tsv;
- border: BORDER_POINTS points within 5 km of a border between two land zones: a random vertex of
  a zone's full-precision boundary moved by up to 5 km in a random direction, kept when zones of
  two land (non-Etc) zones lie within 200 m of the vertex;
- coast: COAST_POINTS such points where a land zone meets the sea (an Etc/GMT zone);
- ocean: OCEAN_POINTS random points of the globe that fall in an Etc/GMT zone.

Each line: kind, latitude, longitude, and every zone whose polygon contains the point (several in
disputed areas, sorted), by their number in the header line.
"""
import csv
import math
import random
import sys
from pathlib import Path

import numpy
import shapely
from shapely.strtree import STRtree

sys.path.insert(0, str(Path(__file__).parent))
from generate_timezones import load_zones  # noqa: E402

BORDER_POINTS = 4000
COAST_POINTS = 1000
OCEAN_POINTS = 1000
OUTPUT = Path("Tests/PrayPlacesTests/Resources/timezone-reference.tsv")


def main():
    cities_path = sys.argv[1] if len(sys.argv) > 1 else "/work/shared/data/cities15000.tsv"
    zones, version = load_zones()
    names = sorted(zones)
    geometries = [zones[n] for n in names]
    for g in geometries:
        shapely.prepare(g)
    tree = STRtree(geometries)

    def zones_at(lons, lats):
        points = shapely.points(numpy.column_stack([lons, lats]))
        hits = [[] for _ in points]
        point_index, zone_index = tree.query(points, predicate="within")
        for p, z in zip(point_index, zone_index):
            hits[p].append(int(z))
        return [sorted(h) for h in hits]

    rows = []
    with open(cities_path, newline="", encoding="utf-8") as file:
        cities = list(csv.DictReader(file, delimiter="\t"))
    lons = [float(c["longitude"]) for c in cities]
    lats = [float(c["latitude"]) for c in cities]
    for lat, lon, hit in zip(lats, lons, zones_at(lons, lats)):
        rows.append(("city", lat, lon, hit))

    rng = random.Random(11)
    land = [i for i, n in enumerate(names) if not n.startswith("Etc/")]
    vertices = []
    for i in land:
        for polygon in shapely.get_parts(geometries[i]):
            coords = numpy.asarray(polygon.exterior.coords)
            vertices.append(coords)
    all_vertices = numpy.concatenate(vertices)
    is_land = set(land)
    border, coast = [], []
    while len(border) < BORDER_POINTS or len(coast) < COAST_POINTS:
        picks = all_vertices[[rng.randrange(len(all_vertices)) for _ in range(2000)]]
        probes_lon, probes_lat = [], []
        for lon, lat in picks:
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                probes_lon.append(lon + dx * 0.0018 / max(0.05, math.cos(math.radians(lat))))
                probes_lat.append(max(-90, min(90, lat + dy * 0.0018)))
        probe_hits = zones_at(probes_lon, probes_lat)
        moved_lon, moved_lat, kinds = [], [], []
        for k, (lon, lat) in enumerate(picks):
            around = {z for hit in probe_hits[4 * k:4 * k + 4] for z in hit}
            lands = around & is_land
            if len(lands) >= 2:
                kind = "border"
            elif len(lands) == 1 and around - is_land:
                kind = "coast"
            else:
                continue
            distance = 5000 * math.sqrt(rng.random())
            bearing = rng.random() * 2 * math.pi
            dlat = distance * math.cos(bearing) / 111_320
            dlon = distance * math.sin(bearing) / (111_320 * max(0.05, math.cos(math.radians(lat))))
            moved_lon.append(max(-180, min(180, lon + dlon)))
            moved_lat.append(max(-90, min(90, lat + dlat)))
            kinds.append(kind)
        for kind, lon, lat, hit in zip(kinds, moved_lon, moved_lat, zones_at(moved_lon, moved_lat)):
            target = border if kind == "border" else coast
            limit = BORDER_POINTS if kind == "border" else COAST_POINTS
            if len(target) < limit and hit:
                target.append((kind, lat, lon, hit))
    rows += border + coast

    ocean = []
    while len(ocean) < OCEAN_POINTS:
        lons = [rng.uniform(-180, 180) for _ in range(2000)]
        lats = [math.degrees(math.asin(rng.uniform(-1, 1))) for _ in range(2000)]
        for lat, lon, hit in zip(lats, lons, zones_at(lons, lats)):
            if len(ocean) < OCEAN_POINTS and hit and all(names[z].startswith("Etc/") for z in hit):
                ocean.append(("ocean", lat, lon, hit))
    rows += ocean

    used = sorted({z for row in rows for z in row[3]})
    number = {z: i for i, z in enumerate(used)}
    with OUTPUT.open("w", encoding="utf-8") as out:
        out.write(f"# timezone-boundary-builder {version} (timezonefinder-data 3.2026.3.post1), full precision; "
                  "generated by Scripts/data/generate_timezone_fixtures.py; data ODbL\n")
        out.write("zones\t" + "\t".join(names[z] for z in used) + "\n")
        for kind, lat, lon, hit in rows:
            out.write(f"{kind}\t{lat:.5f}\t{lon:.5f}\t{','.join(str(number[z]) for z in hit)}\n")
    print(f"wrote {OUTPUT}: {len(rows)} points", file=sys.stderr)


if __name__ == "__main__":
    main()
