// Unit tests of the screen's pure logic (Sources/PrayServer/Pages/display-model.js), run in
// Chromium by display_browser.py: served at /__tests__/ beside the page's own files, so the import
// below is the module `praykit serve` serves. `run()` returns one line per failure.
import * as m from '../display-model.js';

const MINUTE = 60000;
const phases = { beforeAdhan: 10, adhan: 3, silence: 1, prayer: 10, jumuah: 30, after: 5 };

/** A day at UTC+00:00 (or `offset`): times as HH:MM, iqama and Jumu'ah as given. */
function day(date, times, { iqama = {}, fixed = [], jumuah = [], ramadan = false, offset = '+00:00' } = {}) {
  const iso = (hhmm) => (hhmm == null ? null : `${date}T${hhmm}:00${offset}`);
  const result = { date, weekday: 1, hijri: null, ramadan, iqama: {}, fixedIqama: fixed, jumuah: jumuah.map(iso), source: 'calculated' };
  for (const [key, value] of Object.entries(times)) result[key] = iso(value);
  for (const [key, value] of Object.entries(iqama)) result.iqama[key] = iso(value);
  return result;
}

const times = { imsak: '05:00', fajr: '05:10', sunrise: '07:00', dhuhr: '12:00', asr: '15:00', sunset: '17:00', maghrib: '17:02', isha: '18:30' };
const iqama = { fajr: '05:30', dhuhr: '12:30', asr: '15:15', maghrib: '17:07', isha: '18:45' };

function model(days) {
  const first = days[0].date;
  const last = days[days.length - 1].date;
  const end = new Date(Date.parse(`${last}T00:00:00Z`) + 86400000).toISOString().slice(0, 10);
  return {
    version: 1, name: 'Test', phases, validFrom: `${first}T00:00:00+00:00`, validUntil: `${end}T00:00:00+00:00`,
    offsets: [{ from: `${first}T00:00:00+00:00`, seconds: 0 }], days,
  };
}

const at = (text) => Date.parse(text);
const failures = [];
function expect(condition, message) {
  if (!condition) failures.push(message);
}
function equal(actual, expected, message) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) failures.push(`${message}: expected ${e}, got ${a}`);
}

function phaseBoundaries() {
  const mdl = model([day('2027-03-01', times, { iqama }), day('2027-03-02', times, { iqama })]);
  const cases = [
    ['2027-03-01T05:00:00Z', 'before', 'fajr'],
    ['2027-03-01T04:59:59Z', 'idle', 'fajr'],
    ['2027-03-01T05:10:00Z', 'adhan', 'fajr'],
    ['2027-03-01T05:12:59Z', 'adhan', 'fajr'],
    ['2027-03-01T05:13:00Z', 'iqama', 'fajr'],
    ['2027-03-01T05:29:00Z', 'silence', 'fajr'],
    ['2027-03-01T05:30:00Z', 'prayer', 'fajr'],
    ['2027-03-01T05:40:00Z', 'after', 'fajr'],
    ['2027-03-01T05:45:00Z', 'idle', 'dhuhr'],
    // Maghrib's iqama 5 minutes after the adhan: adhan 3, iqama countdown 1, silence 1.
    ['2027-03-01T17:05:00Z', 'iqama', 'maghrib'],
    ['2027-03-01T17:06:00Z', 'silence', 'maghrib'],
    ['2027-03-01T17:07:00Z', 'prayer', 'maghrib'],
    // Maghrib's "after" (17:17-17:22) is whole; isha's "before" begins at 18:20.
    ['2027-03-01T17:20:00Z', 'after', 'maghrib'],
    ['2027-03-01T18:20:00Z', 'before', 'isha'],
  ];
  for (const [when, phase, prayer] of cases) {
    const found = m.phaseAt(mdl, at(when));
    equal([found.phase, found.prayer], [phase, prayer], `phase at ${when}`);
  }
  equal(m.phaseAt(mdl, at('2027-03-01T05:13:00Z')).target, at('2027-03-01T05:30:00Z'), 'the iqama countdown counts to iqama');
  equal(m.phaseAt(mdl, at('2027-03-01T05:01:00Z')).target, at('2027-03-01T05:10:00Z'), 'before counts to the adhan');
}

function afterYieldsToTheNextPrayer() {
  // Isha 20 minutes after maghrib's iqama: maghrib's prayer ends 17:17, its "after" would run to
  // 17:22 but isha's "before" begins 17:17 (isha 17:27) and takes over.
  const close = { ...times, isha: '17:27' };
  const mdl = model([day('2027-03-01', close, { iqama: { ...iqama, isha: '17:40' } })]);
  equal(m.phaseAt(mdl, at('2027-03-01T17:17:00Z')).phase, 'before', 'the next prayer\'s "before" cuts "after"');
  equal(m.phaseAt(mdl, at('2027-03-01T17:16:59Z')).phase, 'prayer', 'the prayer itself is never cut');
}

