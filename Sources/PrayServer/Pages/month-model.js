// The month page's logic: small pure functions of the model (/month.json, see MonthModel.swift) and
// the page's choices (language, digits). Nothing here reads the clock, the DOM or the network, so
// each function is tested directly (Scripts/browser/month-model-tests.js).

/** The times of a row, in the order of the day. */
export const PRAYERS = ['fajr', 'sunrise', 'dhuhr', 'asr', 'maghrib', 'isha'];

/** The page's words in English and Arabic. */
export const WORDS = {
  en: {
    dir: 'ltr',
    title: 'Prayer times',
    date: 'Date',
    hijri: 'Hijri',
    adhan: 'Adhan',
    iqama: 'Iqama',
    jumuah: "Jumu'ah",
    era: 'AH',
    prayers: { fajr: 'Fajr', sunrise: 'Sunrise', dhuhr: 'Dhuhr', asr: 'Asr', maghrib: 'Maghrib', isha: 'Isha' },
    weekdays: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'],
    months: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October',
      'November', 'December'],
    previous: '‹ Previous month',
    next: 'Next month ›',
    print: 'Print',
    subscribe: 'Add to calendar',
    screen: 'Screen',
    loading: 'Loading the month…',
    failed: 'The month could not be loaded: the server did not answer. Reload the page to try again.',
    place: 'Place',
    zone: 'Time zone',
    method: 'Method',
    highLatitudes: 'High latitudes',
    rule: 'rule',
    polar: 'polar resolution',
    seasons: 'Moonsighting Committee seasons',
    from: 'from',
    mosque: 'Mosque timetable',
    days: 'days',
    hijriCalendar: 'Hijri calendar',
    ummAlQura: 'Umm al-Qura',
    tabular: 'tabular (civil)',
    offset: 'offset',
    ruleMark: 'set by a rule: the high-latitude rule, the Moonsighting Committee\'s season, or held back to keep the day in order',
    borrowedMark: 'taken from another latitude or day where the sun rises and sets (polar resolution)',
    nextDayMark: "after midnight: on the day after the row's date",
    previousDayMark: "before midnight: on the day before the row's date",
    missingMark: 'unavailable: the sun does not rise, set or reach the time\'s angle that day',
    calculatedDay: "calculated: the mosque's timetable has no times for this day",
    calculatedTime: "in italics: calculated, not in the mosque's timetable",
    calculatedBy: 'Calculated by PrayKit',
    methodSources: { option: 'given', saved: 'saved', default: 'the default', country: 'chosen for {code}' },
    separator: '; ',
    list: ', ',
  },
  ar: {
    dir: 'rtl',
    title: 'مواقيت الصلاة',
    date: 'التاريخ',
    hijri: 'الهجري',
    adhan: 'الأذان',
    iqama: 'الإقامة',
    jumuah: 'الجمعة',
    era: 'هـ',
    prayers: { fajr: 'الفجر', sunrise: 'الشروق', dhuhr: 'الظهر', asr: 'العصر', maghrib: 'المغرب', isha: 'العشاء' },
    weekdays: ['الإثنين', 'الثلاثاء', 'الأربعاء', 'الخميس', 'الجمعة', 'السبت', 'الأحد'],
    months: ['يناير', 'فبراير', 'مارس', 'أبريل', 'مايو', 'يونيو', 'يوليو', 'أغسطس', 'سبتمبر', 'أكتوبر', 'نوفمبر',
      'ديسمبر'],
    previous: '› الشهر السابق',
    next: 'الشهر التالي ‹',
    print: 'طباعة',
    subscribe: 'أضف إلى التقويم',
    screen: 'الشاشة',
    loading: 'جارٍ تحميل الشهر…',
    failed: 'تعذّر تحميل الشهر: لم يُجب الخادم. أعد تحميل الصفحة للمحاولة مجددًا.',
    place: 'المكان',
    zone: 'المنطقة الزمنية',
    method: 'طريقة الحساب',
    highLatitudes: 'خطوط العرض العليا',
    rule: 'القاعدة:',
    polar: 'المعالجة القطبية:',
    seasons: 'مواسم لجنة رؤية الهلال',
    from: 'من',
    ruleNames: {
      none: 'بلا قاعدة', 'middle-of-the-night': 'منتصف الليل', 'seventh-of-the-night': 'سُبع الليل',
      'twilight-angle': 'زاوية الشفق', recommended: 'الموصى بها',
    },
    resolutionNames: { unresolved: 'بلا معالجة', 'nearest-latitude': 'أقرب خط عرض', 'nearest-day': 'أقرب يوم' },
    mosque: 'جدول المسجد',
    days: 'أيام',
    hijriCalendar: 'التقويم الهجري',
    ummAlQura: 'أم القرى',
    tabular: 'الحسابي',
    offset: 'إزاحة',
    ruleMark: 'وقت حدّدته قاعدة: قاعدة خطوط العرض العليا أو مواسم لجنة رؤية الهلال، أو أُبقي ليبقى ترتيب اليوم',
    borrowedMark: 'مأخوذ من خط عرض أو يوم آخر تشرق فيه الشمس وتغرب (المعالجة القطبية)',
    nextDayMark: 'بعد منتصف الليل: في اليوم التالي لتاريخ السطر',
    previousDayMark: 'قبل منتصف الليل: في اليوم السابق لتاريخ السطر',
    missingMark: 'غير متاح: لا تشرق الشمس أو لا تغرب أو لا تبلغ زاوية الوقت في ذلك اليوم',
    calculatedDay: 'محسوب: جدول المسجد ليس فيه مواقيت هذا اليوم',
    calculatedTime: 'بخط مائل: محسوب، ليس في جدول المسجد',
    calculatedBy: 'حُسبت بواسطة PrayKit',
    methodSources: { option: 'المعطاة', saved: 'المحفوظة', default: 'الافتراضية', country: 'المعتمدة في {code}' },
    separator: '؛ ',
    list: '، ',
  },
};

