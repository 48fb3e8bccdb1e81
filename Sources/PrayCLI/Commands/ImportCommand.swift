import Foundation
import PrayCore

/// `praykit import`: replaces all user data with a backup file.
enum ImportCommand: Command {
    static let name = "import"
    static let changesSyncedData = true
    static let abstract = "Replace all preferences and the prayer log with a backup file."
    static let discussion = """
        The whole file is checked first (its shape, every value, no prayer logged twice on a day), then
        everything is replaced in one transaction: after a failure or an interruption the database is as
        it was. Use '-' to read standard input.
        """
    static let examples = ["praykit import backup.json", "praykit export | ssh host praykit import -"]
    static let file = Argument<String>("file", help: "The backup file, or - for standard input.", completion: .file)
    static let arguments: [any ArgumentDefinition] = [file]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws {
        let file = arguments[file]
        let data: Data
        if file == "-" {
            data = context.readStandardInput()
        } else {
            guard let contents = FileManager.default.contents(atPath: file) else {
                var isFolder: ObjCBool = false
                let exists = FileManager.default.fileExists(atPath: file, isDirectory: &isFolder)
                throw CLIError.runtime(
                    "cannot read \(file): "
                        + (!exists ? "no such file" : isFolder.boolValue ? "it is a folder" : "permission denied"))
            }
            data = contents
        }
        let backup = try UserData.decoded(from: data)
        try context.dependency.backup().importData(backup)
        try context.output.write(
            "Imported \(backup.preferences.values.count) settings and \(backup.prayerLog.count) log entries.\n")
    }
}
