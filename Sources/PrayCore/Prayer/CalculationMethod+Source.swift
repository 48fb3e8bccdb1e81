extension CalculationMethod {
    /// Where the preset's parameters come from, as one sentence: the authority, the published rule,
    /// and the library or table that carries the minute adjustments.
    ///
    /// "Adhan" is batoulapps/adhan (adhan-swift, adhan-js), whose presets carry the minute adjustments
    /// (dhuhr +1 and so on); "AlAdhan" is islamic-network/prayer-times (`Method::getMethods()`, the
    /// numbers of the AlAdhan API) and api.aladhan.com (`PrayerTimesHelper::applyMethodSpecificTuning`,
    /// the minutes it adds for some methods).
    public var source: String {
        switch self {
        case .muslimWorldLeague:
            "Muslim World League: fajr 18°, isha 17° (AlAdhan 3, PrayTimes.org); dhuhr +1 min from Adhan."
        case .egyptian:
            "Egyptian General Authority of Survey: fajr 19.5°, isha 17.5° (AlAdhan 5); dhuhr +1 min from Adhan."
        case .karachi:
            "University of Islamic Sciences, Karachi: fajr 18°, isha 18° (AlAdhan 1); dhuhr +1 min from Adhan."
        case .ummAlQura:
            "Umm al-Qura University, Makkah: fajr 18.5° (19° before 1430 AH), isha 90 min after maghrib, 120 in "
                + "Ramadan (AlAdhan 4 and api.aladhan.com; Adhan)."
        case .dubai:
            "The UAE's General Authority of Islamic Affairs and Endowments: fajr and isha 18.2° (AlAdhan 16); "
                + "sunrise −3, dhuhr, asr and maghrib +3 min from Adhan (api.aladhan.com adds dhuhr, maghrib and "
                + "sunset +3)."
        case .moonsightingCommittee:
            "Moonsighting Committee Worldwide (Khalid Shaukat, moonsighting.com): fajr and isha from the "
                + "committee's seasonal curves, bounded by 18° and by one seventh of the night from 55° of "
                + "latitude, dhuhr +5 and maghrib +3 min, as Adhan implements it (AlAdhan 15 uses the curves alone)."
        case .northAmerica:
            "Islamic Society of North America: fajr 15°, isha 15° (AlAdhan 2); dhuhr +1 min from Adhan."
        case .kuwait:
            "Kuwait's Ministry of Awqaf and Islamic Affairs: fajr 18°, isha 17.5° (AlAdhan 9, Adhan)."
        case .qatar:
            "Qatar's Ministry of Awqaf and Islamic Affairs: fajr 18°, isha 90 min after maghrib (AlAdhan 10, Adhan)."
        case .singapore:
            "Majlis Ugama Islam Singapura: fajr 20°, isha 18° (AlAdhan 11); dhuhr +1 min and rounding up from Adhan."
        case .tehran:
            "Institute of Geophysics, University of Tehran: fajr 17.7°, maghrib 4.5°, isha 14°, midnight from "
                + "sunset to fajr (AlAdhan 7, Adhan)."
        case .turkey:
            "Diyanet İşleri Başkanlığı (approximated; Diyanet publishes tables): fajr 18°, isha 17°, sunrise −7, "
                + "dhuhr +5, asr +4, maghrib +7 min (AlAdhan 13 with api.aladhan.com's minutes, Adhan)."
        case .gulf:
            "Gulf region: fajr 19.5°, isha 90 min after maghrib (AlAdhan 8)."
        case .franceUOIF:
            "Union des Organisations Islamiques de France: fajr 12°, isha 12° (AlAdhan 12)."
        case .france15:
            "France, 15°: fajr and isha 15°, as mosques using ISNA's angle publish them (PrayTimes.org)."
        case .france18:
            "France, 18°: fajr and isha 18°, as the Grande Mosquée de Paris publishes them."
        case .russia:
            "Spiritual Administration of Muslims of Russia: fajr 16°, isha 15° (AlAdhan 14)."
        case .jakim:
            "Jabatan Kemajuan Islam Malaysia: fajr 18° since the 116th Muzakarah of the National Council for "
                + "Islamic Religious Affairs Malaysia (MKI), 20–21 November 2019, announced by JAKIM's "
                + "Director-General and applied by the states from 29 November 2019 (before: 20°, Kelantan 19°); "
                + "isha 18°; sunrise −1 and dhuhr +1 min, rounded up (precautionary minutes). AlAdhan 17 still "
                + "uses 20°."
        case .kemenag:
            "Kementerian Agama Republik Indonesia: fajr 20°, isha 18° (AlAdhan 20), maghrib 1° below the horizon "
                + "and the ministry's precautionary minutes (ihtiyat): fajr, asr, maghrib and isha +2, dhuhr +3, "
                + "sunrise −4 min, rounded up."
        case .tunisia:
            "Tunisia's Ministry of Religious Affairs: fajr 18°, isha 18° (AlAdhan 18)."
        case .algeria:
            "Algeria's Ministry of Religious Affairs and Wakfs: fajr 18°, isha 17° (AlAdhan 19)."
        case .morocco:
            "Morocco's Ministry of Habous and Islamic Affairs: fajr 19°, isha 17° (AlAdhan 21), dhuhr and "
                + "maghrib +5 min (api.aladhan.com), sunrise −3 min (the ministry's published tables)."
        case .portugal:
            "Comunidade Islâmica de Lisboa: fajr 18°, maghrib 3 min after sunset, isha 77 min after maghrib "
                + "(AlAdhan 22), dhuhr +5 min (api.aladhan.com)."
        case .jordan:
            "Jordan's Ministry of Awqaf, Islamic Affairs and Holy Places: fajr 18°, maghrib 5 min after sunset, "
                + "isha 18° (AlAdhan 23)."
        case .jafari:
            "Shia Ithna Ashari, Leva Institute, Qum: fajr 16°, maghrib 4°, isha 14°, midnight from sunset to "
                + "fajr (AlAdhan 0, Adhan)."
        case .custom:
            "Nothing preset: only the angles, intervals and adjustments given."
        }
    }
}
