"""Points the PyPI AlAdhan clients at a local `praykit serve` and checks what they parse against
`praykit times`, `praykit hijri` and `praykit qibla`.

`praykit serve` answers `method=N` with AlAdhan's definition of method N (its angles and intervals, no
hidden minutes, api.aladhan.com's own minutes for a few methods), not `praykit times --method`'s
preset: the expected times come from `praykit times --method custom` with AlAdhan's angles and
minutes (ALADHAN), or from the preset where it is the same definition. The Moonsighting Committee's
curves alone cannot be asked of `praykit times`: for method 15 the expectation is the server's own
JSON for the same request, so what is checked there is that the clients decode it unchanged.

Run by Scripts/aladhan-clients.sh:  python check_clients.py BASE_URL PRAYKIT_BINARY

- prayer-times-calculator (what Home Assistant's Islamic prayer times integration uses): its
  module-level API_URL is pointed at BASE_URL; it never sends timezonestring, so the zone the server
  chose is read from the same request's meta.timezone and given to `praykit times --tz`.
- aladhan-py (package "aladhan.py"): its endpoint constants are pointed at BASE_URL; it decodes
  strictly (`Meta(**meta)`, `DateType(**gregorian)`, `Timings(**timings)`), so an unknown or
  missing key fails here. Besides days and calendars by coordinates, its methods for the other routes
  are called: timings and calendars by address (resolved offline from the gazetteer), the next prayer
  by address, the holidays of a Hijri year and of a day, the special days, the months, the next
  holiday, the current Hijri year and month, and the year of a Ramadan.

Exit status 0 when every time, date and direction matches; 1 otherwise.
"""

import json
import subprocess
import sys
import urllib.parse
import urllib.request

BASE, PRAYKIT = sys.argv[1].rstrip("/"), sys.argv[2]

import prayer_times_calculator.pray_times_calculator as ptc  # noqa: E402
import aladhan  # noqa: E402
import aladhan.http  # noqa: E402

ptc.API_URL = BASE + "/v1/timings"
for name in dir(aladhan.http):
    value = getattr(aladhan.http, name)
    if name.isupper() and isinstance(value, str) and value.startswith("https://api.aladhan.com"):
        setattr(aladhan.http, name, BASE + value[len("https://api.aladhan.com"):])

KEYS = {
    "Fajr": "fajr", "Sunrise": "sunrise", "Dhuhr": "dhuhr", "Asr": "asr", "Sunset": "sunset",
    "Maghrib": "maghrib", "Isha": "isha", "Imsak": "imsak", "Midnight": "midnight",
    "Firstthird": "firstThird", "Lastthird": "lastThird",
}
failures = []
checked = {"prayer-times-calculator": 0, "aladhan-py": 0}


def praykit(*arguments):
    output = subprocess.run([PRAYKIT, *arguments], check=True, capture_output=True, text=True).stdout
    return json.loads(output)


# AlAdhan's definition of each method used below, as `praykit times` options: the angles of
# islamic-network/prayer-times Method.php and the minutes api.aladhan.com adds (applyMethodSpecificTuning);
# Umm al-Qura and Tehran are PrayKit's presets, which have no minutes of their own. JAKIM is 18°, the
# authority's rule since November 2019 (AlAdhan still has 20°).
def custom(fajr, isha, adjust=None):
    options = ["--method", "custom", "--fajr-angle", str(fajr), "--isha-angle", str(isha)]
    return options + (["--adjust", adjust] if adjust else [])


ALADHAN = {
    1: custom(18, 18), 2: custom(15, 15), 3: custom(18, 17), 4: ["--method", "umm-al-qura"],
    5: custom(19.5, 17.5), 7: ["--method", "tehran"],
    13: custom(18, 17, "sunrise=-7,dhuhr=5,asr=4,maghrib=7,sunset=7"),
    16: custom(18.2, 18.2, "dhuhr=3,maghrib=3,sunset=3"), 17: custom(18, 18), 20: custom(20, 18),
}


