// The screen's logic: small pure functions of the model (/display.json, see DisplayModel.swift) and
// an instant (milliseconds since 1970, from the page's clock). Nothing here reads the clock, the DOM
// or the network, so each function is tested directly (Scripts/browser/display-model-tests.js).

/** The rows of the screen, in the order the times happen. */
export const ROWS = ['fajr', 'sunrise', 'dhuhr', 'asr', 'maghrib', 'isha'];
/** The five prayers. */
export const PRAYERS = ['fajr', 'dhuhr', 'asr', 'maghrib', 'isha'];

const MINUTE = 60000;

/** The instant of an ISO 8601 time of the model, in milliseconds; null for null. */
export function instant(text) {
  return text == null ? null : Date.parse(text);
}

/** The wall-clock time `05:20` of an ISO 8601 time of the model (its own offset: right on a DST day). */
export function wallTime(text) {
  return text == null ? null : text.slice(11, 16);
}

/** The zone's offset from UTC at `now`, in seconds, from the model's offset periods. */
export function offsetAt(model, now) {
  let seconds = model.offsets.length > 0 ? model.offsets[0].seconds : 0;
  for (const period of model.offsets) {
    if (instant(period.from) <= now) seconds = period.seconds;
  }
  return seconds;
}

/** The local clock at `now` in the model's zone: `{date: 'YYYY-MM-DD', hours, minutes, seconds}`. */
export function localClock(model, now) {
  const local = new Date(now + offsetAt(model, now) * 1000);
  return {
    date: local.toISOString().slice(0, 10),
    hours: local.getUTCHours(),
    minutes: local.getUTCMinutes(),
    seconds: local.getUTCSeconds(),
  };
}

/** The index of the model's day that is today at `now`, or -1 when the model does not have it. */
export function todayIndex(model, now) {
  const date = localClock(model, now).date;
  return model.days.findIndex((day) => day.date === date);
}

/** The congregations of a prayer on a day: the Jumu'ah times for dhuhr on a Friday, else its iqama. */
export function congregations(day, prayer) {
  if (prayer === 'dhuhr' && day.jumuah.length > 0) return day.jumuah.map(instant);
  const iqama = day.iqama[prayer];
  return iqama == null ? [] : [instant(iqama)];
}

/** The name of a prayer on a day: `jumuah` for dhuhr on a Friday with Jumu'ah times. */
export function prayerName(day, prayer) {
  return prayer === 'dhuhr' && day.jumuah.length > 0 ? 'jumuah' : prayer;
}

/**
 * The phases around one prayer of a day, in order, before they are fitted between the other
 * prayers': `{phase, prayer, start, end, target}` where `target` is the instant a countdown counts
 * to (or, for the prayer itself, counts from). A phase of 0 minutes is left out.
 */
export function prayerPhases(model, day, prayer) {
  const adhan = instant(day[prayer]);
  if (adhan == null) return [];
  const p = model.phases;
  const name = prayerName(day, prayer);
  const times = congregations(day, prayer);
  const list = [];
  const add = (phase, start, end, target) => {
    if (end > start) list.push({ phase, prayer: name, start, end, target });
  };
  add('before', adhan - p.beforeAdhan * MINUTE, adhan, adhan);
  add('adhan', adhan, adhan + p.adhan * MINUTE, times.length > 0 ? times[0] : adhan);
  let previous = adhan + p.adhan * MINUTE;
  for (const time of times) {
    if (p.iqama !== false) add('iqama', previous, time - p.silence * MINUTE, time);
    add('silence', Math.max(previous, time - p.silence * MINUTE), time, time);
    const length = (name === 'jumuah' ? p.jumuah : p.prayer) * MINUTE;
    add('prayer', time, time + length, time);
    previous = Math.max(previous, time + length);
  }
  add('after', previous, previous + p.after * MINUTE, previous);
  return list;
}

/** How long before an Eid prayer its countdown shows, in minutes (before that, it is the next prayer). */
export const EID_COUNTDOWN = 60;

