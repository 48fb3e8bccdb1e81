import Foundation
import PrayCore
import Testing

@testable import PrayServer

/// A rejection's reason says what is wrong with a mutation without repeating its value.
@Suite struct SyncRejectionReasonTests {
    @Test func aReasonNeverRepeatsWhatWasPushed() throws {
        let hlc = try HLC(milliseconds: 1, counter: 0, clientID: "c_" + String(repeating: "a", count: 32))
        let mutation = SyncAPI.Mutation(
            id: 1, collection: .pref, key: "iqama", op: .put, hlc: hlc, value: .pref(.init(value: "fajr=Secret9")))
        for message in [
            "fajr-angle must be a number, got 'Secret9'", "Secret9 is not a coordinate",
            "the place's key is 'current'", "iqama fajr=Secret9 must look like fajr=+20",
        ] {
            let reason = SyncServerRules.redactedReason(message, of: mutation)
            #expect(!reason.contains("Secret9"), "\(reason)")
        }
        #expect(SyncServerRules.cutQuotedAndGot("the place's key is 'current'") == "the place's key is '…'")
        #expect(SyncServerRules.cutQuotedAndGot("must be 1 to 12, got 13") == "must be 1 to 12, got …")
        #expect(
            SyncServerRules.cutQuotedAndGot("a note has at most 500 characters") == "a note has at most 500 characters")
    }

    @Test func theKeyIsNamedTheValueIsNot() throws {
        let hlc = try HLC(milliseconds: 1, counter: 0, clientID: "c_" + String(repeating: "a", count: 32))
        let mutation = SyncAPI.Mutation(
            id: 1, collection: .pref, key: "future-setting", op: .put, hlc: hlc, value: .pref(.init(value: "Secret9")))
        #expect(
            SyncServerRules.redactedReason("'future-setting' is not a setting that syncs", of: mutation)
                == "'future-setting' is not a setting that syncs")
        #expect(
            SyncServerRules.redactedReason("future-setting must be a number, got 'Secret9'", of: mutation)
                == "future-setting must be a number, got …")
    }

    @Test func aWordIsCutInAnyCaseOnlyWhereItStandsAlone() {
        #expect(
            SyncServerRules.replacingWord("Secret9", in: "got SECRET9, secret9x and secret9.")
                == "got …, secret9x and ….")
        // Full case folding: ß is ss, ς is σ, the ligature ﬁ is fi; the dotless ı is not i.
        #expect(SyncServerRules.replacingWord("strasse", in: "Straße STRASSE") == "… …")
        #expect(SyncServerRules.replacingWord("ΣΑΣ", in: "σας") == "…")
        #expect(SyncServerRules.replacingWord("fine", in: "ﬁne") == "…")
        #expect(SyncServerRules.replacingWord("ist", in: "ıst IST") == "ıst …")
        // Half of one letter's folding is no match: s is not the first half of ß.
        #expect(SyncServerRules.replacingWord("s", in: "ß s") == "ß …")
        // Letters and digits of any script are word characters; U+0345, which folds to ι, too.
        #expect(SyncServerRules.replacingWord("abc", in: "abc٣ éabc abc\u{345} -abc-") == "abc٣ éabc abc\u{345} -…-")
        #expect(SyncServerRules.replacingWord("a.b", in: "a.b aXb") == "… aXb")
    }

    @Test func theLeavesOfAValueAreItsStringsAndNumbersAsTheyWereRead() throws {
        let text =
            #"{"a":[true,false,null,-0,1,1.5,1e+16,0.3333333333333333,1.2345678901234567e+19,1E2],"b":"\u00e9\n"}"#
        let leaves = try #require(SyncServerRules.jsonLeaves(Array(text.utf8)))
        #expect(
            Set(leaves) == [
                "1", "0", "1.5", "1e+16", "0.3333333333333333", "12345678901234567000", "100.0", "é\n",
            ])
        #expect(SyncServerRules.jsonLeaves(Array("[1,".utf8)) == nil)
        #expect(SyncServerRules.jsonLeaves(Array("[01]".utf8)) == nil)
        #expect(SyncServerRules.jsonLeaves(Array(#"["\ud800"]"#.utf8)) == nil)
        #expect(SyncServerRules.jsonNumberText("18446744073709551615") == "18446744073709551615")
        #expect(SyncServerRules.jsonNumberText("-9223372036854775809") == "-9223372036854775809")
        #expect(SyncServerRules.jsonNumberText("1.7976931348623157e+308") == "1.7976931348623157e+308")
    }

    @Test func aStoresFolderIsItsPathWithoutTheLastName() {
        for (path, folder) in [
            ("/a/b/store.db", "/a/b"), ("/store.db", "/"), ("store.db", ""), ("a", ""), ("a/b/", "a"), ("a//b", "a"),
            ("//a", "/"), ("../x/y", "../x"), ("", ""), ("/", "/"),
        ] {
            #expect(FilePath.folder(of: path) == folder, "\(path)")
        }
    }
}
