/// Decides which progress events a live terminal line shows: every event that is not a count, the first and the
/// last count of each phase, and the counts in between at most once per `interval`, so that a build of thousands of
/// images and pages rewrites its line a few times a second instead of once per file.
package struct ProgressThrottle: Sendable {
    package let interval: Duration
    private var lastShown: ContinuousClock.Instant?
    private var lastPhase: Phase?

    private enum Phase { case images, encoding, rendering }

    package init(interval: Duration = .milliseconds(100)) {
        self.interval = interval
    }

    /// Whether `event`, arriving at `now`, should be shown; records it as shown when it should.
    package mutating func shouldShow(_ event: ProgressEvent, at now: ContinuousClock.Instant) -> Bool {
        let phase: Phase
        switch event {
        case .images(let done, let total):
            phase = .images
            if done >= total { return shown(phase, at: now) }
        case .encoding(let done, let total):
            phase = .encoding
            if done >= total { return shown(phase, at: now) }
        case .rendering(let done, let total):
            phase = .rendering
            if done >= total { return shown(phase, at: now) }
        default:
            lastPhase = nil
            return true
        }
        if phase == lastPhase, let lastShown, now - lastShown < interval { return false }
        return shown(phase, at: now)
    }

    private mutating func shown(_ phase: Phase, at now: ContinuousClock.Instant) -> Bool {
        lastPhase = phase
        lastShown = now
        return true
    }
}
