/// Facts about this build of PrayKit.
public enum PrayKitInfo {
    /// The package version, as `praykit --version` prints it and the network client's `User-Agent`
    /// sends it.
    public static let version = "0.1.0"
}
