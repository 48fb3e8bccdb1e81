// The month page: fetches its model (month.json beside the page: /month.json, or /m/<slug>/month.json
// for a published mosque) and lays it out as a sheet — the printed timetable's table, which prints on
// one A4 or Letter page — or, on a narrow screen, as a phone's table with each iqama under its adhan.
// Everything the model says is set as text, never as markup. The logic is month-model.js's.
import * as month from './month-model.js';

const { lang, words, arabicDigits, month: asked } = month.choose(location.search);
const $ = (id) => document.getElementById(id);
const number = (text) => month.digits(text, arabicDigits);
const narrow = matchMedia('(max-width: 40rem)');
const state = { model: null, printing: false };

/** An element with `text` (as text), and `className`. */
function element(name, text, className) {
  const node = document.createElement(name);
  if (text != null) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function setup() {
  document.documentElement.lang = lang;
  document.documentElement.dir = words.dir;
  $('title').textContent = words.title;
  $('status').textContent = words.loading;
  $('print').textContent = words.print;
  $('print').addEventListener('click', () => window.print());
  narrow.addEventListener('change', draw);
  // Printed, the page is always the sheet, whatever the screen's width.
  addEventListener('beforeprint', () => { state.printing = true; draw(); });
  addEventListener('afterprint', () => { state.printing = false; draw(); });
  load();
}

async function load() {
  const query = new URLSearchParams();
  if (asked) query.set('month', asked);
  try {
    const response = await fetch(`month.json${asked ? `?${query}` : ''}`, { cache: 'no-cache' });
    if (!response.ok) throw new Error(`status ${response.status}`);
    const model = await response.json();
    if (!month.isReadable(model)) throw new Error('unreadable model');
    state.model = model;
    document.body.dataset.state = 'ready';
    draw();
  } catch {
    document.body.dataset.state = 'failed';
    $('status').textContent = words.failed;
  }
}

function draw() {
  const model = state.model;
  if (model == null) return;
  const layout = narrow.matches && !state.printing ? 'phone' : 'sheet';
  document.body.dataset.layout = layout;
  const heading = month.title(model, words, arabicDigits);
  document.title = model.name ? `${heading} — ${model.name}` : heading;
  $('title').textContent = heading;
  drawSubtitle(model);
  drawNav(model);
  drawNotices(model);
  $('status').textContent = '';
  const table = $('month');
  table.hidden = false;
  table.className = `${layout} ${model.iqamaPrayers.length > 0 ? 'with-iqama' : 'plain'}`;
  if (layout === 'sheet') drawSheet(model); else drawPhone(model);
  drawFooter(model);
}

function drawSubtitle(model) {
  const subtitle = $('subtitle');
  subtitle.replaceChildren();
  if (model.name) subtitle.append(element('bdi', model.name, 'place'));
  const span = month.hijriSpan(model, lang, words, arabicDigits);
  if (span) {
    if (model.name) subtitle.append(' · ');
    subtitle.append(element('bdi', span));
  }
}

function drawNav(model) {
  const link = (id, delta, text) => {
    const query = new URLSearchParams(location.search);
    query.set('month', month.adjacentMonth(model.year, model.month, delta));
    $(id).href = `?${query}`;
    $(id).textContent = text;
  };
  link('previous', -1, words.previous);
  link('next', 1, words.next);
  // A published mosque's page (/m/<slug>/month): its screen beside it, and its calendar feed.
  const published = location.pathname.match(/^\/m\/([a-z0-9-]+)\/month$/);
  if (published && (location.protocol === 'http:' || location.protocol === 'https:')) {
    const feed = new URL(`../${published[1]}.ics`, location.href);
    $('subscribe').href = `webcal://${feed.host}${feed.pathname}`;
    $('subscribe').textContent = words.subscribe;
    $('subscribe').hidden = false;
    $('screen').textContent = words.screen;
    $('screen').hidden = false;
  }
}

/** The mosque's notices, on the screen only (a printed month keeps its times), each as text. */
function drawNotices(model) {
  const list = $('notices');
  list.replaceChildren();
  for (const notice of month.notices(model, Date.now())) {
    const item = element('li', null, notice.urgent ? 'urgent' : null);
    // Each notice in its own direction (an Arabic notice on the English page reads right to left), as
    // the screen's notices do.
    item.dir = 'auto';
    item.append(element('strong', notice.title));
    if (notice.text) {
      const text = element('p', notice.text);
      text.dir = 'auto';
      item.append(text);
    }
    list.append(item);
  }
  list.hidden = list.childElementCount === 0;
}

/** The printed timetable's table: date, weekday, Hijri, then each time and its iqama column. */
function drawSheet(model) {
  const withIqama = model.iqamaPrayers.length > 0;
  const columns = $('columns');
  columns.replaceChildren();
  for (const name of ['c-date', 'c-day', 'c-hijri']) columns.append(element('col', null, name));
  for (const prayer of model.prayers) {
    columns.append(element('col', null, 'c-time'));
    if (model.iqamaPrayers.includes(prayer)) columns.append(element('col', null, 'c-iqama'));
  }
  const head = $('head');
  head.replaceChildren();
  const top = document.createElement('tr');
  const span = withIqama ? 2 : 1;
  const date = element('th', words.date, 'date');
  date.colSpan = 2;
  date.rowSpan = span;
  const hijri = element('th', words.hijri, 'hijri');
  hijri.rowSpan = span;
  top.append(date, hijri);
  const sub = element('tr', null, 'sub');
  for (const prayer of model.prayers) {
    const cell = element('th', words.prayers[prayer]);
    cell.dataset.prayer = prayer;
    if (model.iqamaPrayers.includes(prayer)) {
      cell.colSpan = 2;
      sub.append(element('th', words.adhan, 'adhan'), element('th', words.iqama, 'iqama'));
    } else {
      cell.rowSpan = span;
    }
    top.append(cell);
  }
  head.append(top);
  if (withIqama) head.append(sub);
  const body = $('days');
  body.replaceChildren();
  model.days.forEach((day, index) => {
    const row = dayRow(model, day);
    const date = element('td', number(day.date.slice(8, 10).replace(/^0/, '')), 'date');
    if (month.isCalculatedDay(model, day)) date.append(element('span', '◦', 'calc-mark'));
    row.append(date);
    row.append(element('td', day.weekday === 5 ? words.jumuah : words.weekdays[day.weekday - 1], 'day'));
    row.append(hijriCell(day, index === 0));
    for (const cell of month.cells(model, day)) row.append(cell.iqama ? iqamaCell(cell) : timeCell(cell));
    body.append(row);
  });
}

/** A phone's table: the date and Hijri day in one column, each iqama under its adhan. */
function drawPhone(model) {
  $('columns').replaceChildren();
  const head = $('head');
  head.replaceChildren();
  const top = document.createElement('tr');
  top.append(element('th', words.date, 'date'));
  for (const prayer of model.prayers) {
    const cell = element('th', words.prayers[prayer]);
    cell.dataset.prayer = prayer;
    top.append(cell);
  }
  head.append(top);
  const body = $('days');
  body.replaceChildren();
  model.days.forEach((day, index) => {
    const row = dayRow(model, day);
    const date = element('td', null, 'date');
    date.append(element('span', words.weekdays[day.weekday - 1], 'day'), ' ');
    date.append(element('b', number(day.date.slice(8, 10).replace(/^0/, ''))));
    if (month.isCalculatedDay(model, day)) date.append(element('span', '◦', 'calc-mark'));
    const hijri = month.hijriCell(day, index === 0, lang);
    date.append(element('span', number(hijri.day) + (hijri.month ? ` ${hijri.month}` : ''), 'hijri'));
    row.append(date);
    let current = null;
    for (const cell of month.cells(model, day)) {
      if (cell.iqama) {
        current.append(iqamaSpan(cell));
        continue;
      }
      current = timeCell(cell);
      row.append(current);
    }
    body.append(row);
  });
}

/** A day's row, with its date, Hijri date and Friday and calculated marks as attributes. */
function dayRow(model, day) {
  const row = document.createElement('tr');
  row.dataset.date = day.date;
  if (day.hijri) row.dataset.hijri = `${day.hijri.year}-${String(day.hijri.month).padStart(2, '0')}-${String(day.hijri.day).padStart(2, '0')}`;
  row.dataset.source = day.source;
  const classes = [];
  if (day.weekday === 5) {
    classes.push('friday');
    row.dataset.jumuah = 'true';
  }
  if (month.isCalculatedDay(model, day)) classes.push('calculated');
  row.className = classes.join(' ');
  return row;
}

function hijriCell(day, first) {
  const hijri = month.hijriCell(day, first, lang);
  const cell = element('td', null, 'hijri');
  if (hijri.month) {
    cell.append(element('b', `${number(hijri.day)} ${hijri.month.replace(/-/g, '\u2011')}`));
  } else {
    cell.textContent = number(hijri.day);
  }
  if (day.notable.length > 0) {
    const mark = element('span', '•', 'notable');
    mark.title = day.notable.map((notable) => (lang === 'ar' ? notable.nameArabic : notable.name)).join(words.list);
    cell.append(mark);
  }
  return cell;
}

function timeCell(cell) {
  const td = element('td', number(cell.text), cell.calculated ? 'time calc' : 'time');
  td.dataset.prayer = cell.prayer;
  if (cell.marks) {
    // On an Arabic page the marks are isolated left to right, so that +1 stays +1.
    const marks = element('span', lang === 'ar' ? `\u2066${number(cell.marks)}\u2069` : cell.marks, 'marks');
    // Two marks or more (~+1) go under the time on a phone, where the column is narrow.
    if (cell.marks.length > 1) marks.classList.add('long');
    td.append(marks);
  }
  return td;
}

function iqamaCell(cell) {
  const td = element('td', null, 'iqama');
  td.dataset.prayer = cell.prayer;
  if (cell.iqama.length > 1) {
    td.append(stacked(cell.iqama));
  } else {
    td.textContent = number(cell.iqama[0] ?? '');
  }
  return td;
}

/** The iqama under its adhan, on a phone. */
function iqamaSpan(cell) {
  if (cell.iqama.length > 1) return stacked(cell.iqama, 'iqama');
  return element('span', number(cell.iqama[0] ?? ''), 'iqama');
}

/** Two or three Jumu'ah times one above the other. */
function stacked(times, extra) {
  const span = element('span', null, extra ? `jumuah-times ${extra}` : 'jumuah-times');
  times.forEach((time, index) => {
    if (index > 0) span.append(document.createElement('br'));
    span.append(number(time));
  });
  return span;
}

function drawFooter(model) {
  const footer = $('notes');
  footer.replaceChildren();
  const line = (label, parts) => {
    const paragraph = element('p');
    paragraph.append(element('span', `${label}:`, 'label'), ' ');
    parts.filter((part) => part).forEach((part, index) => {
      if (index > 0) paragraph.append(words.separator);
      paragraph.append(element('bdi', part));
    });
    footer.append(paragraph);
  };
  const location = model.location;
  line(words.place, [model.name, number(`${location.latitude}, ${location.longitude}`)]);
  line(words.zone, month.zoneParts(model, words).map(number));
  line(words.method, [`${model.methodName} (${model.method})`, month.methodSource(model.methodSource, words)]);
  line(words.highLatitudes, [`${words.rule} ${month.ruleText(model, words)}`, `${words.polar} ${month.polarText(model, words)}`]);
  if (model.mosque) {
    const days = model.days.filter((day) => day.calculated !== true).length;
    line(words.mosque, [model.mosque, `${number(days)} ${words.days}`]);
  }
  const calendar = model.hijriCalendar === 'umm-al-qura' ? words.ummAlQura : words.tabular;
  const offset = model.hijriOffset === 0 ? null : `${words.offset} ${model.hijriOffset > 0 ? '+' : ''}${number(model.hijriOffset)}`;
  line(words.hijriCalendar, [calendar, offset]);
  const used = month.legend(model);
  const entries = [
    [used.rule, '*', words.ruleMark], [used.borrowed, '~', words.borrowedMark],
    [used.nextDay, number('+1'), words.nextDayMark], [used.previousDay, number('-1'), words.previousDayMark],
    [used.missing, '–', words.missingMark], [used.calculatedDay, '◦', words.calculatedDay],
    [used.calculatedTime, null, words.calculatedTime],
  ];
  for (const [shown, mark, text] of entries) {
    if (!shown) continue;
    const paragraph = element('p', null, 'legend');
    if (mark) paragraph.append(element('bdi', mark), ' ');
    paragraph.append(text);
    footer.append(paragraph);
  }
  const notable = model.days.filter((day) => day.notable.length > 0).map((day) =>
    `${number(Number(day.date.slice(8, 10)))} ${words.months[model.month - 1]}: `
    + day.notable.map((item) => (lang === 'ar' ? item.nameArabic : item.name)).join(words.list));
  if (notable.length > 0) {
    const paragraph = element('p');
    paragraph.append('• ');
    notable.forEach((text, index) => {
      if (index > 0) paragraph.append(words.separator);
      paragraph.append(element('bdi', text));
    });
    footer.append(paragraph);
  }
  footer.append(element('p', words.calculatedBy, 'credit'));
}

setup();