function aLateIqamaIsNotCutByTheNextPrayersBefore() {
  // London in December with a fixed dhuhr iqama (docs/display.md's example): dhuhr 11:57, iqama
  // 13:30; asr 13:35. Asr's "before" (13:25) must not cut dhuhr's countdown, silence or prayer:
  // the prayer runs 13:30-13:40, and asr's phases come after it.
  const winter = { ...times, dhuhr: '11:57', asr: '13:35', sunset: '15:53', maghrib: '15:55', isha: '17:40' };
  const mdl = model([day('2026-12-07', winter, { iqama: { ...iqama, dhuhr: '13:30', asr: '13:50' } })]);
  const cases = [
    ['2026-12-07T13:24:59Z', 'iqama', 'dhuhr'],
    ['2026-12-07T13:28:59Z', 'iqama', 'dhuhr'],
    ['2026-12-07T13:29:00Z', 'silence', 'dhuhr'],
    ['2026-12-07T13:30:00Z', 'prayer', 'dhuhr'],
    ['2026-12-07T13:39:59Z', 'prayer', 'dhuhr'],
    ['2026-12-07T13:40:00Z', 'iqama', 'asr'],
    ['2026-12-07T13:49:00Z', 'silence', 'asr'],
    ['2026-12-07T13:50:00Z', 'prayer', 'asr'],
  ];
  for (const [when, phase, prayer] of cases) {
    const found = m.phaseAt(mdl, at(when));
    equal([found.phase, found.prayer], [phase, prayer], `late iqama: phase at ${when}`);
  }
}

function withoutIqama() {
  const mdl = model([day('2027-03-01', times), day('2027-03-02', times)]);
  equal(m.phaseAt(mdl, at('2027-03-01T05:13:00Z')).phase, 'after', 'without iqama the adhan is followed by "after"');
  equal(m.phaseAt(mdl, at('2027-03-01T05:18:00Z')).phase, 'idle', 'then the day');
  const rows = m.rows(mdl, at('2027-03-01T05:13:00Z'));
  equal(rows[0].tomorrow, true, 'without iqama, the fajr row turns once the adhan has been shown');
  equal(rows[0].iqama, [], 'no iqama is shown');
}

function jumuah() {
  const friday = day('2027-03-05', times, { iqama, jumuah: ['12:30', '13:15', '14:00'] });
  const mdl = model([friday, day('2027-03-06', times, { iqama })]);
  const cases = [
    ['2027-03-05T12:03:00Z', 'iqama', 'jumuah'],
    ['2027-03-05T12:30:00Z', 'prayer', 'jumuah'],
    ['2027-03-05T13:00:00Z', 'iqama', 'jumuah'],
    ['2027-03-05T13:14:00Z', 'silence', 'jumuah'],
    ['2027-03-05T13:45:00Z', 'iqama', 'jumuah'],
    ['2027-03-05T13:59:00Z', 'silence', 'jumuah'],
    ['2027-03-05T14:00:00Z', 'prayer', 'jumuah'],
    ['2027-03-05T14:30:00Z', 'after', 'jumuah'],
  ];
  for (const [when, phase, prayer] of cases) {
    const found = m.phaseAt(mdl, at(when));
    equal([found.phase, found.prayer], [phase, prayer], `Friday phase at ${when}`);
  }
  equal(m.phaseAt(mdl, at('2027-03-05T13:00:00Z')).target, at('2027-03-05T13:15:00Z'), 'counts to the second Jumu\'ah');
  const before = m.rows(mdl, at('2027-03-05T14:29:59Z'))[2];
  equal([before.name, before.iqama, before.tomorrow], ['jumuah', ['12:30', '13:15', '14:00'], false], 'the Friday row');
  const after = m.rows(mdl, at('2027-03-05T14:30:00Z'))[2];
  equal([after.name, after.iqama, after.tomorrow], ['dhuhr', ['12:30'], true], 'Saturday\'s dhuhr after the last Jumu\'ah');
}

