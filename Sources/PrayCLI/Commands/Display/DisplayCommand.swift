/// `praykit display`: setting up a screen by the door, which `praykit serve --display` serves.
///
/// A group of verbs rather than `praykit display --print-units`: every other group of the command line
/// acts through a verb (`sync watch`, `mosque follow`), and a verb leaves room beside `units` for what a
/// screen may need next.
enum DisplayCommand: CommandGroup {
    static let name = "display"
    static let abstract = "Set up a screen by the door: the systemd units of its server and its kiosk."
    static let discussion = """
        The screen itself is 'praykit serve --display' (docs/display.md). 'praykit display units' prints
        the two systemd user units that run it on the screen's machine — the server, and Chromium in kiosk
        mode, each restarted when it dies — for this machine's praykit, with how to follow a mosque with
        its code and how to check the clock. (A verb, as in every group, rather than a --print-units
        option.)
        """
    static let examples = [
        "praykit display units", "praykit display units --lang ar --port 8090",
        "praykit display units --only server > ~/.config/systemd/user/praykit-display.service",
    ]
    static let subcommands: [any CommandNode.Type] = [DisplayUnitsCommand.self]
    /// `praykit display` alone prints the units.
    static let defaultSubcommand: (any Command.Type)? = DisplayUnitsCommand.self
}
