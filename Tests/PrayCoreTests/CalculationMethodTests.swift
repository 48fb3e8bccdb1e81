import Foundation
import PrayCore
import Testing

@Suite struct CalculationMethodTests {
    @Test(arguments: [
        ("mwl", CalculationMethod.muslimWorldLeague), ("ISNA", .northAmerica), ("makkah", .ummAlQura),
        ("umm_al_qura", .ummAlQura), ("Moonsighting Committee", .moonsightingCommittee), ("jafari", .jafari),
    ])
    func findsMethodsByNameOrAlias(_ name: String, _ method: CalculationMethod) throws {
        #expect(try CalculationMethod.named(name) == method)
    }

    @Test func rejectsUnknownNames() {
        #expect(throws: ValidationError.self) { try CalculationMethod.named("nope") }
    }

    @Test func aliasesAreUnique() {
        let names = CalculationMethod.allCases.flatMap { [$0.rawValue] + $0.aliases }
        #expect(Set(names).count == names.count)
    }

    @Test func presetsCarryTheirPublishedParameters() {
        let mwl = CalculationMethod.muslimWorldLeague.parameters
        #expect(mwl.fajrAngle == 18 && mwl.ishaAngle == 17 && mwl.methodAdjustments[.dhuhr] == 1)
        let makkah = CalculationMethod.ummAlQura.parameters
        #expect(makkah.fajrAngle == 18.5 && makkah.ishaInterval == 90 && makkah.ramadanIshaInterval == 120)
        let tehran = CalculationMethod.tehran.parameters
        #expect(tehran.maghribAngle == 4.5 && tehran.night == .sunsetToFajr)
        let singapore = CalculationMethod.singapore.parameters
        #expect(singapore.rounding == .up)
        let custom = CalculationMethod.custom.parameters
        #expect(custom.fajrAngle == nil && custom.ishaAngle == nil && custom.highLatitudeRule == .none)
        for method in CalculationMethod.allCases {
            #expect((try? method.parameters.validate()) != nil, "\(method)")
            #expect(!method.displayName.isEmpty)
        }
    }

    @Test func madhabSetsTheShadowFactor() {
        var parameters = CalculationParameters(method: .karachi)
        #expect(parameters.madhab == .shafi)
        parameters.madhab = .hanafi
        #expect(parameters.asrShadowFactor == 2)
        parameters.asrShadowFactor = 1.5
        #expect(parameters.madhab == nil)
    }
}