def server_times(lat, lon, zone, date, method, school=0, midnight=None, days=1):
    """The server's own JSON for the same days (method 15: see the module's documentation)."""
    query = {"latitude": lat, "longitude": lon, "method": method, "school": school, "timezonestring": zone}
    if midnight is not None:
        query["midnightMode"] = midnight
    year, month, day = date.split("-")
    path = f"/v1/timings/{day}-{month}-{year}" if days == 1 else f"/v1/calendar/{year}/{int(month)}"
    with urllib.request.urlopen(BASE + path + "?" + urllib.parse.urlencode(query)) as response:
        data = json.load(response)["data"]
    entries = [data] if days == 1 else data[int(day) - 1:int(day) - 1 + days]
    return [{key: entry["timings"][key].split(" ")[0] for key in KEYS} for entry in entries]


def praykit_times(lat, lon, zone, date, method, school=0, midnight=None, days=1):
    """`praykit times` with the options that mean what the API's parameters and defaults mean."""
    if method not in ALADHAN:
        return server_times(lat, lon, zone, date, method, school, midnight, days)
    arguments = ["times", "--lat", str(lat), "--lon", str(lon), "--tz", zone, "--date", date,
                 "--days", str(days), *ALADHAN[method], "--madhab", "hanafi" if school else "shafi",
                 "--high-latitude-rule", "twilight-angle", "--format", "json"]
    if midnight is not None:
        arguments += ["--night", "sunset-to-fajr" if midnight else "sunset-to-sunrise"]
    return [{key: (day[name][11:16] if day[name] else "-----") for key, name in KEYS.items()}
            for day in praykit(*arguments)["days"]]


def expect(client, label, got, want):
    checked[client] += 1
    if got != want:
        failures.append(f"{client} {label}: got {got}, praykit says {want}")


def server_zone(query):
    with urllib.request.urlopen(BASE + "/v1/timings?" + urllib.parse.urlencode(query)) as response:
        return json.load(response)["data"]["meta"]["timezone"]


# (name, latitude, longitude, zone, method id, prayer-times-calculator name, school)
PLACES = [
    ("Makkah", 21.4225, 39.8262, "Asia/Riyadh", 4, "makkah", 0),
    ("London", 51.5074, -0.1278, "Europe/London", 3, "mwl", 0),
    ("London MSC", 51.5074, -0.1278, "Europe/London", 15, "moonsighting", 0),
    ("New York", 40.7128, -74.006, "America/New_York", 2, "isna", 0),
    ("Karachi", 24.8607, 67.0011, "Asia/Karachi", 1, "karachi", 1),
    ("Cairo", 30.0444, 31.2357, "Africa/Cairo", 5, "egypt", 0),
    ("Tehran", 35.6892, 51.389, "Asia/Tehran", 7, "tehran", 0),
    ("Istanbul", 41.0082, 28.9784, "Europe/Istanbul", 13, "turkey", 0),
    ("Jakarta", -6.2088, 106.8456, "Asia/Jakarta", 20, "kemenag", 0),
    ("Kuala Lumpur", 3.139, 101.6869, "Asia/Kuala_Lumpur", 17, "jakim", 0),
    ("Dubai", 25.2048, 55.2708, "Asia/Dubai", 16, "dubai", 0),
    ("Oslo", 59.9139, 10.7522, "Europe/Oslo", 3, "mwl", 1),
]
DATES = ["2027-03-01", "2027-06-21", "2027-12-21"]

# prayer-times-calculator: one day per call, HH:MM strings (and ISO with iso8601=True).
for name, lat, lon, zone, method, method_name, school in PLACES:
    for date in DATES:
        calculator = ptc.PrayerTimesCalculator(
            latitude=lat, longitude=lon, calculation_method=method_name, date=date,
            school="hanafi" if school else "shafi")
        got = calculator.fetch_prayer_times()
        query = {"latitude": lat, "longitude": lon, "method": method, "iso8601": "false",
                 "date": "-".join(reversed(date.split("-")))}
        if school:
            query["school"] = 1
        want = praykit_times(lat, lon, server_zone(query), date, method, school)[0]
        expect("prayer-times-calculator", f"{name} {date}", {key: got[key] for key in KEYS}, want)
        expect("prayer-times-calculator", f"{name} {date} date", got["date"]["gregorian"]["date"],
               "-".join(reversed(date.split("-"))))

