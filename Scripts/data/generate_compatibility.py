#!/usr/bin/env python3
"""Writes Sources/CPrayPlacesData/data/compatibility.txt: the full compatibility decomposition
(NFKD) of every Unicode scalar whose NFKD is not its canonical one (NFD): a compatibility mapping of
its own or inside its canonical decomposition (U+0385 → U+00A8 U+0301 → space, U+0308, U+0301), from
Python's unicodedata.

The gazetteer's folding (PlaceSearchIndex.fold) applies these, then the standard library's canonical
decomposition: NFKD, as Foundation's decomposedStringWithCompatibilityMapping gave and as
generate_places.py folds city names, without full Foundation (FoundationEssentials has no
normalization). Run it again when the Unicode version changes:

    python3 Scripts/data/generate_compatibility.py
"""

import pathlib
import sys
import unicodedata

OUT = pathlib.Path(__file__).resolve().parents[2] / "Sources/CPrayPlacesData/data/compatibility.txt"


def main() -> int:
    lines = []
    for value in range(0x110000):
        if 0xD800 <= value <= 0xDFFF:
            continue
        char = chr(value)
        folded = unicodedata.normalize("NFKD", char)
        if folded == unicodedata.normalize("NFD", char):
            continue
        lines.append(" ".join(f"{ord(c):X}" for c in char + folded))
    # One line a scalar: the scalar, then its full NFKD, in hexadecimal, separated by spaces.
    OUT.write_text("\n".join(lines) + "\n", encoding="ascii")
    print(f"{len(lines)} decompositions → {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
