/// How a key of a `[[gallery]]` table goes onto its gallery command's command line.
enum ConfigKeyKind {
    /// The command's argument: the value as it is.
    case argument
    /// `--key=value`, once for each element of an array.
    case option
    /// `--key` when the value is true, nothing when it is false.
    case flag
}
