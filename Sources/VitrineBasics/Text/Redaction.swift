import Foundation

/// Removes secret values (API keys) from anything that may reach a log, an error message, a file or a file name.
package struct Redactor: Sendable {
    private let secrets: [String]

    package init(secrets: [String]) {
        self.secrets = secrets.filter { $0.count >= 4 }.sorted { $0.count > $1.count }
    }

    package func redact(_ text: String) -> String {
        var result = text
        for secret in secrets {
            result = result.replacingOccurrences(of: secret, with: "REDACTED")
            let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? secret
            if encoded != secret { result = result.replacingOccurrences(of: encoded, with: "REDACTED") }
        }
        return result
    }
}
