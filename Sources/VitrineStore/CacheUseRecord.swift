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

    /// The record as its file holds it, its paths sorted by their bytes; nil when a path could not be read back (a
    /// line break).
    package func encoded() -> [UInt8]? {
        guard !output.utf8.contains(0x0A) else { return nil }
        var paths: [[UInt8]] = []
        paths.reserveCapacity(used.count)
        var length = 0
        for path in used {
            let bytes = Array(path.utf8)
            guard !bytes.isEmpty, !bytes.contains(0x0A) else { return nil }
            length += bytes.count + 6
            paths.append(bytes)
        }
        paths.sort(by: Self.precedes)
        var text = Array(Self.heading(time: time, output: output, counts: counts).utf8)
        text.reserveCapacity(text.count + length)
        for path in paths {
            text.append(contentsOf: Self.usedPrefix)
            text.append(contentsOf: path)
            text.append(0x0A)
        }
        return text
    }

    /// The record its file's bytes hold; nil when they are not one as a whole (a damaged record names nothing).
    package init?(bytes: [UInt8]) {
        guard let lines = Self.lines(of: bytes), let heading = Self.heading(of: bytes[..<lines.pathsStart]) else {
            return nil
        }
        (time, output, counts) = heading
        var used = Set<String>(minimumCapacity: lines.paths.count)
        for range in lines.paths {
            guard let path = String(validating: bytes[range], as: UTF8.self) else { return nil }
            used.insert(path)
        }
        self.used = used
    }

    /// `bytes`, a whole record whose paths are sorted, with the time, output and counts given and its paths kept
    /// byte for byte, when every path of `used` is among them: what a build that found its output current (and so
    /// used what the last one did) writes, without reading thousands of paths into strings and back; with
    /// `exactly`, only when its paths are those of `used` and no others (a build that did its work with what the
    /// last one used, such as after a caption changed). Nil when `bytes` are not such a record or its paths are
    /// not those asked for.
    package static func restamped(
        _ bytes: [UInt8], time: Date, output: String, counts: Counts, keeping used: Set<String>, exactly: Bool = false
    ) -> [UInt8]? {
        guard !output.utf8.contains(0x0A), let lines = lines(of: bytes), !exactly || lines.paths.count == used.count,
            heading(of: bytes[..<lines.pathsStart]) != nil,
            lines.areSorted(in: bytes), bytes[lines.pathsStart...].allSatisfy({ $0 < 0x80 }),
            used.allSatisfy({ lines.contains(Array($0.utf8), in: bytes) })
        else { return nil }
        return Array(heading(time: time, output: output, counts: counts).utf8) + bytes[lines.pathsStart...]
    }

    /// The SHA-256 of the paths of the record `bytes` (their lines, byte for byte), in lowercase hexadecimal: the
    /// same for every record of the same paths, whatever its time, output and counts; nil unless `bytes` are a
    /// record of this format with sorted paths.
    package static func pathsDigest(of bytes: [UInt8]) -> String? {
        guard let lines = lines(of: bytes), heading(of: bytes[..<lines.pathsStart]) != nil, lines.areSorted(in: bytes)
        else { return nil }
        return SHA256Hasher.hex(of: bytes[lines.pathsStart...])
    }

    private static let usedPrefix = Array("used ".utf8)

    /// The time, output and counts of a record's four heading lines; nil unless they are this format's.
    private static func heading(of bytes: ArraySlice<UInt8>) -> (time: Date, output: String, counts: Counts)? {
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        let lines = text.split(separator: "\n")
        guard lines.count == 4, lines[0] == header, lines[1].hasPrefix("time "),
            let seconds = Int64(lines[1].dropFirst(5)), lines[2].hasPrefix("output "), lines[3].hasPrefix("counts ")
        else { return nil }
        let numbers = lines[3].dropFirst(7).split(separator: " ").compactMap { Int($0) }
        guard numbers.count == 4 else { return nil }
        return (
            Date(timeIntervalSince1970: TimeInterval(seconds)), String(lines[2].dropFirst(7)),
            Counts(
                reusedAnswers: numbers[0], fetchedAnswers: numbers[1], reusedImages: numbers[2],
                fetchedImages: numbers[3])
        )
    }

    private static func heading(time: Date, output: String, counts: Counts) -> String {
        "\(header)\ntime \(Int64(time.timeIntervalSince1970.rounded(.down)))\noutput \(output)\n"
            + "counts \(counts.reusedAnswers) \(counts.fetchedAnswers) \(counts.reusedImages) \(counts.fetchedImages)\n"
    }

    /// Whether path `a` sorts before path `b` by their bytes (for the ASCII paths of the cache, `String`'s order).
    private static func precedes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        compare(a[...], b[...]) < 0
    }

    private static func compare(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Int32 {
        let order = a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in
                memcmp(
                    x.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!,
                    y.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, min(x.count, y.count))
            }
        }
        if order != 0 { return order }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }

    /// Where a record's four heading lines end and each of its `used` lines' paths lies, found with one pass over
    /// its bytes; nil unless it ends with a line break and every line after the heading is a `used` one.
    private struct Lines {
        var pathsStart: Int
        var paths: [Range<Int>]

        func areSorted(in bytes: [UInt8]) -> Bool {
            zip(paths, paths.dropFirst()).allSatisfy { compare(bytes[$0], bytes[$1]) < 0 }
        }

        func contains(_ path: [UInt8], in bytes: [UInt8]) -> Bool {
            var low = 0
            var high = paths.count
            while low < high {
                let middle = (low + high) / 2
                let order = compare(bytes[paths[middle]], path[...])
                if order == 0 { return true }
                if order < 0 { low = middle + 1 } else { high = middle }
            }
            return false
        }
    }

    private static func lines(of bytes: [UInt8]) -> Lines? {
        guard bytes.last == 0x0A else { return nil }
        var start = 0
        var headingLines = 0
        while headingLines < 4 {
            guard let end = bytes[start...].firstIndex(of: 0x0A) else { return nil }
            start = end + 1
            headingLines += 1
        }
        var lines = Lines(pathsStart: start, paths: [])
        lines.paths.reserveCapacity((bytes.count - start) / 80)
        while start < bytes.count {
            guard let end = bytes[start...].firstIndex(of: 0x0A), end - start > usedPrefix.count,
                bytes[start..<start + usedPrefix.count].elementsEqual(usedPrefix)
            else { return nil }
            lines.paths.append(start + usedPrefix.count..<end)
            start = end + 1
        }
        return lines
    }
}
