#!/usr/bin/env python3
"""Write Sources/CPrayPlacesData/data/time-zone-boundaries.bin: the IANA time zone of every
point on Earth, offline, from the timezone-boundary-builder polygons (ODbL, see
Sources/CPrayPlacesData/data/DATA-LICENSES.md).

Pinned inputs (install them in a throwaway virtualenv; the output is deterministic for these):

    python3.11 -m venv /tmp/venv-tz && /tmp/venv-tz/bin/pip install \
        timezonefinder==9.0.0 timezonefinder-data==3.2026.3.post1 shapely==2.2.0 numpy==2.4.6
    /tmp/venv-tz/bin/python Scripts/data/generate_timezones.py

timezonefinder-data 3.2026.3.post1 carries timezone-boundary-builder 2026c "with oceans" at full
precision (8.2 million vertices). The script:

1. reads every zone's polygons and finds the areas two zones both claim (disputed territory such as
   Xinjiang, Abkhazia or the West Bank) of at least OVERLAP_MIN_AREA square degrees. The zone with
   the larger total area is the main one there, the other an alternative: in the disputes the data
   models, that is the wider jurisdiction (Xinjiang: Asia/Shanghai before Asia/Urumqi; Abkhazia:
   Europe/Moscow before Asia/Tbilisi; Israeli settlements: Asia/Jerusalem before Asia/Hebron).
   EXTRA_ALTERNATIVES adds claims the polygons do not draw as overlaps (Crimea).
2. simplifies every zone with Douglas-Peucker at TOLERANCE degrees (0.003° ≈ 333 m at most),
3. clips to a 1° grid; a cell wholly in one label (one zone, or one overlap) is stored as that label
   alone. Any other cell holds a quadtree: a node whose polygons have more than MAX_VERTICES vertices
   is split in four, down to MAX_DEPTH levels; a leaf keeps a default label (its largest) and the
   polygons of the others, in cell units of 1/8192° (13.6 m).

Binary layout, compiled into the binary as it is (Sources/CPrayPlacesData, #embed) and read in place. `v` is an unsigned LEB128 varint, `z` a zigzag
varint, `u16`/`u32` little-endian:

    "PKTZ" u8 version (2), u16 mixedCount (so that opening the data reads no cell of the index)
    u16 zoneCount, zone names (u8 length, UTF-8)
    u16 labelCount, labels (u8 count, count × u16 zone index; main first)
    u16 × 64800 cell index, row-major from (-180°, -90°): a label, or 0x8000 | the mixed cell's number
    u32 × mixedCount node offsets (from the start of the nodes)
    nodes: 0 v label                                        (uniform)
           1 4 × u32 child offsets (SW, SE, NW, NE)         (split at the middle)
           2 v default, v entries, entries of:              (leaf; a point in no entry has the default)
             v label, v minX minY maxX maxY, v byteLength of what follows, v rings,
             rings of: v n, v x0 y0, (n - 1) × (z dx, z dy)

The format is read by Sources/PrayPlaces/TimeZoneBoundaryData.swift.
"""
import math
import struct
import sys
from pathlib import Path

import shapely
from shapely.geometry import MultiPolygon, Polygon, box
from shapely.strtree import STRtree
import timezonefinder

TOLERANCE = 0.003
OVERLAP_MIN_AREA = 1e-4
MAX_VERTICES = 96
MAX_DEPTH = 6
UNITS = 8192
EXTRA_ALTERNATIVES = {
    # Crimea: annexed by Russia in 2014 and on Moscow time since, claimed by Ukraine (tzdb, file
    # 'europe', Europe/Simferopol). The polygons draw it as Europe/Simferopol alone.
    "Europe/Simferopol": ["Europe/Kyiv"],
}
OUTPUT = Path("Sources/CPrayPlacesData/data/time-zone-boundaries.bin")


def polygons_only(geometry):
    """The polygonal part of a geometry, or None."""
    if geometry is None or geometry.is_empty:
        return None
    parts = [p for p in shapely.get_parts(geometry) if p.geom_type in ("Polygon", "MultiPolygon")]
    parts = [q for p in parts for q in shapely.get_parts(p) if q.area > 0]
    if not parts:
        return None
    return MultiPolygon(parts) if len(parts) > 1 else parts[0]


def load_zones():
    finder = timezonefinder.TimezoneFinder()
    zones = {}
    for name in sorted(finder.timezone_names):
        polygons = []
        for polygon in finder.get_geometry(tz_name=name, coords_as_pairs=False):
            shell = list(zip(*polygon[0]))
            holes = [list(zip(*hole)) for hole in polygon[1:]]
            polygons.append(Polygon(shell, holes))
        zones[name] = polygons_only(shapely.make_valid(MultiPolygon(polygons)))
    return zones, finder.data_version if hasattr(finder, "data_version") else "unknown"