# prayer-times-calculator with tune: each offset moves only its own time.
tuned = ptc.PrayerTimesCalculator(
    latitude=21.4225, longitude=39.8262, calculation_method="makkah", date="2027-03-01", tune=True,
    fajr_tune=2, sunset_tune=3, isha_tune=-4).fetch_prayer_times()
plain = praykit_times(21.4225, 39.8262, server_zone({"latitude": 21.4225, "longitude": 39.8262, "method": 4,
                                                    "date": "01-03-2027"}), "2027-03-01", 4)[0]


def shifted(text, minutes):
    hours, mins = map(int, text.split(":"))
    total = (hours * 60 + mins + minutes) % 1440
    return f"{total // 60:02d}:{total % 60:02d}"


want = dict(plain, Fajr=shifted(plain["Fajr"], 2), Sunset=shifted(plain["Sunset"], 3), Isha=shifted(plain["Isha"], -4))
expect("prayer-times-calculator", "Makkah tune", {key: tuned[key] for key in KEYS}, want)

# aladhan-py: days, a month's calendar, the Hijri date and the qibla, decoded into its classes.
client = aladhan.Client()
ATTRIBUTES = {"Imsak": "imsak", "Fajr": "fajr", "Sunrise": "sunrise", "Dhuhr": "dhuhr", "Asr": "asr",
              "Sunset": "sunset", "Maghrib": "maghrib", "Isha": "isha", "Midnight": "midnight",
              "Firstthird": "first_third", "Lastthird": "last_third"}
for name, lat, lon, zone, method, _, school in PLACES:
    if method > 15:  # aladhan-py accepts methods 0-15 only
        continue
    parameters = aladhan.Parameters(method=method, school=school, timezonestring=zone)
    for date in DATES:
        day = "-".join(reversed(date.split("-")))
        timings = client.get_timings(lon, lat, date=aladhan.TimingsDateArg(day), params=parameters)
        got = {key: getattr(timings, attribute).time.strftime("%H:%M") for key, attribute in ATTRIBUTES.items()}
        # aladhan-py always sends midnightMode=0 (standard).
        want = praykit_times(lat, lon, zone, date, method, school, midnight=0)[0]
        expect("aladhan-py", f"{name} {date}", got, want)
        expect("aladhan-py", f"{name} {date} meta zone", timings.data.meta.timezone.zone, zone)
    month = client.get_calendar(lon, lat, aladhan.CalendarDateArg(2027, 3), params=parameters)
    wants = praykit_times(lat, lon, zone, "2027-03-01", method, school, midnight=0, days=31)
    for index, (timings, want) in enumerate(zip(month, wants)):
        got = {key: getattr(timings, attribute).time.strftime("%H:%M") for key, attribute in ATTRIBUTES.items()}
        expect("aladhan-py", f"{name} calendar 2027-03-{index + 1:02d}", got, want)
    expect("aladhan-py", f"{name} calendar length", len(month), 31)

hijri = client.get_hijri_from_gregorian(aladhan.TimingsDateArg("01-03-2027"))
days = praykit("hijri", "days", "--date", "2027-03-01", "--format", "json")[0]["hijri"]
expect("aladhan-py", "gToH 01-03-2027", (hijri.hijri.day, hijri.hijri.month["number"], hijri.hijri.year),
       (days["day"], days["month"], days["year"]))
for name, lat, lon, *_ in PLACES[:4]:
    qibla = client.get_qibla(lon, lat)
    direction = praykit("qibla", "--lat", str(lat), "--lon", str(lon), "--format", "json")["direction"]
    expect("aladhan-py", f"qibla {name}", round(qibla.direction, 6), round(direction, 6))

# aladhan-py's other AlAdhan routes: by address (the offline gazetteer), the next prayer, the holidays.
# An address's times are checked against `praykit times` at the coordinates and zone the server found.
makkah = aladhan.Parameters(method=4)
by_address = client.get_timings_by_address(
    "Makkah, Saudi Arabia", date=aladhan.TimingsDateArg("01-03-2027"), params=makkah)