function tomorrowRows() {
  const second = { ...times, fajr: '05:08' };
  const mdl = model([day('2027-03-01', times, { iqama }), day('2027-03-02', second, { iqama })]);
  const rows = (when) => m.rows(mdl, at(when)).map((row) => [row.row, row.adhan, row.tomorrow]);
  equal(rows('2027-03-01T05:39:59Z')[0], ['fajr', '05:10', false], 'fajr until its prayer is over');
  equal(rows('2027-03-01T05:40:00Z')[0], ['fajr', '05:08', true], "then tomorrow's fajr");
  equal(rows('2027-03-01T07:00:00Z')[1], ['sunrise', '07:00', true], 'sunrise turns at sunrise');
  equal(rows('2027-03-01T18:55:00Z').map((row) => row[2]), [true, true, true, true, true, true], 'after isha, all of tomorrow');
}

function iqamaChanges() {
  const today = day('2027-03-01', times, { iqama, fixed: ['asr'] });
  const tomorrow = day('2027-03-02', times, { iqama: { ...iqama, asr: '15:30', fajr: '05:31' }, fixed: ['asr'] });
  const mdl = model([today, tomorrow]);
  equal(m.iqamaChanges(mdl, at('2027-03-01T10:00:00Z')), [{ prayer: 'asr', time: '15:30' }], 'a fixed iqama that moves is announced; a +minutes one is not');
  equal(m.iqamaChanges(mdl, at('2027-03-02T10:00:00Z')), [], 'nothing to announce on the last day');
}

function ramadanCountdowns() {
  const mdl = model([day('2027-02-10', times, { ramadan: true }), day('2027-02-11', times, { ramadan: true })]);
  equal(m.ramadan(mdl, at('2027-02-10T04:00:00Z')).kind, 'suhoor', 'suhoor before fajr');
  equal(m.ramadan(mdl, at('2027-02-10T04:00:00Z')).imsak, '05:00', 'with imsak');
  equal(m.ramadan(mdl, at('2027-02-10T12:00:00Z')).kind, 'iftar', 'iftar after fajr');
  equal(m.ramadan(mdl, at('2027-02-10T12:00:00Z')).target, at('2027-02-10T17:02:00Z'), 'iftar at maghrib');
  equal(m.ramadan(mdl, at('2027-02-10T20:00:00Z')).target, at('2027-02-11T05:10:00Z'), "after iftar, tomorrow's suhoor");
  const plain = model([day('2027-03-01', times), day('2027-03-02', times)]);
  equal(m.ramadan(plain, at('2027-03-01T12:00:00Z')), null, 'nothing outside Ramadan');
}

function dstOffsets() {
  // Europe/London, 31 October 2027: 02:00 BST becomes 01:00 GMT at 01:00 UTC.
  const mdl = model([day('2027-10-30', times, { offset: '+01:00' }), day('2027-10-31', times)]);
  mdl.validFrom = '2027-10-30T00:00:00+01:00';
  mdl.offsets = [{ from: '2027-10-30T00:00:00+01:00', seconds: 3600 }, { from: '2027-10-31T01:00:00+00:00', seconds: 0 }];
  const clock = (when) => { const c = m.localClock(mdl, at(when)); return [c.date, c.hours, c.minutes, c.seconds]; };
  equal(clock('2027-10-31T00:59:59Z'), ['2027-10-31', 1, 59, 59], 'the last second of summer time');
  equal(clock('2027-10-31T01:00:00Z'), ['2027-10-31', 1, 0, 0], 'the first of winter time: 01:00 again');
  equal(clock('2027-10-30T23:30:00Z'), ['2027-10-31', 0, 30, 0], 'after midnight BST it is the 31st');
  equal(m.todayIndex(mdl, at('2027-10-30T23:30:00Z')), 1, "the 31st's row");
  equal(m.wallTime(mdl.days[1].fajr), '05:10', 'times keep their own offset');
}

function trustAndText() {
  const mdl = model([day('2027-03-01', times), day('2027-03-02', times)]);
  equal(m.trust(mdl, at('2027-03-02T23:59:59Z'), 0).stale, false, 'fresh through the last day');
  equal(m.trust(mdl, at('2027-03-03T00:00:00Z'), 0).stale, true, 'stale after it');
  equal(m.trust(mdl, at('2027-03-01T12:00:00Z'), 61000).clockWrong, true, 'a clock 61 s off is wrong');
  equal(m.trust(mdl, at('2027-03-01T12:00:00Z'), -60000).clockWrong, false, 'a minute is tolerated');
  equal(m.trust(mdl, at('2027-03-01T12:00:00Z'), null).clockWrong, false, 'unknown is not wrong');
  equal(m.countdown(3725000), '1:02:05', 'hours');
  equal(m.countdown(61000), '1:01', 'minutes');
  equal(m.countdown(400), '0:01', 'rounded up to the second');
  equal(m.countdown(-5), '0:00', 'never negative');
  equal(m.digits('12:05', true), '١٢:٠٥', 'Arabic-Indic digits');
  equal(m.digits('12:05', false), '12:05', 'Western digits');
  equal([0, 1, 2, 3, 4, 10].map((n) => m.retryDelay(n)), [300000, 5000, 10000, 20000, 40000, 300000], 'backoff');
  expect(!m.isReadable({ version: 2, days: [] }), 'another version is refused');
  expect(m.isReadable(mdl), 'this version reads');
}