/** The page's language, digits and month from its query (`?lang=ar&digits=latin&month=2027-07`). */
export function choose(search) {
  const query = new URLSearchParams(search);
  const lang = Object.hasOwn(WORDS, query.get('lang') ?? '') ? query.get('lang') : 'en';
  const digits = query.get('digits');
  const arabicDigits = digits === 'arabic' || (digits !== 'latin' && lang === 'ar');
  const month = /^\d{4}-\d{2}$/.test(query.get('month') ?? '') ? query.get('month') : null;
  return { lang, words: WORDS[lang], arabicDigits, month };
}

/** `text` with its digits in Arabic-Indic when `arabic`. */
export function digits(text, arabic) {
  if (!arabic) return text;
  return String(text).replace(/[0-9]/g, (digit) => String.fromCharCode(0x0660 + Number(digit)));
}

/** The notices to show at `now` (not over), most urgent first (the model's order), as text. */
export function notices(model, now) {
  return (model.notices ?? []).filter((notice) => !(Date.parse(notice.end) <= now)).map((notice) => ({
    title: String(notice.title), text: String(notice.text), urgent: notice.priority === 'urgent',
  }));
}

/** Whether `model` is a month model this page reads. */
export function isReadable(model) {
  return model != null && model.version === 1 && Array.isArray(model.days) && Array.isArray(model.prayers);
}

/** The wall-clock time `05:12` (`05:12:07` with seconds) of an ISO 8601 time of the model. */
export function clock(text, seconds) {
  return text.slice(11, seconds ? 19 : 16);
}