meta = by_address.data.meta
got = {key: getattr(by_address, attribute).time.strftime("%H:%M") for key, attribute in ATTRIBUTES.items()}
want = praykit_times(meta.latitude, meta.longitude, meta.timezone.zone, "2027-03-01", 4, midnight=0)[0]
expect("aladhan-py", "timingsByAddress Makkah", got, want)
expect("aladhan-py", "timingsByAddress Makkah zone", meta.timezone.zone, "Asia/Riyadh")
expect("aladhan-py", "timingsByAddress Makkah place", (round(meta.latitude), round(meta.longitude)), (21, 40))
london = client.get_calendar_by_address(
    "London, United Kingdom", aladhan.CalendarDateArg(2027, 3), params=aladhan.Parameters(method=3))
meta = london[0].data.meta
wants = praykit_times(meta.latitude, meta.longitude, meta.timezone.zone, "2027-03-01", 3, midnight=0, days=31)
for index, (timings, want) in enumerate(zip(london, wants)):
    got = {key: getattr(timings, attribute).time.strftime("%H:%M") for key, attribute in ATTRIBUTES.items()}
    expect("aladhan-py", f"calendarByAddress London 2027-03-{index + 1:02d}", got, want)
expect("aladhan-py", "calendarByAddress London length", len(london), 31)

# The next prayer: one of the five, after now, at the time the same day's timings give it.
prayer = client.get_next_prayer_by_address("Makkah, Saudi Arabia", params=makkah)
day = prayer.time.strftime("%d-%m-%Y")
same_day = client.get_timings_by_address("Makkah, Saudi Arabia", date=aladhan.TimingsDateArg(day), params=makkah)
expect("aladhan-py", "nextPrayerByAddress name", prayer.name in ("Fajr", "Dhuhr", "Asr", "Maghrib", "Isha"), True)
expect("aladhan-py", "nextPrayerByAddress time", prayer.time.strftime("%H:%M"),
       getattr(same_day, prayer.name.lower()).time.strftime("%H:%M"))
import datetime as _datetime  # noqa: E402
now_utc = _datetime.datetime.now(_datetime.timezone.utc).replace(tzinfo=None)
expect("aladhan-py", "nextPrayerByAddress is ahead",
       prayer.time_utc is not None and _datetime.timedelta(0) < prayer.time_utc - now_utc
       <= _datetime.timedelta(hours=24), True)

# Holidays: AlAdhan's special days of 1446, their Gregorian dates as `praykit hijri days` gives them.
holidays = client.get_islamic_holidays(1446)
expect("aladhan-py", "islamicHolidaysByHijriYear 1446 count", len(holidays), 25)
for date in holidays:
    gregorian = "-".join(reversed(date.gregorian.date.split("-")))
    days = praykit("hijri", "days", "--date", gregorian, "--format", "json")[0]["hijri"]
    expect("aladhan-py", f"islamicHolidaysByHijriYear {date.hijri.date}",
           (date.hijri.day, date.hijri.month["number"], date.hijri.year), (days["day"], days["month"], days["year"]))
first_of_ramadan = [date.gregorian.date for date in holidays if date.hijri.date == "01-09-1446"]
expect("aladhan-py", "1 Ramadan 1446", first_of_ramadan, ["01-03-2025"])
expect("aladhan-py", "hijriHolidays 10/12", client.get_hijri_holidays(10, 12), ["Eid-ul-Adha", "Hajj"])
special = client.get_special_days()
expect("aladhan-py", "specialDays", (len(special), special[0]), (25, {"month": 1, "day": 10, "name": "Ashura"}))
expect("aladhan-py", "islamicMonths", client.get_islamic_months()["9"]["en"], "Ramaḍān")
upcoming = client.get_next_hijri_holiday()
expect("aladhan-py", "nextHijriHoliday has holidays", bool(upcoming.hijri.holidays), True)
today = praykit("hijri", "days", "--tz", "UTC", "--format", "json")[0]["hijri"]
expect("aladhan-py", "currentIslamicYear", int(client.get_current_islamic_year()), today["year"])
expect("aladhan-py", "currentIslamicMonth", int(client.get_current_islamic_month()), today["month"])
expect("aladhan-py", "islamicYearFromGregorianForRamadan 2027",
       int(client.get_islamic_year_from_gregorian_for_ramadan(2027)), 1448)

for client_name, count in checked.items():
    print(f"{client_name}: {count} checks")
if failures:
    print(f"{len(failures)} mismatches:")
    for failure in failures[:40]:
        print("  " + failure)
    sys.exit(1)
print("every parsed result matches praykit")
