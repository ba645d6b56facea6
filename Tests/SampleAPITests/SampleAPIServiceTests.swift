import Foundation
import Testing

@testable import SampleAPI

/// The server answers a request on the connection's event loop unless a delay fault pauses it: a test process's
/// cooperative pool is shared by every test in it, and a search answered there once came after a client's 30-second
/// stall limit (a `FaultToleranceTests` run in a clean clone). Only the pause needs a task.
@Suite struct SampleAPIServiceTests {
    private static let search = SampleAPIRequest(
        method: "GET", path: "/api/", query: ["key": SampleAPIServer.demoKey, "q": "flower", "per_page": "3"])

    private static func service(_ faults: [SampleAPIFault]) -> SampleAPIService {
        let configuration = SampleAPIConfiguration(faults: faults)
        return SampleAPIService(
            router: SampleAPIRouter(configuration: configuration), faults: FaultInjector(rules: faults))
    }

    @Test func aRequestWithoutAFaultIsAnsweredAtOnce() {
        guard case .now(let response) = Self.service([]).answer(to: Self.search) else {
            Issue.record("a request without a fault waits for a task")
            return
        }
        #expect(response.status == 200)
    }

    @Test func aFaultThatDoesNotPauseIsAnsweredAtOnce() {
        let service = Self.service([SampleAPIFault(.status(503, body: "Busy"), on: .api, times: 1)])
        guard case .now(let response) = service.answer(to: Self.search) else {
            Issue.record("a status fault waits for a task")
            return
        }
        #expect(response.status == 503)
    }

    @Test func onlyADelayIsAnsweredLaterAndThenAsIfNoFaultHadBeen() async {
        let service = Self.service([SampleAPIFault(.delay(milliseconds: 1), on: .api, times: 1)])
        guard case .later(let respond) = service.answer(to: Self.search) else {
            Issue.record("a delay fault is answered without its pause")
            return
        }
        #expect(await respond().status == 200)
        guard case .now = service.answer(to: Self.search) else {
            Issue.record("the request after the delay's one time waits for a task")
            return
        }
    }
}
