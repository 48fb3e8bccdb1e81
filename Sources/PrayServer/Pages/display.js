// The screen: fetches the model (display.json beside the page: /display.json, or /m/<slug>/display.json
// for a published mosque), keeps the last one it had (in memory and in
// localStorage, so a screen whose server is gone keeps running on its month of times), and draws
// the page every second from the model and the clock with the pure functions of display-model.js.
import * as model from './display-model.js';
import { choose, fill } from './display-words.js';

const { lang, words, arabicDigits } = choose(location.search);
// Per page: the screens of two mosques published on one server keep their own models.
const storageKey = `praykit.display.model:${location.pathname}`;
const state = { model: null, skew: null, failures: 0, timeline: [] };

const $ = (id) => document.getElementById(id);
const number = (text) => model.digits(text, arabicDigits);
const name = (prayer) => (prayer == null ? '' : words.prayers[prayer] ?? prayer);

function setup() {
  document.documentElement.lang = lang;
  document.documentElement.dir = words.dir;
  $('head-adhan').textContent = words.adhan;
  $('head-iqama').textContent = words.iqama;
  try {
    const kept = JSON.parse(localStorage.getItem(storageKey) ?? 'null');
    if (model.isReadable(kept)) use(kept);
  } catch {
    // A kept model that does not read is ignored: the next fetch replaces it.
  }
  draw();
  fetchModel();
}

function use(next) {
  state.model = next;
  state.timeline = model.timeline(next);
}

/** Fetches the model; on failure tries again sooner, then less often (5 s doubling to 5 minutes). */
async function fetchModel() {
  try {
    const response = await fetch('display.json', { cache: 'no-cache' });
    if (!response.ok) throw new Error(`status ${response.status}`);
    const next = await response.json();
    if (!model.isReadable(next)) throw new Error('unreadable model');
    const date = Date.parse(response.headers.get('Date') ?? '');
    state.skew = Number.isNaN(date) ? null : date - Date.now();
    use(next);
    state.failures = 0;
    try {
      localStorage.setItem(storageKey, JSON.stringify(next));
    } catch {
      // Storage full or refused: the model in memory is enough until a reload.
    }
  } catch {
    state.failures += 1;
  }
  draw();
  setTimeout(fetchModel, model.retryDelay(state.failures));
}

function draw() {
  const now = Date.now();
  const screen = $('screen');
  const current = state.model;
  if (current == null) {
    screen.dataset.phase = 'loading';
    $('phase-title').textContent = state.failures > 0 ? words.offline : words.loading;
    return;
  }
  const clock = model.localClock(current, now);
  const two = (n) => String(n).padStart(2, '0');
  $('clock').firstChild.textContent = number(`${two(clock.hours)}:${two(clock.minutes)}`);
  $('seconds').textContent = number(`:${two(clock.seconds)}`);
  drawDates(current, now, clock.date);
  $('name').textContent = current.name ?? '';
  const phase = model.phaseAt(current, now, state.timeline);
  screen.dataset.phase = phase.phase;
  screen.dataset.prayer = phase.prayer ?? '';
  drawStatus(current, phase, now);
  drawRows(current, now);
  drawNotes(current, now);
  const trust = model.trust(current, now, state.skew);
  screen.classList.toggle('stale', trust.stale);
  screen.classList.toggle('clock-wrong', trust.clockWrong);
  const warning = trust.clockWrong ? words.clockWrong : trust.stale ? words.stale : null;
  $('warning').hidden = warning == null;
  screen.classList.toggle('warned', warning != null);
  $('warning').textContent = warning ?? '';
}

function drawDates(current, now, date) {
  const format = new Intl.DateTimeFormat(words.locale, {
    weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC',
    numberingSystem: arabicDigits ? 'arab' : 'latn',
  });
  $('gregorian').textContent = format.format(new Date(`${date}T12:00:00Z`));
  const day = current.days.find((d) => d.date === date);
  const hijri = day?.hijri;
  $('hijri').textContent = hijri == null ? ''
    : number(`${hijri.day} ${lang === 'ar' ? hijri.monthNameArabic : hijri.monthName} ${hijri.year} ${words.hijriSuffix}`);
}

function drawStatus(current, phase, now) {
  const prayer = name(phase.prayer);
  const titles = {
    before: words.before, adhan: words.adhanNow, iqama: words.iqamaIn, silence: words.silence,
    prayer: words.prayer, after: words.after, idle: words.next,
  };
  // Past the model's last prayer there is no next one to name: the box says why instead.
  const title = phase.phase === 'idle' && phase.prayer == null ? words.stale : titles[phase.phase] ?? '';
  $('phase-title').textContent = fill(title, { prayer });
  let count = '';
  let detail = '';
  if (phase.phase === 'prayer') {
    count = model.countdown(now - phase.target);
    detail = words.since;
  } else if (phase.phase !== 'after' && phase.target != null) {
    count = model.countdown(phase.target - now);
    if (phase.phase === 'idle') detail = `${words.adhan} ${number(model.wallTime(nextAdhan(current, now)))}`;
  }
  $('countdown').textContent = number(count);
  $('phase-detail').textContent = detail;
}

function nextAdhan(current, now) {
  const next = model.nextPrayer(current, now);
  return next == null ? null : current.days.find((day) => day.date === next.date)[next.key];
}

function drawRows(current, now) {
  const next = model.nextPrayer(current, now);
  const body = document.createElement('tbody');
  body.id = 'rows';
  for (const row of model.rows(current, now)) {
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
    tr.append(label, cell('time adhan', number(row.adhan ?? '–')), iqama);
    body.append(tr);
  }
  $('rows').replaceWith(body);
}

function drawNotes(current, now) {
  const notes = [];
  for (const change of model.iqamaChanges(current, now)) {
    notes.push(fill(words.iqamaChange, { prayer: name(change.prayer), time: number(change.time) }));
  }
  const fast = model.ramadan(current, now);
  if (fast != null) {
    const template = fast.kind === 'suhoor' ? words.suhoor : words.iftar;
    notes.push(`${fill(template, { time: number(fast.time), imsak: number(fast.imsak ?? '') })} · ${number(model.countdown(fast.target - now))}`);
  }
  $('notes').replaceChildren(...notes.map((text) => {
    const div = document.createElement('div');
    div.textContent = text;
    return div;
  }));
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