/** The name of a day's Eid (`eid-fitr`, `eid-adha`), or null on a day without Eid prayers. */
export function eidName(day) {
  return day.eid == null || day.eid.prayers.length === 0 ? null : `eid-${day.eid.kind}`;
}

/**
 * The phases around a day's Eid prayers (they have no adhan): the countdown to each (the last
 * `EID_COUNTDOWN` minutes, as the countdown to iqama), silence your phones, the prayer and its
 * khutbah (as long as Jumu'ah), and after it.
 */
export function eidPhases(model, day) {
  const name = eidName(day);
  if (name == null) return [];
  const p = model.phases;
  const list = [];
  const add = (phase, start, end, target) => {
    if (end > start) list.push({ phase, prayer: name, start, end, target });
  };
  let previous = null;
  for (const time of day.eid.prayers.map(instant)) {
    const from = previous == null ? time - EID_COUNTDOWN * MINUTE : Math.max(previous, time - EID_COUNTDOWN * MINUTE);
    if (p.iqama !== false) add('iqama', from, time - p.silence * MINUTE, time);
    add('silence', Math.max(from, time - p.silence * MINUTE), time, time);
    add('prayer', time, time + p.jumuah * MINUTE, time);
    previous = Math.max(previous ?? time, time + p.jumuah * MINUTE);
  }
  add('after', previous, previous + p.after * MINUTE, previous);
  return list;
}

/**
 * Every phase of the model's days, fitted in time order where two prayers' phases meet: the time
 * after a prayer ends where the next prayer's phases begin; otherwise a phase that would begin
 * before the one before it has ended begins when that one ends (a prayer is never cut by the next
 * prayer's "before the adhan", nor by its adhan: a late iqama's countdown, silence and prayer run
 * whole, and the next prayer's phases follow them). A phase left with no time is dropped.
 */
export function timeline(model) {
  const all = [];
  for (const day of model.days) {
    // Each prayer's phases together, in order, the prayers (and an Eid prayer) by when theirs begin:
    // sorting the phases themselves put the next prayer's "before" inside a late iqama's.
    const blocks = [eidPhases(model, day), ...PRAYERS.map((prayer) => prayerPhases(model, day, prayer))]
      .filter((block) => block.length > 0);
    blocks.sort((a, b) => a[0].start - b[0].start);
    for (const block of blocks) all.push(...block);
  }
  const fitted = [];
  for (const phase of all) {
    let start = phase.start;
    let last = fitted[fitted.length - 1];
    if (last != null && last.end > start && last.phase === 'after') {
      last.end = start;
      if (last.end <= last.start) fitted.pop();
      last = fitted[fitted.length - 1];
    }
    if (last != null && last.end > start) start = last.end;
    if (phase.end > start) fitted.push({ ...phase, start });
  }
  return fitted;
}

/**
 * The next prayer after `now`: one of the five whose adhan is after it, or an Eid prayer:
 * `{prayer, key, date, at, text}` (`key` is `eid` for an Eid prayer; `text` its ISO 8601 time), or null.
 */
export function nextPrayer(model, now) {
  for (const day of model.days) {
    const candidates = [];
    for (const prayer of PRAYERS) {
      const at = instant(day[prayer]);
      if (at != null) candidates.push({ prayer: prayerName(day, prayer), key: prayer, date: day.date, at, text: day[prayer] });
    }
    const eid = eidName(day);
    if (eid != null) {
      for (const time of day.eid.prayers) {
        candidates.push({ prayer: eid, key: 'eid', date: day.date, at: instant(time), text: time });
      }
    }
    candidates.sort((a, b) => a.at - b.at);
    const next = candidates.find((candidate) => candidate.at > now);
    if (next) return next;
  }
  return null;
}

/**
 * The phase at `now`: one of the timeline's (`before`, `adhan`, `iqama`, `silence`, `prayer`,
 * `after`), else `idle` with the next prayer as its target; `{phase, prayer, target, end}`.
 */
export function phaseAt(model, now, phases = timeline(model)) {
  const found = phases.find((phase) => phase.start <= now && now < phase.end);
  if (found) return found;
  const next = nextPrayer(model, now);
  return { phase: 'idle', prayer: next ? next.prayer : null, target: next ? next.at : null, end: null };
}

