/// A config file that cannot be used, with where in it the problem is.
struct ConfigError: CommandLineFailure {
    var file: String
    var line: Int?
    var key: String?
    var problem: String

    var sentence: String {
        var place = file
        if let line { place += ", line \(line)" }
        if let key { place += ", key \(key)" }
        let text = problem.hasSuffix(".") ? String(problem.dropLast()) : problem
        return "\(place): \(text)."
    }

    var exitStatus: ExitStatus { .usage }
}
