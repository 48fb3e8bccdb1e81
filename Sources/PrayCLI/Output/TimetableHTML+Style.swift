extension TimetableHTML {
    /// The page's CSS: the paper and its margins for print (`@page`), the same width on screen (so a
    /// browser shows what will print), a fixed table layout that fits 31 rows on one page, and
    /// backgrounds kept in print. Fonts: DejaVu Sans (Debian's `fonts-dejavu-core`, which has Arabic
    /// letters too), else Noto.
    var style: String {
        let (width, _) = paper.millimetres
        let margin = 10.0
        return """
            @page { size: \(paper.cssName); margin: \(Int(margin))mm; }
            * { box-sizing: border-box; }
            bdi { unicode-bidi: -webkit-isolate; unicode-bidi: isolate; }
            html[dir="rtl"] body, html[dir="rtl"] h1, html[dir="rtl"] p { text-align: right; }
            html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
            body { margin: 0; color: #111; font-size: 9pt; line-height: 1.25;
              font-family: "DejaVu Sans", "Noto Sans", "Noto Sans Arabic", "Noto Naskh Arabic", Arial, sans-serif; }
            @media screen { body { width: \((width - 2 * margin).formattedCompactly)mm; margin: 6mm auto; } }
            header { margin-bottom: 2.5mm; }
            h1 { font-size: 15pt; margin: 0 0 1mm; color: #17402f; }
            p.sub { font-size: 10pt; margin: 0; color: #333; }
            table { width: 100%; border-collapse: collapse; table-layout: fixed; font-variant-numeric: tabular-nums; }
            col.c-date { width: 5%; } col.c-day { width: 10%; } col.c-hijri { width: 14%; }
            table.with-iqama col.c-day { width: 9%; } table.with-iqama col.c-hijri { width: 13%; }
            table.with-iqama thead th { font-size: 7.5pt; padding-left: 0.3mm; padding-right: 0.3mm; }
            th, td { border: 0.25mm solid #9aa5a0; padding: 0.7mm 0.8mm; text-align: center; white-space: nowrap;
              overflow: hidden; }
            thead th { background: #17402f; color: #fff; font-weight: bold; font-size: 8.5pt; }
            thead tr.sub th { background: #2d6a50; font-weight: normal; font-size: 7.5pt; }
            tbody td { height: 6.1mm; }
            tbody tr:nth-child(even) td { background: #f2f5f3; }
            tbody tr.friday td { background: #dcebe3; font-weight: bold; }
            td.day, td.hijri, th.hijri { text-align: start; }
            td.iqama { color: #17402f; font-weight: bold; }
            td.time, td.iqama { direction: ltr; }
            td.iqama, th.iqama { background-clip: padding-box; }
            span.jumuah-times { display: inline-block; font-size: 7pt; line-height: 1.05; }
            sup { font-size: 6pt; line-height: 0; }
            span.notable { color: #a0522d; margin-inline-start: 0.8mm; }
            footer { margin-top: 2.5mm; font-size: 7pt; color: #333; }
            footer p { margin: 0 0 0.6mm; }
            footer .label { font-weight: bold; }
            footer p.credit { margin-top: 1.2mm; color: #555; }
            """
    }
}