def find_overlaps(zones):
    names = list(zones)
    geometries = [zones[n] for n in names]
    tree = STRtree(geometries)
    left, right = tree.query(geometries, predicate="intersects")
    overlaps = []
    for a, b in zip(left, right):
        if a >= b:
            continue
        shared = polygons_only(geometries[a].intersection(geometries[b]))
        if shared is None or shared.area < OVERLAP_MIN_AREA:
            continue
        first, second = names[a], names[b]
        main, alternative = (first, second) if zones[first].area >= zones[second].area else (second, first)
        overlaps.append(((main, alternative), shared))
    overlaps.sort(key=lambda item: item[0])
    return overlaps


def split_into_cells(label, geometry, cells):
    """Adds geometry's parts to cells[(column, row)] by halving its box down to 1°."""
    def split(g, x0, y0, x1, y1):
        if x1 - x0 == 1 and y1 - y0 == 1:
            cells.setdefault((x0 + 180, y0 + 90), []).append((label, g))
            return
        if x1 - x0 >= y1 - y0:
            m = (x0 + x1) // 2
            halves = [(x0, y0, m, y1), (m, y0, x1, y1)]
        else:
            m = (y0 + y1) // 2
            halves = [(x0, y0, x1, m), (x0, m, x1, y1)]
        for b in halves:
            part = polygons_only(g.intersection(box(*b)))
            if part is not None:
                split(part, *b)
    x0, y0, x1, y1 = geometry.bounds
    x0, y0 = max(-180, math.floor(x0)), max(-90, math.floor(y0))
    x1, y1 = min(180, max(x0 + 1, math.ceil(x1))), min(90, max(y0 + 1, math.ceil(y1)))
    split(geometry, x0, y0, x1, y1)


def partition(entries):
    """Disjoint pieces per label: earlier entries win where pieces overlap."""
    taken = None
    pieces = {}
    for label, geometry in entries:
        piece = geometry if taken is None else polygons_only(geometry.difference(taken))
        taken = geometry if taken is None else taken.union(geometry)
        if piece is None or piece.area < 1e-12:
            continue
        pieces[label] = piece if label not in pieces else polygons_only(pieces[label].union(piece))
    return pieces


def rings(geometry):
    for polygon in shapely.get_parts(geometry):
        if polygon.geom_type != "Polygon":
            continue
        yield list(polygon.exterior.coords)
        for hole in polygon.interiors:
            yield list(hole.coords)


class Writer:
    def __init__(self, labels):
        self.labels = labels
        self.nodes = bytearray()
        self.stats = {"uniform": 0, "split": 0, "leaf": 0, "vertices": 0}

    def label_index(self, label):
        if label not in self.labels:
            self.labels[label] = len(self.labels)
        return self.labels[label]

    def node(self, pieces, origin, x0, y0, size, depth):
        """Writes a node for pieces inside the square (x0, y0, size) in degrees; returns its offset."""
        offset = len(self.nodes)
        present = sorted(pieces.items(), key=lambda item: (-item[1].area, item[0]))
        if len(present) == 1:
            self.stats["uniform"] += 1
            self.nodes += struct.pack("<B", 0) + varint(self.label_index(present[0][0]))
            return offset
        default, others = present[0][0], present[1:]
        vertices = sum(shapely.get_num_coordinates(g) for _, g in others)
        if vertices > MAX_VERTICES and depth < MAX_DEPTH:
            self.stats["split"] += 1
            self.nodes += struct.pack("<B", 1)
            table = len(self.nodes)
            self.nodes += bytes(16)
            half = size / 2
            for index, (qx, qy) in enumerate([(x0, y0), (x0 + half, y0), (x0, y0 + half), (x0 + half, y0 + half)]):
                quadrant = box(qx, qy, qx + half, qy + half)
                clipped = {}
                for label, g in pieces.items():
                    part = polygons_only(g.intersection(quadrant))
                    if part is not None and part.area > 1e-12:
                        clipped[label] = part
                if not clipped:
                    clipped = {default: quadrant}
                child = self.node(clipped, origin, qx, qy, half, depth + 1)
                struct.pack_into("<I", self.nodes, table + 4 * index, child)
            return offset
        self.stats["leaf"] += 1
        body = bytearray()
        count = 0
        for label, g in others:
            encoded = []
            for ring in rings(g):
                points = []
                for x, y in ring:
                    px = min(UNITS, max(0, round((x - origin[0]) * UNITS)))
                    py = min(UNITS, max(0, round((y - origin[1]) * UNITS)))
                    if not points or points[-1] != (px, py):
                        points.append((px, py))
                if len(points) > 1 and points[0] == points[-1]:
                    points.pop()
                if len(set(points)) >= 3:
                    encoded.append(points)
            if not encoded:
                continue
            xs = [p[0] for r in encoded for p in r]
            ys = [p[1] for r in encoded for p in r]
            polygon = varint(len(encoded))
            for r in encoded:
                polygon += varint(len(r)) + varint(r[0][0]) + varint(r[0][1])
                for (ax, ay), (bx, by) in zip(r, r[1:]):
                    polygon += zigzag(bx - ax) + zigzag(by - ay)
                self.stats["vertices"] += len(r)
            body += varint(self.label_index(label))
            body += varint(min(xs)) + varint(min(ys)) + varint(max(xs)) + varint(max(ys))
            body += varint(len(polygon)) + polygon
            count += 1
        self.nodes += struct.pack("<B", 2) + varint(self.label_index(default)) + varint(count)
        self.nodes += body
        return offset


