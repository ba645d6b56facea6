/// The version of Vitrine, as the command line and the User-Agent report it.
public enum VitrineVersion {
    /// The version of this build, as `vitrine --version` prints it and the HTTP user agent sends it.
    public static let current = "0.1.0"
}