/**
 * When a row turns to tomorrow's times: for a prayer, once its last congregation's prayer is over
 * (or, without one, once its adhan has been shown); for sunrise, at sunrise.
 */
export function rowEnds(model, day, row) {
  const at = instant(day[row]);
  if (at == null) return null;
  if (row === 'sunrise') return at;
  const times = congregations(day, row);
  const name = prayerName(day, row);
  if (times.length === 0) return at + model.phases.adhan * MINUTE;
  const length = (name === 'jumuah' ? model.phases.jumuah : model.phases.prayer) * MINUTE;
  return Math.max(...times) + length;
}

/**
 * The rows at `now`: `{row, name, date, adhan, iqama: ['13:15', …], tomorrow, calculated}` with
 * wall-clock times; a row whose prayer is over shows tomorrow's times (`tomorrow: true`);
 * `calculated` when the mosque's timetable does not give that time (it is calculated here). On an
 * Eid day, and the day before, an Eid row follows sunrise (its prayers, no adhan) until its last
 * prayer is over.
 */
export function rows(model, now) {
  let index = todayIndex(model, now);
  if (index < 0) index = now < instant(model.validFrom) ? 0 : model.days.length - 1;
  const list = ROWS.map((row) => {
    let day = model.days[index];
    const ends = rowEnds(model, day, row);
    const tomorrow = ends != null && now >= ends && index + 1 < model.days.length;
    if (tomorrow) day = model.days[index + 1];
    const iqama = row === 'sunrise' ? [] : congregationTexts(day, row);
    const calculated = (day.calculated ?? []).includes(row);
    return { row, name: prayerName(day, row), date: day.date, adhan: wallTime(day[row]), iqama, tomorrow, calculated };
  });
  const eid = eidRow(model, now, index);
  if (eid != null) list.splice(2, 0, eid);
  return list;
}

/** The Eid row at `now` (today's until its last prayer is over, else tomorrow's), or null. */
function eidRow(model, now, index) {
  const today = model.days[index];
  const tomorrow = model.days[index + 1];
  const row = (day, isTomorrow) => ({
    row: 'eid', name: eidName(day), date: day.date, adhan: null, iqama: day.eid.prayers.map(wallTime),
    tomorrow: isTomorrow, calculated: false,
  });
  if (today != null && eidName(today) != null) {
    const last = Math.max(...today.eid.prayers.map(instant));
    if (now < last + model.phases.jumuah * MINUTE) return row(today, false);
  }
  if (tomorrow != null && eidName(tomorrow) != null) return row(tomorrow, true);
  return null;
}

function congregationTexts(day, prayer) {
  if (prayer === 'dhuhr' && day.jumuah.length > 0) return day.jumuah.map(wallTime);
  return day.iqama[prayer] == null ? [] : [wallTime(day.iqama[prayer])];
}

/**
 * The iqama times that change tomorrow, announced today: `[{prayer, time: '16:15'}]` for each
 * prayer whose iqama tomorrow is a clock time (the mosque's, or a fixed rule) other than today's.
 * Iqama that follow the adhan by minutes move every day and are not announced; nor is dhuhr's
 * when either day is a Friday with Jumu'ah.
 */
export function iqamaChanges(model, now) {
  const index = todayIndex(model, now);
  if (index < 0 || index + 1 >= model.days.length) return [];
  const today = model.days[index];
  const tomorrow = model.days[index + 1];
  const changes = [];
  for (const prayer of PRAYERS) {
    if (prayer === 'dhuhr' && (today.jumuah.length > 0 || tomorrow.jumuah.length > 0)) continue;
    if (!tomorrow.fixedIqama.includes(prayer) || tomorrow.iqama[prayer] == null) continue;
    const time = wallTime(tomorrow.iqama[prayer]);
    if (wallTime(today.iqama[prayer]) !== time) changes.push({ prayer, time });
  }
  return changes;
}

