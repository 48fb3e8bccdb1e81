// The screen: fetches the model (display.json beside the page: /display.json, or /m/<slug>/display.json
// for a mosque published on a sync server), keeps the last one it had (in memory and in localStorage,
// so a screen whose server is gone keeps running on its month of times), listens to display/events
// beside it (the server says when the model changed: an iqama moved, a notice came), and draws
// the page every second from the model and the clock with the pure functions of display-model.js.
// What a second changes is written; the rows, notes and notices are rebuilt only when their text
// changes, so a page left open for weeks makes no garbage it does not need.
import * as model from './display-model.js';
import { choose, fill } from './display-words.js';

const { lang, words, arabicDigits } = choose(location.search);
// Per page: the screens of two mosques published on one server keep their own models.
const storageKey = `praykit.display.model:${location.pathname}`;
const state = {
  model: null, etag: null, skew: null, failures: 0, timeline: [], timer: null, fetching: false, again: false,
  drawn: {},
};

const $ = (id) => document.getElementById(id);
const number = (text) => model.digits(text, arabicDigits);
const name = (prayer) => (prayer == null ? '' : words.prayers[prayer] ?? prayer);
const dateFormat = new Intl.DateTimeFormat(words.locale, {
  weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC',
  numberingSystem: arabicDigits ? 'arab' : 'latn',
});

function setup() {
  document.documentElement.lang = lang;
  document.documentElement.dir = words.dir;
  $('head-adhan').textContent = words.adhan;
  $('head-iqama').textContent = words.iqama;
  try {
    const kept = JSON.parse(localStorage.getItem(storageKey) ?? 'null');
    if (model.isReadable(kept)) use(kept, null);
  } catch {
    // A kept model that does not read is ignored: the next fetch replaces it.
  }
  draw();
  fetchModel();
  listen();
}

function use(next, etag) {
  state.model = next;
  state.etag = etag;
  state.timeline = model.timeline(next);
}

/** Sets `text` on the element `id` only when it differs: a second's redraw touches what moved. */
function put(id, text) {
  const element = $(id);
  if (element.textContent !== text) element.textContent = text;
}

/** Runs `render` when `key` differs from the last drawn for `part`: the DOM is rebuilt only on change. */
function once(part, key, render) {
  if (state.drawn[part] === key) return;
  state.drawn[part] = key;
  render();
}

/**
 * Fetches the model; on failure tries again sooner, then less often (5 s doubling to 5 minutes).
 * A fetch asked for while one runs (an event) runs once that one ends.
 */
async function fetchModel() {
  clearTimeout(state.timer);
  if (state.fetching) {
    state.again = true;
    return;
  }
  state.fetching = true;
  try {
    const response = await fetch('display.json', { cache: 'no-cache' });
    if (!response.ok) throw new Error(`status ${response.status}`);
    const next = await response.json();
    if (!model.isReadable(next)) throw new Error('unreadable model');
    const date = Date.parse(response.headers.get('Date') ?? '');
    state.skew = Number.isNaN(date) ? null : date - Date.now();
    use(next, response.headers.get('ETag'));
    state.failures = 0;
    try {
      localStorage.setItem(storageKey, JSON.stringify(next));
    } catch {
      // Storage full or refused: the model in memory is enough until a reload.
    }
  } catch {
    state.failures += 1;
  }
  state.fetching = false;
  draw();
  if (state.again) {
    state.again = false;
    fetchModel();
    return;
  }
  state.timer = setTimeout(fetchModel, model.retryDelay(state.failures));
}

/**
 * Listens to the server's events: each names the model's tag, and a tag other than the one held
 * means the model changed — fetched at once. The browser reconnects by itself (the server asks for
 * 5 s), and every stream begins with the tag, so a change made while it was away is fetched then.
 */
function listen() {
  if (typeof EventSource !== 'function') return;
  const events = new EventSource('display/events');
  events.addEventListener('model', (event) => {
    let tag = null;
    try {
      tag = JSON.parse(event.data).etag ?? null;
    } catch {
      return;
    }
    if (tag !== state.etag) fetchModel();
  });
}

function draw() {
  const now = Date.now();
  const screen = $('screen');
  const current = state.model;
  if (current == null) {
    screen.dataset.phase = 'loading';
    put('phase-title', state.failures > 0 ? words.offline : words.loading);
    return;
  }
  const clock = model.localClock(current, now);
  const two = (n) => String(n).padStart(2, '0');
  const time = number(`${two(clock.hours)}:${two(clock.minutes)}`);
  if ($('clock').firstChild.textContent !== time) $('clock').firstChild.textContent = time;
  put('seconds', number(`:${two(clock.seconds)}`));
  drawDates(current, now, clock.date);
  put('name', current.name ?? '');
  const phase = model.phaseAt(current, now, state.timeline);
  if (screen.dataset.phase !== phase.phase) screen.dataset.phase = phase.phase;
  if (screen.dataset.prayer !== (phase.prayer ?? '')) screen.dataset.prayer = phase.prayer ?? '';
  drawStatus(current, phase, now);
  const rows = model.rows(current, now);
  drawRows(current, rows, now);
  drawNotes(current, rows, now);
  drawNotice(current, now);
  const trust = model.trust(current, now, state.skew);
  screen.classList.toggle('stale', trust.stale);
  screen.classList.toggle('clock-wrong', trust.clockWrong);
  const warning = trust.clockWrong ? words.clockWrong : trust.stale ? words.stale : null;
  $('warning').hidden = warning == null;
  screen.classList.toggle('warned', warning != null);
  put('warning', warning ?? '');
}

