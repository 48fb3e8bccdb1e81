#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension TimetableHTML {
    /// The page's CSS: the paper and its margins for print (`@page`), the same width on screen (so a
    /// browser shows what will print), a fixed table layout that fits 31 rows on one page, and
    /// backgrounds kept in print. Fonts: DejaVu Sans (Debian's `fonts-dejavu-core`, which has Arabic
    /// letters too), else Noto. The columns' widths and the times' size come from `layout`
    /// (``ColumnLayout``); a long Hijri month name (Jumada al-Akhirah) wraps in its cell rather than
    /// being cut, and two or three Jumu'ah times stack in a smaller size, so that a Friday row keeps
    /// the height of the others.
    func style(_ layout: ColumnLayout) -> String {
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
            th, td { border: 0.25mm solid #9aa5a0; padding: 0.7mm \(ColumnLayout.padding(iqama: layout.withIqama))mm;
              text-align: center; white-space: nowrap; overflow: hidden; }
            thead th { background: #17402f; color: #fff; font-weight: bold; font-size: 8.5pt; }
            thead tr.sub th { background: #2d6a50; font-weight: normal; font-size: 7.5pt; }
            table.with-iqama thead th { font-size: 7.5pt; padding-left: 0.3mm; padding-right: 0.3mm; }
            td.date, td.day, td.hijri { font-size: 9pt; }
            table.with-iqama td.day { font-size: 8pt; }
            tbody td { height: 6.1mm; }
            tbody tr:nth-child(even) td { background: #f2f5f3; }
            tbody tr.friday td { background: #dcebe3; font-weight: bold; }
            td.day, td.hijri, th.hijri { text-align: start; }
            td.hijri { white-space: normal; line-height: 1.1; }
            td.hijri b { font-size: 8pt; }
            td.iqama { color: #17402f; font-weight: bold; }
            td.iqama, th.iqama { background-clip: padding-box; }
            span.jumuah-times { display: block; margin: -0.7mm 0; font-size: \(ColumnLayout.jumuahSize)pt;
              line-height: 1; }
            span.ampm { font-size: \(ColumnLayout.small)em; margin-inline-start: \(ColumnLayout.ampmGap)mm; }
            span.marks { font-size: \(ColumnLayout.small)em; }
            span.notable { color: #a0522d; margin-inline-start: 0.8mm; }
            footer { margin-top: 2mm; font-size: 7pt; line-height: 1.2; color: #333; }
            footer p { margin: 0 0 0.5mm; }
            footer .label { font-weight: bold; }
            footer p.credit { margin-top: 1mm; color: #555; }
            """
    }

    /// How the table's columns share its width, and the size its times are set in.
    ///
    /// The date, the weekday and the Hijri date take fixed shares; the times (and iqama columns)
    /// share the rest by what their widest cell needs — its clock, then its marks (`~+1`) and am or pm
    /// at ``small`` of its size — measured in DejaVu Sans Bold's advance widths (bold: Fridays and
    /// iqama times are bold, and bold is the wider). When the times need more than there is (a
    /// 12-hour clock with iqama columns and marks after midnight), they are set smaller, down to
    /// ``smallest`` points, rather than cut.
    struct ColumnLayout {
        /// Percent of the table's width, one per `<col>`: date, weekday, Hijri date, then each time and
        /// its iqama column when it has one.
        let widths: [Double]
        /// The size of the times, points.
        let fontSize: Double
        /// Whether the table has iqama columns.
        let withIqama: Bool

        /// Marks and am/pm, as a share of the time's size.
        static let small = 0.7
        /// The space before am or pm, millimetres.
        static let ampmGap = 0.2
        /// The size of stacked Jumu'ah times, points.
        static let jumuahSize = 6.5
        /// The smallest size times are set in, points.
        static let smallest = 6.5
        private static let millimetresPerPoint = 25.4 / 72
        /// Room for a font a little wider than DejaVu Sans (Noto Sans), and for rounding.
        private static let safety = 1.06

        /// The horizontal padding of a cell, millimetres each side.
        static func padding(iqama: Bool) -> Double { iqama ? 0.4 : 0.8 }

        /// What one time column's widest cell needs: the ems of its widest time at the time's size
        /// (with the gap before am), or the millimetres of stacked Jumu'ah times, whichever is wider.
        struct Need {
            private var ems = 0.0
            private var gap = 0.0
            private var stacked = 0.0

            /// A time in a cell: `clock` at the cell's size, `half` (am, pm) and `marks` smaller.
            static func cell(clock: String, half: String?, marks: String = "") -> Need {
                var need = Need()
                need.ems = ColumnLayout.ems(clock) + small * (ColumnLayout.ems(half ?? "") + ColumnLayout.ems(marks))
                need.gap = half == nil ? 0 : ampmGap
                return need
            }

            /// One of the Jumu'ah times stacked at ``jumuahSize``, whatever the cell's size.
            static func stacked(clock: String, half: String?) -> Need {
                var need = Need()
                need.stacked = cell(clock: clock, half: half).millimetres(at: jumuahSize)
                return need
            }

            /// The width this needs with times of `size` points, millimetres (padding not included).
            func millimetres(at size: Double) -> Double {
                max(ems * size * ColumnLayout.millimetresPerPoint * ColumnLayout.safety + gap, stacked)
            }

            /// Makes this need as much as `other` too.
            mutating func widen(to other: Need) {
                ems = max(ems, other.ems)
                gap = max(gap, other.gap)
                stacked = max(stacked, other.stacked)
            }
        }

        /// The layout of a table `tableWidth` millimetres wide whose time columns need `needs`.
        init(needs: [Need], tableWidth: Double, withIqama: Bool) {
            self.withIqama = withIqama
            let fixed = withIqama ? [3.5, 7.5, 12.0] : [5.0, 10.0, 20.0]
            let available = tableWidth * (1 - fixed.reduce(0, +) / 100)
            let edges = 2 * Self.padding(iqama: withIqama) + 0.25
            func widths(at size: Double) -> [Double] { needs.map { $0.millimetres(at: size) + edges } }
            var size = withIqama ? 8.5 : 9
            while size > Self.smallest, widths(at: size).reduce(0, +) > available { size -= 0.25 }
            let columns = widths(at: size)
            let total = columns.reduce(0, +)
            // What is left over goes to each column in proportion to what it needs.
            let scale = total > 0 ? available / total : 1
            self.widths = fixed + columns.map { $0 * scale / tableWidth * 100 }
            fontSize = size
        }

        /// The width of `text` in ems of DejaVu Sans Bold (1 em for a character not in the table).
        static func ems(_ text: String) -> Double {
            text.unicodeScalars.reduce(0) { sum, scalar in
                sum
                    + {
                        switch scalar {
                        case "0"..."9": 0.696
                        case "\u{0660}"..."\u{0669}": 0.61
                        case ":": 0.4
                        case "~", "+": 0.838
                        case "-": 0.415
                        case "*": 0.523
                        case "a": 0.675
                        case "m": 1.042
                        case "p": 0.716
                        case "\u{0635}": 1.345  // ص
                        case "\u{0645}": 0.733  // م
                        default: 1
                        }
                    }()
            }
        }
    }
}