/**
 * In Ramadan, what is counted down: `{kind: 'suhoor', target: fajr, imsak}` until fajr, then
 * `{kind: 'iftar', target: maghrib}` until maghrib, then tomorrow's suhoor; null outside Ramadan.
 */
export function ramadan(model, now) {
  const index = todayIndex(model, now);
  if (index < 0) return null;
  for (const day of model.days.slice(index, index + 2)) {
    if (!day.ramadan) continue;
    const fajr = instant(day.fajr);
    const maghrib = instant(day.maghrib);
    if (fajr != null && now < fajr) return { kind: 'suhoor', target: fajr, time: wallTime(day.fajr), imsak: wallTime(day.imsak) };
    if (maghrib != null && now < maghrib) return { kind: 'iftar', target: maghrib, time: wallTime(day.maghrib) };
  }
  return null;
}

/**
 * The Hijri date to show at `now`: today's, or, when the model turns the date at maghrib, the next
 * day's from maghrib on (the Islamic day begins at sunset). Null when the model has no such day.
 */
export function hijriAt(model, now) {
  const index = todayIndex(model, now);
  if (index < 0) return null;
  const day = model.days[index];
  const maghrib = instant(day.maghrib);
  if (model.hijriAtMaghrib === true && maghrib != null && now >= maghrib && index + 1 < model.days.length) {
    return model.days[index + 1].hijri;
  }
  return day.hijri;
}

/** How long each notice stays before the next, in seconds. */
export const NOTICE_SECONDS = 12;

/**
 * The mosque's notices shown at `now` (started, not ended), in the model's order (urgent, high,
 * normal, then by start); while any urgent notice is on, only the urgent ones.
 */
export function currentNotices(model, now) {
  const all = (model.notices ?? []).filter((notice) => instant(notice.start) <= now && now < instant(notice.end));
  const urgent = all.filter((notice) => notice.priority === 'urgent');
  return urgent.length > 0 ? urgent : all;
}

/**
 * The notice on the panel at `now` — they take turns, `NOTICE_SECONDS` each, by the clock alone —
 * as `{notice, index, count}`, or null when none is on.
 */
export function noticeAt(model, now) {
  const list = currentNotices(model, now);
  if (list.length === 0) return null;
  const index = Math.floor(now / (NOTICE_SECONDS * 1000)) % list.length;
  return { notice: list[index], index, count: list.length };
}

/**
 * How sure the screen can be: `stale` when `now` is past the model's last day (or before its
 * first), `clockWrong` when the page's clock was more than a minute from the server's `Date` at
 * the last answer (`skew` in milliseconds, null when unknown).
 */
export function trust(model, now, skew) {
  const stale = !(instant(model.validFrom) <= now && now < instant(model.validUntil));
  return { stale, clockWrong: skew != null && Math.abs(skew) > MINUTE };
}

/** `1:02:03` or `4:05` (minutes and seconds) for a countdown of `milliseconds`, rounded up to the second. */
export function countdown(milliseconds) {
  const total = Math.max(0, Math.ceil(milliseconds / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const two = (n) => String(n).padStart(2, '0');
  return hours > 0 ? `${hours}:${two(minutes)}:${two(seconds)}` : `${minutes}:${two(seconds)}`;
}

/** `text` with its digits 0-9 as Arabic-Indic digits (٠-٩) when `arabic`. */
export function digits(text, arabic) {
  if (!arabic || text == null) return text;
  return String(text).replace(/[0-9]/g, (d) => String.fromCharCode(0x0660 + Number(d)));
}

/** The next wait before fetching the model again: `base` after a success, doubling after each failure to `max`. */
export function retryDelay(failures, base = 5 * MINUTE, first = 5000, max = 5 * MINUTE) {
  if (failures <= 0) return base;
  return Math.min(max, first * 2 ** (failures - 1));
}

/** Whether `model` is one this page can read. */
export function isReadable(model) {
  return model != null && model.version === 1 && Array.isArray(model.days) && model.days.length > 0
    && Array.isArray(model.offsets) && typeof model.phases === 'object';
}
