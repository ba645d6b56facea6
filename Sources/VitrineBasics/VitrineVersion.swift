/// The version of Vitrine, as the command line and the User-Agent report it.
public enum VitrineVersion {
    public static let current = "0.1.0"
}
