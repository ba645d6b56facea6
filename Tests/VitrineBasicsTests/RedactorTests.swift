import Testing

@testable import VitrineBasics
@testable import VitrineHTTP

@Suite struct RedactorTests {
    @Test func removesSecretsPlainAndPercentEncoded() {
        let redactor = Redactor(secrets: ["abc+def/123"])
        #expect(redactor.redact("key=abc+def/123&q=x") == "key=REDACTED&q=x")
        #expect(redactor.redact("key=abc%2Bdef%2F123") == "key=REDACTED")
    }

    @Test func ignoresEmptyAndTinySecrets() {
        #expect(Redactor(secrets: ["", "ab"]).redact("a tab") == "a tab")
    }

    @Test func publicURLDropsSecretQueryParameters() {
        let request = FetchRequest(
            url: "https://pixabay.com/api/?key=SECRET123&q=Hamburg&page=2", secretQueryNames: ["key"])
        #expect(request.publicURL == "https://pixabay.com/api/?q=Hamburg&page=2")
        #expect(!request.publicURL.contains("SECRET123"))
    }
}
