extension Double {
    /// The shortest decimal text that reads back as the same number, without a trailing `.0` for
    /// whole numbers: `18` rather than `18.0`, `19.5` stays `19.5`.
    ///
    /// Used in messages and tables where a person reads the number.
    package var formattedCompactly: String {
        if self == rounded(), abs(self) < 1e15 {
            return String(Int64(self))
        }
        return "\(self)"
    }
}
