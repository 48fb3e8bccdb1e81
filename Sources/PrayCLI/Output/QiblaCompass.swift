import PrayCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension QiblaCommand {
    /// The compass half of `praykit qibla`: the magnetic bearing and the declination used, or why
    /// there is none (a date outside the model's years), and what a person should know near the
    /// magnetic poles.
    struct Compass {
        /// The model asked.
        let model: MagneticModel
        /// The day of the declination.
        let date: CivilDate
        /// The field, or `nil` when the model refused the date.
        let field: MagneticField?
        /// The bearing a compass shows: `nil` when refused, and at the Kaaba (where every direction
        /// faces it).
        let bearing: Double?
        /// Why the model gave no field.
        let refusal: String?

        /// Asks the model for the field at `coordinates` (height: their elevation) at the start of `date`.
        /// - Throws: What the service throws, but a refused date, which becomes ``refusal``.
        init(qibla: Qibla, at coordinates: Coordinates, on date: CivilDate, service: any MagneticFieldService) throws {
            model = service.model
            self.date = date
            do {
                let field = try service.field(at: coordinates, heightMeters: coordinates.elevation, on: date)
                self.field = field
                bearing = qibla.degeneracy == .atKaaba ? nil : field.magneticBearing(fromTrue: qibla.direction)
                refusal = nil
            } catch let error as MagneticFieldError where error.kind == .outsideValidity {
                field = nil
                bearing = nil
                refusal = error.message
            }
        }

        /// `WMM2025, 2026-12-01`.
        private var source: String { "\(model.name), \(date)" }

        /// What a person should know about the compass here: the model's caution and blackout zones,
        /// or why there is no compass bearing.
        var note: String? {
            guard let field else { return refusal }
            let reliability = field.declinationReliability
            guard reliability != .reliable else { return nil }
            // The field dips down (I > 0) near the north magnetic pole and up near the south one.
            let pole = field.inclination >= 0 ? "north" : "south"
            let strength = "\(field.horizontalIntensity.fixed(0)) nT"
            switch reliability {
            case .caution:
                return "the horizontal magnetic field here is weak (\(strength), under 6000 nT): \(model.name) marks "
                    + "this a caution zone near the \(pole) magnetic pole, where a compass may be unreliable and the "
                    + "declination may be off by several degrees."
            default:
                return "the horizontal magnetic field here is very weak (\(strength), under 2000 nT): \(model.name) "
                    + "marks this a blackout zone near the \(pole) magnetic pole, where a compass is unreliable and "
                    + "the declination cannot be trusted; use the true bearing with a map, the sun or the stars."
            }
        }

        /// The lines of the table after the true bearing.
        var tableLines: [String] {
            guard let field else {
                return [
                    "Magnetic bearing (compass): not available: \(refusal ?? "the model gave no field")",
                    "Declination: not available (\(source))",
                ]
            }
            let declination = Self.declination(field.declination)
            let reliability = field.declinationReliability
            let bearingLine: String
            switch (bearing, reliability) {
            case (nil, _): bearingLine = "Magnetic bearing (compass): none (at the Kaaba)"
            case (_, .blackout): bearingLine = "Magnetic bearing (compass): not given, a compass is unreliable here"
            case (let bearing?, .caution):
                bearingLine = "Magnetic bearing (compass): \(Self.bearing(bearing)), may be unreliable here"
            case (let bearing?, .reliable): bearingLine = "Magnetic bearing (compass): \(Self.bearing(bearing))"
            }
            let unreliable = reliability == .reliable ? "" : ", unreliable here"
            return [bearingLine, "Declination: \(declination)\(unreliable) (\(source))"]
        }

        /// The members `qibla --format json` adds after the true bearing's.
        var jsonMembers: [(String, JSON)] {
            var members: [(String, JSON)] = [
                ("magneticDirection", .number(bearing)),
                ("declination", .number(field?.declination)),
                ("magneticModel", .string(model.name)),
                ("magneticDate", .string(date.description)),
                ("magneticZone", .string(field?.declinationReliability.rawValue)),
            ]
            if let field {
                members.append(
                    (
                        "magneticField",
                        .object([
                            ("declination", .number(field.declination)),
                            ("inclination", .number(field.inclination)),
                            ("horizontalIntensity", .number(field.horizontalIntensity)),
                            ("north", .number(field.north)),
                            ("east", .number(field.east)),
                            ("down", .number(field.down)),
                            ("totalIntensity", .number(field.totalIntensity)),
                            ("heightMeters", .number(field.heightMeters)),
                            ("decimalYear", .number(field.year.value)),
                        ])
                    ))
            } else {
                members.append(("magneticField", .null))
            }
            if let note { members.append(("magneticNote", .string(note))) }
            return members
        }

        /// `71.3° (ENE)`: a tenth of a degree, as much as the model's declination is worth.
        static func bearing(_ value: Double) -> String {
            let tenths = (value * 10).rounded() / 10
            return "\((tenths == 360 ? 0 : tenths).fixed(1))°" + " (\(CompassPoint(bearing: value)))"
        }

        /// `3.2° E`, `12.9° W`, `0.0°`.
        static func declination(_ value: Double) -> String {
            let magnitude = (abs(value) * 10).rounded() / 10
            guard magnitude > 0 else { return "0.0°" }
            return "\(magnitude.fixed(1))°" + (value > 0 ? " E" : " W")
        }
    }
}
