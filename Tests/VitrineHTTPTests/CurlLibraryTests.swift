import Testing

@testable import VitrineBasics
@testable import VitrineHTTP

/// libcurl is loaded at run time (`CurlLibrary`): a library that cannot be loaded, or is not libcurl, is one
/// sentence and no transfer, never a crash.
@Suite struct CurlLibraryTests {
    @Test func theInstalledLibraryLoads() throws {
        let library = try CurlLibrary.load(CurlLibrary.soname).get()
        #expect(library.errorText(.init(rawValue: 6)).contains("resolve"))
    }

    @Test func aMissingLibraryIsOneSentenceNamingIt() throws {
        let failure = try #require(CurlLibrary.load("libvitrine-no-such-curl.so.4").failure)
        guard case .httpUnavailable(let reason) = failure else {
            Issue.record("\(failure)")
            return
        }
        #expect(reason.hasPrefix("libcurl could not be loaded (") && reason.contains("libvitrine-no-such-curl.so.4"))
        #expect(failure.sentence.hasPrefix("Vitrine cannot make HTTP requests: libcurl could not be loaded ("))
        #expect(failure.sentence.hasSuffix("install Debian's libcurl4 package."))
        #expect(!failure.sentence.contains("\n"))
    }

    @Test func aLibraryThatIsNotLibcurlIsRefused() throws {
        let failure = try #require(CurlLibrary.load("libm.so.6").failure)
        #expect(failure == .httpUnavailable(reason: "libm.so.6 lacks a function Vitrine calls"))
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