function phasesSwitchedOff() {
  // Each phase the mosque switched off is left out; the rest keep their times, and the time of a
  // phase switched off is the plain day (or the phase before it goes on).
  const days = [day('2027-03-01', times, { iqama }), day('2027-03-02', times, { iqama })];
  const off = (changes) => m.phaseAt.bind(null, { ...model(days), phases: { ...phases, ...changes } });
  equal(off({ beforeAdhan: 0 })(at('2027-03-01T05:05:00Z')).phase, 'idle', 'no "before the adhan"');
  equal(off({ adhan: 0 })(at('2027-03-01T05:10:00Z')).phase, 'iqama', 'no adhan: the countdown to iqama at once');
  equal(off({ iqama: false })(at('2027-03-01T05:20:00Z')).phase, 'idle', 'no countdown to iqama');
  equal(off({ iqama: false })(at('2027-03-01T05:29:00Z')).phase, 'silence', '... but silence still comes');
  equal(off({ silence: 0 })(at('2027-03-01T05:29:30Z')).phase, 'iqama', 'no silence: the countdown runs to iqama');
  equal(off({ prayer: 0 })(at('2027-03-01T05:30:00Z')).phase, 'after', 'no prayer phase: "after" at iqama');
  equal(off({ after: 0 })(at('2027-03-01T05:40:00Z')).phase, 'idle', 'no "after"');
  const none = off({ beforeAdhan: 0, adhan: 0, iqama: false, silence: 0, prayer: 0, jumuah: 0, after: 0 });
  for (const when of ['2027-03-01T05:05:00Z', '2027-03-01T05:10:00Z', '2027-03-01T05:29:30Z', '2027-03-01T05:30:00Z']) {
    equal(none(at(when)).phase, 'idle', `every phase off: the day at ${when}`);
  }
  const rows = m.rows({ ...model(days), phases: { ...phases, prayer: 0 } }, at('2027-03-01T05:30:00Z'));
  equal(rows[0].tomorrow, true, 'with no prayer phase, the row turns at iqama');
}

function eidDay() {
  // Eid al-Fitr with prayers at 08:00 and 09:30, after sunrise (07:00).
  const eid = day('2027-03-10', times, { iqama });
  eid.eid = { kind: 'fitr', prayers: ['2027-03-10T08:00:00+00:00', '2027-03-10T09:30:00+00:00'] };
  const mdl = model([day('2027-03-09', times, { iqama }), eid, day('2027-03-11', times, { iqama })]);
  const cases = [
    ['2027-03-10T06:59:00Z', 'idle', 'eid-fitr'],
    ['2027-03-10T07:00:00Z', 'iqama', 'eid-fitr'],
    ['2027-03-10T07:59:00Z', 'silence', 'eid-fitr'],
    ['2027-03-10T08:00:00Z', 'prayer', 'eid-fitr'],
    ['2027-03-10T08:30:00Z', 'iqama', 'eid-fitr'],
    ['2027-03-10T09:30:00Z', 'prayer', 'eid-fitr'],
    ['2027-03-10T10:00:00Z', 'after', 'eid-fitr'],
    ['2027-03-10T10:05:00Z', 'idle', 'dhuhr'],
  ];
  for (const [when, phase, prayer] of cases) {
    const found = m.phaseAt(mdl, at(when));
    equal([found.phase, found.prayer], [phase, prayer], `Eid phase at ${when}`);
  }
  equal(m.phaseAt(mdl, at('2027-03-10T07:00:00Z')).target, at('2027-03-10T08:00:00Z'), 'counts down to the first Eid prayer');
  equal(m.phaseAt(mdl, at('2027-03-10T06:59:00Z')).target, at('2027-03-10T08:00:00Z'), 'the next prayer is Eid');
  const next = m.nextPrayer(mdl, at('2027-03-10T06:00:00Z'));
  equal([next.key, next.prayer, next.text], ['eid', 'eid-fitr', '2027-03-10T08:00:00+00:00'], 'next: the Eid prayer');
  const eve = m.rows(mdl, at('2027-03-09T12:00:00Z'));
  equal([eve[2].row, eve[2].tomorrow, eve[2].iqama], ['eid', true, ['08:00', '09:30']], 'the day before: tomorrow\'s Eid row');
  equal(eve.length, 7, 'seven rows on the eve');
  const morning = m.rows(mdl, at('2027-03-10T09:59:59Z'));
  equal([morning[2].row, morning[2].name, morning[2].tomorrow], ['eid', 'eid-fitr', false], 'the Eid row on its day');
  equal(m.rows(mdl, at('2027-03-10T10:00:00Z')).length, 6, 'gone once the last Eid prayer is over');
}

