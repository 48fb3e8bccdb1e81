#!/usr/bin/env python3
"""Writes Sources/CPrayPlacesData/data/nearest.bin: a compact index of the gazetteer's cities for
nearest-city look-ups, read in place (never decoded or copied), so that a header's "near Makkah, SA"
neither parses the whole gazetteer (about 20 ms) nor builds anything at load: it reads the cells of
the grid around the point, the positions of the cities in them, and the lines of the cities it
returns.

Input: Sources/CPrayPlacesData/data/gazetteer.txt (generate_places.py writes it). Run this after it,
from the repository root: python3 Scripts/data/generate_nearest.py. No dependencies.

Layout (little-endian):
  - "PKNI", version 2 (UInt8), three zero bytes;
  - the gazetteer text's length in UTF-8 bytes (UInt32, checked at load: an index of another text
    is not used) and the number of cities N (UInt32);
  - per city, in the text's order: latitude and longitude in units of 1e-4 degree (Int32, Int32) and
    the byte offset of its line in the text (UInt32);
  - the 1° grid, row-major from (-90°, -180°), 180 × 360 cells: where each cell's members start
    (UInt32, 64,801 of them: the last is N), then the members, cities by number (UInt32, N of them),
    each cell's in the text's order. A position's cell is row floor(latitude + 90) and column
    floor(longitude + 180), both clamped to the grid, with latitude and longitude the Int32 units
    divided by 10,000 in double precision (as PlaceNearestIndex computes them).
Deterministic: the same gazetteer always gives the same bytes.
"""
import math
import struct
from pathlib import Path

SOURCE = Path("Sources/CPrayPlacesData/data/gazetteer.txt")
OUTPUT = Path("Sources/CPrayPlacesData/data/nearest.bin")
ROWS, COLUMNS = 180, 360


def cell(latitude_units, longitude_units):
    row = min(ROWS - 1, max(0, math.floor(latitude_units / 10_000 + 90)))
    column = min(COLUMNS - 1, max(0, math.floor(longitude_units / 10_000 + 180)))
    return row * COLUMNS + column


def main():
    text = SOURCE.read_bytes()
    cities = []
    offset = 0
    section = None
    for line in text.split(b"\n"):
        if line.startswith(b"#"):
            section = line
        elif section == b"#cities" and line:
            fields = line.split(b"\t")
            latitude, longitude = float(fields[5]), float(fields[6])
            cities.append((round(latitude * 10_000), round(longitude * 10_000), offset))
        offset += len(line) + 1
    blob = bytearray(b"PKNI" + bytes([2, 0, 0, 0]))
    blob += struct.pack("<II", len(text), len(cities))
    for latitude, longitude, line_offset in cities:
        blob += struct.pack("<iiI", latitude, longitude, line_offset)
    members = [[] for _ in range(ROWS * COLUMNS)]
    for number, (latitude, longitude, _) in enumerate(cities):
        members[cell(latitude, longitude)].append(number)
    start = 0
    for cell_members in members:
        blob += struct.pack("<I", start)
        start += len(cell_members)
    blob += struct.pack("<I", start)
    for cell_members in members:
        blob += struct.pack(f"<{len(cell_members)}I", *cell_members)
    OUTPUT.write_bytes(bytes(blob))
    print(f"{OUTPUT}: {len(cities)} cities, {len(blob)} bytes")


if __name__ == "__main__":
    main()
