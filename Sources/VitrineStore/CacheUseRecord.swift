import Foundation
import VitrineBasics

/// What the last build of one output folder used of the cache, kept beside its other records
/// (`builds/ab/DIGEST.uses`) and replaced whole at the end of each build: when it ended, by the clock of the build,
/// the output folder it was of (so that the records of a folder that no longer exists can go), what it reused and
/// fetched, and every cache file it used. An entry's last use is the newest of these records that names it.
///
/// The format is lines of text: `vitrine-uses 1`, `time SECONDS`, `output PATH`, `counts REUSED-ANSWERS
/// FETCHED-ANSWERS REUSED-IMAGES FETCHED-IMAGES`, then `used PATH` (cache-relative) for each file.
package struct CacheUseRecord: Equatable, Sendable {
    private static let header = "vitrine-uses 1"

    /// What a build reused from the cache and fetched.
    package struct Counts: Equatable, Sendable {
        package var reusedAnswers = 0
        package var fetchedAnswers = 0
        package var reusedImages = 0
        package var fetchedImages = 0

        package init(reusedAnswers: Int = 0, fetchedAnswers: Int = 0, reusedImages: Int = 0, fetchedImages: Int = 0) {
            self.reusedAnswers = reusedAnswers
            self.fetchedAnswers = fetchedAnswers
            self.reusedImages = reusedImages
            self.fetchedImages = fetchedImages
        }
    }

    package var time: Date
    /// The output folder's standardized path.
    package var output: String
    package var counts: Counts
    /// Cache-relative paths of the files the build used.
    package var used: Set<String>

    package init(time: Date, output: String, counts: Counts, used: Set<String>) {
        self.time = time
        self.output = output
        self.counts = counts
        self.used = used
    }

    /// The record as its file holds it, its paths sorted; nil when a path could not be read back (a line break).
    package func encoded() -> [UInt8]? {
        guard !output.utf8.contains(0x0A), !used.contains(where: { $0.isEmpty || $0.utf8.contains(0x0A) }) else {
            return nil
        }
        var text = "\(Self.header)\ntime \(Int64(time.timeIntervalSince1970.rounded(.down)))\noutput \(output)\n"
        text +=
            "counts \(counts.reusedAnswers) \(counts.fetchedAnswers) \(counts.reusedImages) \(counts.fetchedImages)\n"
        for path in used.sorted() { text += "used \(path)\n" }
        return Array(text.utf8)
    }

    /// The record its file's bytes hold; nil when they are not one as a whole (a damaged record names nothing).
    package init?(bytes: [UInt8]) {
        guard bytes.last == 0x0A,
            let text = String(validating: bytes.dropLast(), as: UTF8.self)
        else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 4, lines[0] == Self.header, lines[1].hasPrefix("time "),
            let seconds = Int64(lines[1].dropFirst(5)), lines[2].hasPrefix("output "), lines[3].hasPrefix("counts ")
        else { return nil }
        let numbers = lines[3].dropFirst(7).split(separator: " ").compactMap { Int($0) }
        guard numbers.count == 4 else { return nil }
        time = Date(timeIntervalSince1970: TimeInterval(seconds))
        output = String(lines[2].dropFirst(7))
        counts = Counts(
            reusedAnswers: numbers[0], fetchedAnswers: numbers[1], reusedImages: numbers[2], fetchedImages: numbers[3])
        var used = Set<String>()
        for line in lines.dropFirst(4) {
            guard line.hasPrefix("used "), line.utf8.count > 5 else { return nil }
            used.insert(String(line.dropFirst(5)))
        }
        self.used = used
    }
}