function notices() {
  const mdl = model([day('2027-03-01', times), day('2027-03-02', times)]);
  const notice = (id, priority, start, end) => ({ id, title: id, text: '', start, end, priority });
  mdl.notices = [
    notice('funeral', 'urgent', '2027-03-01T12:00:00+00:00', '2027-03-01T13:00:00+00:00'),
    notice('class', 'high', '2027-03-01T00:00:00+00:00', '2027-03-02T00:00:00+00:00'),
    notice('fair', 'normal', '2027-03-01T00:00:00+00:00', '2027-03-03T00:00:00+00:00'),
    notice('later', 'normal', '2027-03-02T09:00:00+00:00', '2027-03-03T00:00:00+00:00'),
  ];
  const ids = (when) => m.currentNotices(mdl, at(when)).map((n) => n.id);
  equal(ids('2027-03-01T10:00:00Z'), ['class', 'fair'], 'the notices on now, high before normal');
  equal(ids('2027-03-01T12:30:00Z'), ['funeral'], 'an urgent notice alone while it is on');
  equal(ids('2027-03-01T13:00:00Z'), ['class', 'fair'], 'and not after its end');
  equal(ids('2027-03-02T10:00:00Z'), ['fair', 'later'], 'a notice from its start');
  const shown = [0, 11, 12, 24, 36].map((s) => m.noticeAt(mdl, at('2027-03-01T10:00:00Z') + s * 1000));
  const first = shown[0].index;
  equal(shown.map((n) => n.index), [first, first, 1 - first, first, 1 - first], 'they take turns, 12 seconds each');
  equal(shown.map((n) => [n.notice.id, n.count]).slice(0, 3).map((pair) => pair[1]), [2, 2, 2], 'of two');
  equal(shown.map((n) => n.notice.id === ['class', 'fair'][n.index]), [true, true, true, true, true], 'in their order');
  equal(m.noticeAt(model([day('2027-03-01', times)]), at('2027-03-01T10:00:00Z')), null, 'a model without notices');
}

function hijriAtMaghrib() {
  const first = day('2027-03-01', times);
  first.hijri = { day: 22, month: 9 };
  const second = day('2027-03-02', times);
  second.hijri = { day: 23, month: 9 };
  const mdl = model([first, second]);
  equal(m.hijriAt(mdl, at('2027-03-01T17:02:00Z')).day, 22, 'at midnight by default');
  mdl.hijriAtMaghrib = true;
  equal(m.hijriAt(mdl, at('2027-03-01T17:01:59Z')).day, 22, 'before maghrib');
  equal(m.hijriAt(mdl, at('2027-03-01T17:02:00Z')).day, 23, 'from maghrib, the next day');
  equal(m.hijriAt(mdl, at('2027-03-02T18:00:00Z')).day, 23, 'the last day keeps its own');
}

function calculatedRows() {
  const gap = day('2027-03-02', times, { iqama });
  gap.calculated = ['fajr', 'sunrise', 'dhuhr', 'asr', 'maghrib', 'isha'];
  const partial = day('2027-03-01', times, { iqama });
  partial.calculated = ['asr'];
  const mdl = model([partial, gap]);
  equal(m.rows(mdl, at('2027-03-01T04:00:00Z')).map((row) => row.calculated), [false, false, false, true, false, false],
    'a time the timetable left empty (before fajr: every row is today\'s)');
  equal(m.rows(mdl, at('2027-03-02T01:00:00Z')).every((row) => row.calculated), true, 'a day it does not have');
}

/** Runs every test; returns the failures, one line each. */
export function run() {
  for (const test of [phaseBoundaries, afterYieldsToTheNextPrayer, aLateIqamaIsNotCutByTheNextPrayersBefore, withoutIqama, jumuah, tomorrowRows, iqamaChanges,
    ramadanCountdowns, dstOffsets, trustAndText, phasesSwitchedOff, eidDay, notices, hijriAtMaghrib, calculatedRows]) {
    try {
      test();
    } catch (error) {
      failures.push(`${test.name} threw ${error}`);
    }
  }
  return failures;
}
