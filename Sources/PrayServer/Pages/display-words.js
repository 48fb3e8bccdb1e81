// The screen's words in English and Arabic. A language is chosen per screen (`?lang=ar`); its
// digits too (`?digits=arabic`, Arabic-Indic; Arabic's default), independently.

/** The words of each language, by key. `{prayer}` stands for a prayer's name. */
export const WORDS = {
  en: {
    dir: 'ltr',
    locale: 'en-GB',
    prayers: {
      fajr: 'Fajr', sunrise: 'Sunrise', dhuhr: 'Dhuhr', jumuah: "Jumu'ah", asr: 'Asr', maghrib: 'Maghrib', isha: 'Isha',
      'eid-fitr': 'Eid al-Fitr', 'eid-adha': 'Eid al-Adha',
    },
    adhan: 'Adhan',
    iqama: 'Iqama',
    tomorrow: 'tomorrow',
    before: '{prayer} adhan in',
    adhanNow: 'Adhan · {prayer}',
    iqamaIn: '{prayer} iqama in',
    eidIn: '{prayer} prayer in',
    eidAt: 'Prayer {time}',
    silence: 'Please silence your phones',
    prayer: '{prayer} · prayer in progress',
    since: 'since iqama',
    after: 'After {prayer}',
    next: 'Next: {prayer}',
    iqamaChange: 'From tomorrow, {prayer} iqama {time}',
    suhoor: 'Suhoor ends {time} (imsak {imsak})',
    iftar: 'Iftar {time}',
    stale: 'Times out of date',
    clockWrong: "This screen's clock is wrong",
    loading: 'Loading the times…',
    offline: 'No times yet: waiting for the server',
    hijriSuffix: 'AH',
    calculated: "calculated: not in the mosque's timetable",
  },
  ar: {
    dir: 'rtl',
    locale: 'ar',
    prayers: {
      fajr: 'الفجر', sunrise: 'الشروق', dhuhr: 'الظهر', jumuah: 'الجمعة', asr: 'العصر', maghrib: 'المغرب', isha: 'العشاء',
      'eid-fitr': 'عيد الفطر', 'eid-adha': 'عيد الأضحى',
    },
    adhan: 'الأذان',
    iqama: 'الإقامة',
    tomorrow: 'غدًا',
    before: 'أذان {prayer} بعد',
    adhanNow: 'الأذان · {prayer}',
    iqamaIn: 'إقامة {prayer} بعد',
    eidIn: 'صلاة {prayer} بعد',
    eidAt: 'الصلاة {time}',
    silence: 'يرجى إغلاق الهواتف',
    prayer: 'صلاة {prayer} قائمة',
    since: 'منذ الإقامة',
    after: 'بعد صلاة {prayer}',
    next: 'الصلاة القادمة: {prayer}',
    iqamaChange: 'ابتداءً من الغد، إقامة {prayer} {time}',
    suhoor: 'ينتهي السحور {time} (الإمساك {imsak})',
    iftar: 'الإفطار {time}',
    stale: 'المواقيت غير محدّثة',
    clockWrong: 'ساعة هذه الشاشة غير صحيحة',
    loading: 'جارٍ تحميل المواقيت…',
    offline: 'لا مواقيت بعد: في انتظار الخادم',
    hijriSuffix: 'هـ',
    calculated: 'محسوب: ليس في جدول المسجد',
  },
};

/** The screen's language and digits from the page's query (`?lang=ar&digits=latin`). */
export function choose(search) {
  const query = new URLSearchParams(search);
  const lang = Object.hasOwn(WORDS, query.get('lang') ?? '') ? query.get('lang') : 'en';
  const digits = query.get('digits');
  const arabicDigits = digits === 'arabic' || (digits !== 'latin' && lang === 'ar');
  return { lang, words: WORDS[lang], arabicDigits };
}

/** `template` with each `{name}` replaced by `values[name]`. */
export function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? values[name] : whole));
}