def varint(value):
    assert value >= 0
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def zigzag(value):
    return varint(value * 2 if value >= 0 else -value * 2 - 1)


def main():
    print("loading zones", file=sys.stderr)
    zones, version = load_zones()
    print("finding overlaps", file=sys.stderr)
    overlaps = find_overlaps(zones)
    for (main, alternative), shared in overlaps:
        print(f"  overlap {main} + {alternative}: {shared.area:.4f} deg²", file=sys.stderr)
    names = sorted(set(zones) | {z for alts in EXTRA_ALTERNATIVES.values() for z in alts})
    print("simplifying and clipping", file=sys.stderr)
    cells = {}
    area = {}
    for name, geometry in zones.items():
        simplified = polygons_only(shapely.make_valid(shapely.simplify(geometry, TOLERANCE, preserve_topology=True)))
        if simplified is None:
            continue
        label = (name, *EXTRA_ALTERNATIVES.get(name, []))
        area[label] = geometry.area
        split_into_cells(label, simplified, cells)
    for (main, alternative), shared in overlaps:
        simplified = polygons_only(shapely.make_valid(shapely.simplify(shared, TOLERANCE, preserve_topology=True)))
        if simplified is not None:
            # Overlaps come first in every cell: they must win over either zone's own piece.
            area[(main, alternative)] = math.inf
            split_into_cells((main, alternative), simplified, cells)
    labels = {}
    writer = Writer(labels)
    index = []
    mixed = []
    for row in range(180):
        for column in range(360):
            entries = sorted(cells.get((column, row), []), key=lambda e: (-area[e[0]], e[0]))
            pieces = partition(entries)
            origin = (column - 180, row - 90)
            if not pieces:
                lon = origin[0] + 0.5
                pieces = {(nautical_zone(lon),): box(origin[0], origin[1], origin[0] + 1, origin[1] + 1)}
            if len(pieces) == 1:
                index.append(writer.label_index(next(iter(pieces))))
            else:
                index.append(0x8000 | len(mixed))
                mixed.append(writer.node(pieces, origin, origin[0], origin[1], 1.0, 0))
        print(f"  row {row}: {len(writer.nodes)} bytes of nodes", file=sys.stderr) if row % 30 == 29 else None
    zone_index = {name: i for i, name in enumerate(names)}
    assert len(labels) < 0x8000 and len(mixed) < 0x8000
    blob = bytearray(b"PKTZ") + struct.pack("<B", 2) + struct.pack("<H", len(mixed))
    blob += struct.pack("<H", len(names))
    for name in names:
        encoded = name.encode()
        blob += struct.pack("<B", len(encoded)) + encoded
    ordered = sorted(labels.items(), key=lambda item: item[1])
    blob += struct.pack("<H", len(ordered))
    for label, _ in ordered:
        blob += struct.pack("<B", len(label)) + b"".join(struct.pack("<H", zone_index[z]) for z in label)
    blob += b"".join(struct.pack("<H", value) for value in index)
    blob += b"".join(struct.pack("<I", value) for value in mixed)
    blob += writer.nodes
    write_data(bytes(blob), version, writer.stats, len(overlaps))


def nautical_zone(longitude):
    hours = round(longitude / 15)
    return "Etc/GMT" if hours == 0 else f"Etc/GMT{-hours:+d}"


def write_data(blob, version, stats, overlaps):
    """Writes the binary file; its provenance (release, simplification) is in DATA-LICENSES.md."""
    OUTPUT.write_bytes(blob)
    print(
        f"wrote {OUTPUT}: timezone-boundary-builder {version}, {len(blob)} bytes, {stats}, "
        f"{overlaps} overlapping claims",
        file=sys.stderr,
    )

if __name__ == "__main__":
    main()