function drawDates(current, now, date) {
  once('gregorian', date, () => put('gregorian', dateFormat.format(new Date(`${date}T12:00:00Z`))));
  const hijri = model.hijriAt(current, now);
  put('hijri', hijri == null ? ''
    : number(`${hijri.day} ${lang === 'ar' ? hijri.monthNameArabic : hijri.monthName} ${hijri.year} ${words.hijriSuffix}`));
}

function drawStatus(current, phase, now) {
  const prayer = name(phase.prayer);
  const eid = phase.prayer != null && phase.prayer.startsWith('eid-');
  const titles = {
    before: words.before, adhan: words.adhanNow, iqama: eid ? words.eidIn : words.iqamaIn, silence: words.silence,
    prayer: words.prayer, after: words.after, idle: words.next,
  };
  // Past the model's last prayer there is no next one to name: the box says why instead.
  const title = phase.phase === 'idle' && phase.prayer == null ? words.stale : titles[phase.phase] ?? '';
  put('phase-title', fill(title, { prayer }));
  let count = '';
  let detail = '';
  if (phase.phase === 'prayer') {
    count = model.countdown(now - phase.target);
    detail = words.since;
  } else if (phase.phase !== 'after' && phase.target != null) {
    count = model.countdown(phase.target - now);
    if (phase.phase === 'idle') {
      const next = model.nextPrayer(current, now);
      const at = number(next == null ? '' : model.wallTime(next.text));
      detail = next != null && next.key === 'eid' ? fill(words.eidAt, { time: at }) : `${words.adhan} ${at}`;
    }
  }
  put('countdown', number(count));
  put('phase-detail', detail);
}

function drawRows(current, list, now) {
  const next = model.nextPrayer(current, now);
  const key = JSON.stringify([list, next?.key, next?.date]);
  once('rows', key, () => {
    const body = document.createElement('tbody');
    body.id = 'rows';
    for (const row of list) {
      const tr = document.createElement('tr');
      tr.dataset.row = row.row;
      if (row.tomorrow) tr.classList.add('tomorrow');
      if (next != null && next.key === row.row && next.date === row.date) tr.classList.add('next');
      const label = cell('name', name(row.name));
      if (row.tomorrow) {
        const tag = document.createElement('span');
        tag.className = 'tag';
        tag.textContent = words.tomorrow;
        label.append(tag);
      }
      const iqama = cell('time iqama', '');
      iqama.classList.toggle('several', row.iqama.length > 1);
      row.iqama.forEach((time, index) => {
        if (index > 0) iqama.append(document.createElement('br'));
        iqama.append(number(time));
      });
      const adhan = cell('time adhan', row.row === 'eid' ? '' : number(row.adhan ?? '–'));
      if (row.calculated) {
        adhan.classList.add('calculated');
        adhan.title = words.calculated;
        const mark = document.createElement('span');
        mark.className = 'mark';
        mark.textContent = '*';
        adhan.append(mark);
      }
      tr.append(label, adhan, iqama);
      body.append(tr);
    }
    $('rows').replaceWith(body);
  });
}

function drawNotes(current, rows, now) {
  const notes = [];
  for (const change of model.iqamaChanges(current, now)) {
    notes.push(fill(words.iqamaChange, { prayer: name(change.prayer), time: number(change.time) }));
  }
  const fast = model.ramadan(current, now);
  if (fast != null) {
    const template = fast.kind === 'suhoor' ? words.suhoor : words.iftar;
    notes.push(`${fill(template, { time: number(fast.time), imsak: number(fast.imsak ?? '') })} · ${number(model.countdown(fast.target - now))}`);
  }
  if (rows.some((row) => row.calculated)) notes.push(`* ${words.calculated}`);
  once('notes', JSON.stringify(notes), () => {
    $('notes').replaceChildren(...notes.map((text) => {
      const div = document.createElement('div');
      div.textContent = text;
      return div;
    }));
  });
}

/** The notice panel: one notice at a time, as text (a notice is never read as markup). */
function drawNotice(current, now) {
  const shown = model.noticeAt(current, now);
  const screen = $('screen');
  once('notice', JSON.stringify(shown), () => {
    const panel = $('notice');
    panel.hidden = shown == null;
    screen.classList.toggle('has-notice', shown != null);
    if (shown == null) {
      panel.dataset.priority = '';
      put('notice-title', '');
      put('notice-text', '');
      put('notice-count', '');
      return;
    }
    panel.dataset.priority = shown.notice.priority;
    panel.dataset.id = shown.notice.id;
    put('notice-title', shown.notice.title);
    put('notice-text', shown.notice.text);
    put('notice-count', shown.count > 1 ? number(`${shown.index + 1}/${shown.count}`) : '');
  });
}

function cell(className, text) {
  const td = document.createElement('td');
  td.className = className;
  td.textContent = text;
  return td;
}

setup();
// Each second, on the second: the countdowns and the clock move together.
function tick() {
  draw();
  setTimeout(tick, 1000 - (Date.now() % 1000));
}
setTimeout(tick, 1000 - (Date.now() % 1000));