/** `YYYY-MM` of the month `delta` months from `year`-`month`. */
export function adjacentMonth(year, month, delta) {
  const index = year * 12 + (month - 1) + delta;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** The page's title: `Prayer times · July 2027`. */
export function title(model, words, arabic) {
  return `${words.title} · ${words.months[model.month - 1]} ${digits(model.year, arabic)}`;
}

/** The Hijri months the Gregorian one spans: `Dhu al-Hijjah – Muharram 1448–1449 AH`. */
export function hijriSpan(model, lang, words, arabic) {
  const spans = [];
  for (const day of model.days) {
    if (day.hijri == null) continue;
    const name = lang === 'ar' ? day.hijri.monthNameArabic : day.hijri.monthName;
    if (spans.length === 0 || spans[spans.length - 1].name !== name) spans.push({ name, year: day.hijri.year });
  }
  if (spans.length === 0) return '';
  const first = spans[0];
  const last = spans[spans.length - 1];
  if (first.year === last.year) {
    return `${spans.map((span) => span.name).join(' – ')} ${digits(last.year, arabic)} ${words.era}`;
  }
  return `${spans.map((span) => `${span.name} ${digits(span.year, arabic)}`).join(' – ')} ${words.era}`;
}

/** The Hijri cell of a day: `{day, month}`, the month's name on the first row and on the 1st. */
export function hijriCell(day, first, lang) {
  if (day.hijri == null) return { day: '–', month: null };
  const month = first || day.hijri.day === 1 ? (lang === 'ar' ? day.hijri.monthNameArabic : day.hijri.monthName) : null;
  return { day: String(day.hijri.day), month };
}

/**
 * Whether `day` is calculated in a mosque's month: the mosque keeps a timetable here and it does not give
 * the day (a gap). A mosque with iqama rules alone marks nothing, as the screen.
 */
export function isCalculatedDay(model, day) {
  return model.mosque != null && model.timetable === true && day.calculated === true;
}

/**
 * The cells of a day after the date: for each prayer its time `{prayer, text, marks, calculated}` (text
 * `–` for a time the day does not have), then, when the prayer has an iqama column, its iqama
 * `{prayer, iqama: ['13:00', …]}` (several Jumu'ah times stacked).
 */
export function cells(model, day) {
  const result = [];
  const mosqueDay = model.mosque != null && model.timetable === true && day.calculated !== true;
  for (const prayer of model.prayers) {
    const time = day.times[prayer];
    result.push(time == null
      ? { prayer, text: '–', marks: '', calculated: false }
      : { prayer, text: clock(time.time, model.seconds), marks: time.marks, calculated: mosqueDay && !time.given });
    if (model.iqamaPrayers.includes(prayer)) {
      result.push({ prayer, iqama: (day.iqama[prayer] ?? []).map((text) => clock(text, false)) });
    }
  }
  return result;
}

/** Which marks the month uses: `{rule, borrowed, nextDay, previousDay, missing, calculatedDay, calculatedTime}`. */
export function legend(model) {
  const used = { rule: false, borrowed: false, nextDay: false, previousDay: false, missing: false,
    calculatedDay: false, calculatedTime: false };
  for (const day of model.days) {
    if (isCalculatedDay(model, day)) used.calculatedDay = true;
    for (const cell of cells(model, day)) {
      if (cell.iqama != null) continue;
      if (cell.text === '–') used.missing = true;
      if (cell.marks.includes('*')) used.rule = true;
      if (cell.marks.includes('~')) used.borrowed = true;
      if (cell.marks.includes('+')) used.nextDay = true;
      if (cell.marks.includes('-')) used.previousDay = true;
      if (cell.calculated) used.calculatedTime = true;
    }
  }
  return used;
}

/** Why the method, in words: `chosen for GB` of `country:GB`. */
export function methodSource(text, words) {
  const [kind, code] = String(text).split(':');
  const template = words.methodSources[kind];
  return template == null ? String(text) : template.replace('{code}', code ?? '');
}

/**
 * The zone and its offset over the month, as the footer's parts: `Europe/London (UTC+00:00)`, and each
 * other offset it changes to from its first day (`UTC+01:00 from 28 March`, in English one part:
 * `Europe/London (UTC+00:00, UTC+01:00 from 28 March)`; in Arabic each change a part of its own that
 * starts with its Arabic words, so that the parts keep their direction).
 */
export function zoneParts(model, words = WORDS.en) {
  const changes = [];
  for (const day of model.days) {
    const time = day.times.dhuhr ?? day.times.fajr;
    if (time == null) continue;
    const offset = `UTC${time.time.slice(19, 25)}`;
    if (changes.length > 0 && changes[changes.length - 1].offset === offset) continue;
    const date = `${Number(day.date.slice(8, 10))} ${words.months[Number(day.date.slice(5, 7)) - 1]}`;
    changes.push({ offset, date: changes.length === 0 ? null : date });
  }
  const zone = model.location.timeZone;
  if (changes.length === 0) return [zone];
  const [first, ...later] = changes;
  if (words.dir !== 'rtl') {
    const texts = [first.offset, ...later.map((change) => `${change.offset} ${words.from} ${change.date}`)];
    return [`${zone} (${texts.join(words.list)})`];
  }
  return [`${zone} (${first.offset})`, ...later.map((change) => `${words.from} ${change.date} ${change.offset}`)];
}

/**
 * The high-latitude rule as the printed timetable names it: the Moonsighting Committee's seasons
 * where they set fajr and isha, `recommended` with the rule it comes to at the place, else the rule
 * (English names are the option values, as `praykit timetable` writes them).
 */
export function ruleText(model, words) {
  const name = (rule) => (words.ruleNames ?? {})[rule] ?? rule;
  const effect = model.highLatitudeRuleInEffect;
  if (effect === 'seasons') return words.seasons;
  if (model.highLatitudeRule === 'recommended' && effect != null && effect !== 'recommended') {
    return `${name('recommended')} (${name(effect)})`;
  }
  return name(model.highLatitudeRule);
}

/** The polar resolution's name. */
export function polarText(model, words) {
  return (words.resolutionNames ?? {})[model.polarResolution] ?? model.polarResolution;
}
