import Foundation
import PrayCore

/// `praykit export` and `praykit import`: all user data as one JSON file.
enum BackupCommands {
    static let exportName = "export"
    static let importName = "import"
    static let exportOverview = "Write all preferences and the prayer log as JSON to standard output."
    static let importOverview = "Replace all preferences and the prayer log with a backup file."
    static let exportUsage = "praykit export > backup.json"
    static let importUsage = "praykit import <file>"

    static var exportHelp: String {
        HelpText.render(
            overview: exportOverview, usage: exportUsage, options: [],
            footer: "The file has sorted keys, so the same data always gives the same bytes."
        )
    }

    static var importHelp: String {
        HelpText.render(
            overview: importOverview, usage: importUsage, options: [],
            footer: """
                The whole file is checked first, then everything is replaced in one transaction: after a
                failure or an interruption the database is as it was. Use '-' to read standard input.
                """
        )
    }

    static func export(service: any BackupService) throws(CLIError) -> String {
        do {
            return String(decoding: try service.exportData().encoded(), as: UTF8.self) + "\n"
        } catch let error as StorageError {
            throw .runtime(error.description)
        } catch {
            throw .runtime("\(error)")
        }
    }

    static func `import`(_ arguments: ParsedArguments, service: any BackupService) throws(CLIError) -> String {
        guard let file = arguments.positionals.first else {
            throw .usage("Missing expected argument '<file>'", command: importName)
        }
        let data: Data
        do {
            data =
                file == "-"
                ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw .runtime("cannot read \(file): \(error.localizedDescription)")
        }
        do {
            let backup = try UserData.decoded(from: data)
            try service.importData(backup)
            return "Imported \(backup.preferences.values.count) settings and \(backup.prayerLog.count) log entries.\n"
        } catch let error as StorageError {
            throw .runtime(error.description)
        } catch {
            throw .runtime("\(error)")
        }
    }
}
