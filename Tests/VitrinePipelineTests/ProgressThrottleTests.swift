import Testing

@testable import VitrinePipeline

@Suite struct ProgressThrottleTests {
    let start = ContinuousClock.now

    func shown(_ events: [(ProgressEvent, milliseconds: Int)]) -> [Bool] {
        var throttle = ProgressThrottle(interval: .milliseconds(100))
        return events.map { throttle.shouldShow($0.0, at: start + .milliseconds($0.milliseconds)) }
    }

    @Test func countsInBetweenShowAtMostOncePerInterval() {
        let events = (1...10).map { (ProgressEvent.images(done: $0, total: 10), milliseconds: $0 * 30) }
        // Shown: the first (30 ms), then the first count 100 ms later (150 ms, 270 ms), and the last.
        #expect(shown(events) == [true, false, false, false, true, false, false, false, true, true])
    }

    @Test func theFirstAndLastCountOfEachPhaseAndEveryOtherEventShow() {
        let events: [(ProgressEvent, milliseconds: Int)] = [
            (.searching("Pixabay"), 0), (.images(done: 0, total: 3), 1), (.images(done: 1, total: 3), 2),
            (.retrying(reason: "HTTP 503", attempt: 1), 3), (.images(done: 2, total: 3), 4),
            (.images(done: 3, total: 3), 5), (.rendering(done: 1, total: 9), 6), (.rendering(done: 2, total: 9), 7),
            (.rendering(done: 9, total: 9), 8), (.warning("one image failed"), 9),
        ]
        #expect(shown(events) == [true, true, false, true, true, true, true, false, true, true])
    }
}
