// Unit tests of the month page's pure logic (Sources/PrayServer/Pages/month-model.js), run in Chromium
// by month_browser.py: served at /__tests__/ beside the page's own files, so the import below is the
// module `praykit serve` serves. `run()` returns one line per failure.
import * as m from '../month-model.js';

function time(text, marks = '', given = false) {
  return { time: text, marks, given };
}

function day(date, weekday, { calculated = false, iqama = {}, times = {}, hijri = null } = {}) {
  const base = {
    fajr: time(`${date}T05:10:00+01:00`), sunrise: time(`${date}T07:00:00+01:00`),
    dhuhr: time(`${date}T13:05:00+01:00`), asr: time(`${date}T17:20:00+01:00`),
    maghrib: time(`${date}T21:18:00+01:00`), isha: time(`${date}T23:59:00+01:00`),
  };
  return { date, weekday, hijri, notable: [], source: 'calculated', calculated, times: { ...base, ...times }, iqama };
}

function model(days, extra = {}) {
  return {
    version: 1, name: 'Test', year: 2027, month: 7, prayers: m.PRAYERS, iqamaPrayers: ['fajr', 'dhuhr'],
    seconds: false, mosque: null, days, notices: [], ...extra,
  };
}

export function run() {
  const failures = [];
  const expect = (condition, message) => { if (!condition) failures.push(message); };
  const same = (a, b, message) => expect(JSON.stringify(a) === JSON.stringify(b), `${message}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`);

  // The wall clock is the ISO text's own: right on a DST day, whatever the browser's zone.
  same(m.clock('2027-10-31T01:30:00+00:00', false), '01:30', 'clock');
  same(m.clock('2027-10-31T01:30:07+01:00', true), '01:30:07', 'clock with seconds');
  same(m.digits('05:12 +1', true), '٠٥:١٢ +١', 'Arabic-Indic digits');
  same(m.digits('05:12', false), '05:12', 'Latin digits');
  same(m.adjacentMonth(2027, 1, -1), '2026-12', 'previous month across a year');
  same(m.adjacentMonth(2027, 12, 1), '2028-01', 'next month across a year');
  same(m.choose('?lang=ar').arabicDigits, true, 'Arabic has Arabic-Indic digits by default');
  same(m.choose('?lang=ar&digits=latin').arabicDigits, false, 'digits=latin');
  same(m.choose('?lang=xx').lang, 'en', 'an unknown language is English');
  same(m.choose('?month=2027-7').month, null, 'a malformed month is ignored');
  same(m.choose('?month=2027-07').month, '2027-07', 'month');
  expect(!m.isReadable({ version: 2, days: [], prayers: [] }), 'another version is refused');
  expect(m.isReadable(model([])), 'a month model is read');

  // Cells: each time, then its iqama (stacked Jumu'ah on a Friday), a missing time as –.
  const friday = day('2027-07-02', 5, {
    iqama: { fajr: ['2027-07-02T05:30:00+01:00'], dhuhr: ['2027-07-02T13:00:00+01:00', '2027-07-02T13:40:00+01:00', '2027-07-02T14:20:00+01:00'] },
    times: { isha: null, fajr: time('2027-07-02T00:40:00+01:00', '~+1') },
  });
  const cells = m.cells(model([friday]), friday);
  same(cells.map((cell) => cell.iqama ? `[${cell.iqama.join(' ')}]` : cell.text + cell.marks),
    ['00:40~+1', '[05:30]', '07:00', '13:05', '[13:00 13:40 14:20]', '17:20', '21:18', '–'], 'cells');
  same(m.legend(model([friday])), { rule: false, borrowed: true, nextDay: true, previousDay: false, missing: true,
    calculatedDay: false, calculatedTime: false }, 'legend');

  // A mosque's month: a day its timetable does not give is marked, and its times too.
  const given = day('2027-07-01', 4, { times: { fajr: time('2027-07-01T03:10:00+01:00', '', true) } });
  const gap = day('2027-07-11', 7, { calculated: true });
  const mosque = model([given, gap], { mosque: 'East London Mosque', timetable: true });
  expect(!m.isCalculatedDay(mosque, given) && m.isCalculatedDay(mosque, gap), 'the gap day is marked');
  expect(!m.isCalculatedDay(model([gap]), gap), 'a place has no gaps to mark');
  same(m.cells(mosque, given).filter((cell) => cell.calculated).map((cell) => cell.prayer),
    ['sunrise', 'dhuhr', 'asr', 'maghrib', 'isha'], 'calculated times of a mosque day');
  same(m.legend(mosque).calculatedDay && m.legend(mosque).calculatedTime, true, 'the legend says so');
  // A mosque with iqama rules and no timetable marks nothing, as the screen: no day, no time.
  const rulesOnly = model([day('2027-07-01', 4, { calculated: true })], { mosque: 'East London Mosque', timetable: false });
  expect(!m.isCalculatedDay(rulesOnly, rulesOnly.days[0]), 'no timetable, no gap');
  same(m.cells(rulesOnly, rulesOnly.days[0]).filter((cell) => cell.calculated).length, 0, 'no timetable, no calculated time');
  same(m.legend(rulesOnly).calculatedDay || m.legend(rulesOnly).calculatedTime, false, 'no timetable, no legend of it');

  // Hijri: the month's name on the first row and on the 1st; the span in the subtitle.
  const hijri = (d, month, name) => ({ year: 1448, month, day: d, monthName: name, monthNameArabic: `ع${name}` });
  const first = day('2027-07-01', 4, { hijri: hijri(25, 1, 'Muharram') });
  const later = day('2027-07-07', 3, { hijri: hijri(1, 2, 'Safar') });
  const other = day('2027-07-08', 4, { hijri: hijri(2, 2, 'Safar') });
  same(m.hijriCell(first, true, 'en'), { day: '25', month: 'Muharram' }, 'first row');
  same(m.hijriCell(later, false, 'en'), { day: '1', month: 'Safar' }, 'the 1st');
  same(m.hijriCell(other, false, 'en'), { day: '2', month: null }, 'another day');
  same(m.hijriSpan(model([first, later, other]), 'en', m.WORDS.en, false), 'Muharram – Safar 1448 AH', 'span');
  same(m.title(model([]), m.WORDS.en, false), 'Prayer times · July 2027', 'title');
  const london = { location: { timeZone: 'Europe/London' } };
  same(m.zoneParts(model([first], london)), ['Europe/London (UTC+01:00)'], 'zone offset');
  // The clocks change in the month: each offset from its first day; in Arabic a part each.
  const winter = day('2027-03-27', 6, { times: { dhuhr: time('2027-03-27T12:10:00+00:00') } });
  const summer = day('2027-03-28', 7, { times: { dhuhr: time('2027-03-28T13:10:00+01:00') } });
  same(m.zoneParts(model([winter, summer], london)), ['Europe/London (UTC+00:00, UTC+01:00 from 28 March)'],
    'a month with a clock change');
  same(m.zoneParts(model([winter, summer], london), m.WORDS.ar),
    ['Europe/London (UTC+00:00)', 'من 28 مارس UTC+01:00'], 'in Arabic');
  // The high-latitude rule as the printed timetable names it.
  same(m.ruleText({ highLatitudeRule: 'recommended', highLatitudeRuleInEffect: 'seasons' }, m.WORDS.en),
    'Moonsighting Committee seasons', 'seasons');
  same(m.ruleText({ highLatitudeRule: 'recommended', highLatitudeRuleInEffect: 'seventh-of-the-night' }, m.WORDS.en),
    'recommended (seventh-of-the-night)', 'recommended at the place');
  same(m.ruleText({ highLatitudeRule: 'twilight-angle', highLatitudeRuleInEffect: 'twilight-angle' }, m.WORDS.ar),
    'زاوية الشفق', 'a rule in Arabic');
  same(m.polarText({ polarResolution: 'nearest-day' }, m.WORDS.en), 'nearest-day', 'polar resolution');
  same(m.methodSource('country:GB', m.WORDS.en), 'chosen for GB', 'method source');
  same(m.methodSource('default', m.WORDS.en), 'the default', 'default method');

  // Notices are text: whatever they hold.
  const notice = { title: '<b>x</b>', text: '<script>', priority: 'urgent', end: '2027-07-01T12:00:00+01:00' };
  same(m.notices(model([], { notices: [notice] }), Date.parse('2027-07-01T10:59:00Z')),
    [{ title: '<b>x</b>', text: '<script>', urgent: true }], 'notices');
  same(m.notices(model([], { notices: [notice] }), Date.parse('2027-07-01T11:00:00Z')), [], 'a notice over');
  return failures;
}
