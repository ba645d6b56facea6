import Foundation
import VitrineBasics
import VitrineSources

/// The history of a published site (`history.json` in its output, docs/model.md "History"): a snapshot for every
/// build whose results differed from the one before, with the items each gallery gained and lost, and for every
/// item the snapshots it was first and last seen in. It lives in the published site so that a CI runner that starts
/// empty can carry it on from the previous publish.
package struct SiteHistory: Codable, Sendable, Equatable {
    package static let fileName = "history.json"
    static let formatName = "vitrine-history"
    static let currentVersion = 1
    /// A larger history file is refused rather than read.
    package static let maximumBytes = 32 << 20

    package var format: String
    package var version: Int
    /// Oldest first, numbered from 1 without gaps.
    package var snapshots: [Snapshot]
    /// Every gallery the history knows, by folder.
    package var galleries: [Gallery]

    /// One build whose results differed from the snapshot before it.
    package struct Snapshot: Codable, Sendable, Equatable {
        package var number: Int
        /// RFC 3339, UTC, to the second (`SOURCE_DATE_EPOCH` when set).
        package var time: String
        /// Only the galleries that changed.
        package var galleries: [Change]
    }

    /// What a snapshot changed in one gallery: the ids (as the manifest lists them) of the items that came and left.
    package struct Change: Codable, Sendable, Equatable {
        package var path: String
        package var added: [String]
        package var removed: [String]
    }

    /// One gallery and every item it has shown.
    package struct Gallery: Codable, Sendable, Equatable {
        package var path: String
        /// In the order the API last gave them, those no longer shown after the current ones.
        package var items: [Item]
    }

    /// An item: the snapshots it was first and last seen in, whether the latest results still hold it, and, in a
    /// gallery that keeps every item (`keep = "all"`), what it showed, so that it stays browsable once it left.
    package struct Item: Codable, Sendable, Equatable {
        package var id: String
        var firstSeen: Int
        package var lastSeen: Int
        package var current: Bool
        package var record: ArchivedItem?

        package init(id: String, firstSeen: Int, lastSeen: Int, current: Bool, record: ArchivedItem? = nil) {
            self.id = id
            self.firstSeen = firstSeen
            self.lastSeen = lastSeen
            self.current = current
            self.record = record
        }

        enum CodingKeys: String, CodingKey {
            case id
            case firstSeen = "first-seen"
            case lastSeen = "last-seen"
            case current
            case record
        }
    }

    /// A history with no snapshot yet.
    package static let empty = SiteHistory(
        format: formatName, version: currentVersion, snapshots: [], galleries: [])

    /// The history after a build whose galleries (by folder) hold `items` (their ids in order), and the snapshot it
    /// added, if the results differ from the latest snapshot. `records` gives, for a gallery that keeps every item,
    /// what each current item shows; it is kept on the item (and updated whenever it changes, snapshot or not).
    /// Galleries the build does not have are left as they were: a gallery taken out of the config keeps its
    /// history, in case it comes back. An id the file could not hold (`isItemID`) is left out, and a time earlier
    /// than the latest snapshot's (a `SOURCE_DATE_EPOCH` from an older commit) is taken as that snapshot's, so that
    /// what is recorded can always be read back.
    package func recording(
        _ items: [(path: String, ids: [String])], records: [String: [String: ArchivedItem]] = [:], at time: Date
    ) -> (SiteHistory, Snapshot?) {
        let number = (snapshots.last?.number ?? 0) + 1
        var next = self
        var changes: [Change] = []
        for (path, ids) in items {
            var unique: [String] = []
            var seen = Set<String>()
            for id in ids where Self.isItemID(id) && seen.insert(id).inserted { unique.append(id) }
            let known = galleries.first { $0.path == path }?.items ?? []
            let wasCurrent = Set(known.filter(\.current).map(\.id))
            let added = unique.filter { !wasCurrent.contains($0) }
            let removed = known.filter { $0.current && !seen.contains($0.id) }.map(\.id)
            let changed = !added.isEmpty || !removed.isEmpty
            if changed { changes.append(Change(path: path, added: added, removed: removed)) }
            let byID = Dictionary(known.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            var updated = unique.map { id -> Item in
                // An item back after an absence keeps the snapshot it was first seen in.
                var item = byID[id] ?? Item(id: id, firstSeen: number, lastSeen: number, current: true)
                item.current = true
                if let record = records[path]?[id] { item.record = record }
                return item
            }
            updated += known.filter { !seen.contains($0.id) }.map { item in
                var gone = item
                gone.current = false
                return gone
            }
            if let index = next.galleries.firstIndex(where: { $0.path == path }) {
                next.galleries[index].items = updated
            } else if changed {
                next.galleries.append(Gallery(path: path, items: updated))
            }
        }
        guard !changes.isEmpty else { return (next, nil) }
        // An item still current is seen in every snapshot of a gallery the build has.
        let built = Set(items.map(\.path))
        for index in next.galleries.indices where built.contains(next.galleries[index].path) {
            for item in next.galleries[index].items.indices where next.galleries[index].items[item].current {
                next.galleries[index].items[item].lastSeen = number
            }
        }
        let snapshot = Snapshot(
            number: number, time: max(UTCTime.rfc3339(time), snapshots.last?.time ?? ""), galleries: changes)
        next.snapshots.append(snapshot)
        return (next, snapshot)
    }

    /// How far past the build's clock a snapshot may be dated: the clocks of the machines that take turns publishing a
    /// site differ by seconds, a badly set one by hours; within this, the build's own snapshot is dated no earlier than
    /// the latest one, so that time never runs backwards in the file.
    static let clockSkewAllowance: TimeInterval = 24 * 60 * 60

    /// Refuses a history dated in the future: a snapshot more than `clockSkewAllowance` past `clock` (the build's
    /// time) would date every later snapshot with its own time.
    package func checkTimes(notPast clock: Date, file: String) throws(HistoryFileError) {
        // Times are compared as their RFC 3339 text, which orders them only within four-digit years.
        let lastWritable = Date(timeIntervalSince1970: TimeInterval(UTCTime.rfc3339Seconds.upperBound))
        let latest = UTCTime.rfc3339(min(clock.addingTimeInterval(Self.clockSkewAllowance), lastWritable))
        guard let snapshot = snapshots.first(where: { $0.time > latest }) else { return }
        throw HistoryFileError(
            file: file,
            problem:
                "snapshot \(snapshot.number) is dated \(snapshot.time), more than a day past this build's clock "
                + "(\(UTCTime.rfc3339(clock)))")
    }

    /// The file's bytes: sorted keys, indented, so that the same history is the same bytes.
    package func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return Array(try! encoder.encode(self)) + [UInt8(ascii: "\n")]
    }

    /// Names the bytes ``encoded()`` writes, for the output's manifest to record beside the file: bytes written
    /// under the mark this Vitrine has decode to a history that ``encoded()`` turns into the same bytes again, so a
    /// build whose history did not change leaves them as they are instead of encoding megabytes anew. It is the
    /// digest of the encoding of a history that holds every field and the characters JSON escapes, so that a change
    /// of the types or of the encoder changes it.
    package static let encodingMark: String = {
        let text = "a/b \"q\" \\ \u{0}\u{1F}\u{7F} é 😀 \u{2028}\u{2029} <&>' \t\r\n"
        let image = ArchivedImage(
            url: "https://images.example/\(text)", sha256: String(repeating: "0f", count: 32), type: "image/jpeg",
            bytes: 1_234_567, width: 640, height: nil)
        let entry = ArchivedEntry(
            variant: "v", caption: text,
            credit: ArchivedCredit(
                name: text, url: "https://site.example/", role: "publication", authorURL: "https://author.example/"),
            tile: image, full: ArchivedImage(shownFrom: "https://images.example/full", width: nil, height: 480),
            license: ArchivedLicense(
                License(
                    id: "cc-by-4.0", name: text, label: "CC BY", url: "https://license.example/", copies: .allowed,
                    declaredBySite: true)),
            aiGenerated: true, tags: ["harbour", "<b>c++</b> é"])
        let probe = SiteHistory(
            format: formatName, version: currentVersion,
            snapshots: [
                Snapshot(
                    number: 1, time: "2026-01-02T03:04:05Z",
                    galleries: [Change(path: "a/", added: ["1", text], removed: [])])
            ],
            galleries: [
                Gallery(
                    path: "a/",
                    items: [
                        Item(id: "1", firstSeen: 1, lastSeen: 1, current: true),
                        Item(
                            id: text, firstSeen: 1, lastSeen: 1, current: false,
                            record: ArchivedItem(entries: [entry])),
                    ])
            ])
        return SHA256Hasher.hex(of: probe.encoded())
    }()

    /// Reads a history file, refusing one that is damaged, of another format, or holds what a history cannot
    /// (ids or folders that could carry a path or markup into the site, numbers out of order).
    package static func decode(_ bytes: [UInt8], file: String) throws(HistoryFileError) -> SiteHistory {
        guard bytes.count <= maximumBytes else {
            throw HistoryFileError(file: file, problem: "it is larger than \(maximumBytes >> 20) MB")
        }
        let history: SiteHistory
        do {
            history = try JSONDecoder().decode(SiteHistory.self, from: Data(bytes))
        } catch {
            // Foundation's decoder calls a number of the wrong kind ("version": 1.5) "not valid JSON": the version
            // is read on its own first, so that a history of another version is named as such.
            if let header = try? JSONDecoder().decode(Header.self, from: Data(bytes)), header.format == formatName,
                header.version != Double(currentVersion)
            {
                throw HistoryFileError(
                    file: file,
                    problem: "it is version \(header.version) of the format, and this Vitrine reads \(currentVersion)")
            }
            throw HistoryFileError(
                file: file, problem: "it is not a Vitrine history (\(DecodingProblem(error, in: bytes).summary))")
        }
        guard history.format == formatName else {
            throw HistoryFileError(file: file, problem: "its format is not \(formatName)")
        }
        guard history.version == currentVersion else {
            throw HistoryFileError(
                file: file,
                problem: "it is version \(history.version) of the format, and this Vitrine reads \(currentVersion)")
        }
        try history.check(file: file)
        return history
    }

    /// What a history file says it is, whatever the rest holds: its format, and its version as any JSON number.
    private struct Header: Decodable {
        var format: String
        var version: Double
    }

    private func check(file: String) throws(HistoryFileError) {
        func refuse(_ problem: String) -> HistoryFileError { HistoryFileError(file: file, problem: problem) }
        for (index, snapshot) in snapshots.enumerated() {
            guard snapshot.number == index + 1 else { throw refuse("its snapshots are not numbered 1, 2, 3, …") }
            guard UTCTime.date(rfc3339: snapshot.time) != nil else {
                throw refuse("snapshot \(snapshot.number) has the time “\(snapshot.time.prefix(40))”, not RFC 3339 UTC")
            }
            if index > 0, snapshot.time < snapshots[index - 1].time {
                throw refuse("snapshot \(snapshot.number) is older than the one before it")
            }
            for change in snapshot.galleries {
                guard Self.isFolder(change.path) else {
                    throw refuse("it names the folder “\(change.path.prefix(60))”")
                }
                for id in change.added + change.removed where !Self.isItemID(id) {
                    throw refuse("snapshot \(snapshot.number) holds an item id that is not one")
                }
            }
        }
        var paths = Set<String>()
        for gallery in galleries {
            guard Self.isFolder(gallery.path), paths.insert(gallery.path).inserted else {
                throw refuse("it names the folder “\(gallery.path.prefix(60))” twice or wrongly")
            }
            var ids = Set<String>()
            for item in gallery.items {
                guard Self.isItemID(item.id), ids.insert(item.id).inserted else {
                    throw refuse("a gallery holds an item id twice or one that is not an id")
                }
                guard 1 <= item.firstSeen, item.firstSeen <= item.lastSeen, item.lastSeen <= snapshots.count else {
                    throw refuse("item \(item.id) was seen in snapshots the history does not have")
                }
                if let record = item.record, let problem = Self.problem(of: record) {
                    throw refuse("the record of item \(item.id) \(problem)")
                }
            }
        }
    }

    /// What is wrong with an archived item, if anything: what it holds goes into pages, so every link must be a
    /// web link, every image one of the accepted types named by a SHA-256, every text of a sane length.
    package static func problem(of record: ArchivedItem) -> String? {
        guard !record.entries.isEmpty, record.entries.count <= 16 else { return "has no entry or too many" }
        for entry in record.entries {
            guard isVariantKey(entry.variant) else { return "has a variant that is not a key" }
            guard entry.caption.utf8.count <= 10_000 else { return "has a caption too long" }
            if let tags = entry.tags {
                guard tags.count <= PictureTags.maximumPerPicture, Set(tags).count == tags.count,
                    tags.allSatisfy({ PictureTags.normalise($0) == $0 })
                else { return "has tags Vitrine does not write (too many, repeated, or not in their normal form)" }
            }
            if let credit = entry.credit {
                guard !credit.name.isEmpty, credit.name.utf8.count <= 1_000 else {
                    return "has a credit without a name"
                }
                guard credit.url.map(isWebURL) ?? true, credit.authorURL.map(isWebURL) ?? true else {
                    return "has a credit link that is not a web link"
                }
                guard credit.role == nil || credit.role == "publication" else { return "has a credit of another role" }
            }
            if let license = entry.license {
                guard !license.name.isEmpty, license.name.utf8.count <= 1_000, !license.label.isEmpty,
                    license.label.utf8.count <= 1_000, (license.id?.utf8.count ?? 0) <= 64
                else { return "has a license without a name or with one too long" }
                guard license.url.map(isWebURL) ?? true else { return "has a license link that is not a web link" }
            }
            // A picture is downloaded exactly when its license allows copies (a record from before licenses were
            // kept was downloaded).
            let downloaded = entry.license.map { $0.copies == .allowed } ?? true
            for image in [entry.tile, entry.full] {
                guard isWebURL(image.url) else { return "has an image URL that is not a web link" }
                guard [image.width, image.height].allSatisfy({ $0.map { (1...100_000).contains($0) } ?? true }) else {
                    return "has an image of an impossible size"
                }
                guard downloaded else {
                    guard image.sha256 == nil, image.type == nil, image.bytes == nil else {
                        return "keeps a copy of a picture its license does not let be copied"
                    }
                    continue
                }
                guard let sha256 = image.sha256, LowercaseHex.isSHA256(sha256) else {
                    return "names an image by something other than a SHA-256"
                }
                guard let type = image.type, ImageFormat(mediaType: type) != nil else {
                    return "has an image of a type Vitrine does not accept"
                }
                guard let bytes = image.bytes, (1...(1 << 30)).contains(bytes) else {
                    return "has an image of an impossible size"
                }
            }
        }
        return nil
    }

    /// An http or https URL that is one as it stands (`WebURL`): Vitrine writes no other, and a page takes it as
    /// it is.
    package static func isWebURL(_ text: String) -> Bool { WebURL(text) != nil }

    /// A variant key as the model has them: an XML NCName of ASCII letters, digits, '-', '_' and '.'.
    static func isVariantKey(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, key.utf8.count <= 64,
            first.isASCII, CharacterSet.letters.contains(first) || first == "_"
        else { return false }
        return key.unicodeScalars.allSatisfy {
            $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0))
        }
    }

    /// A gallery's folder as the site has it: "" or lowercase letters, digits, '.', '-' and '_' in parts ending
    /// in "/"; never "..", never absolute.
    static func isFolder(_ path: String) -> Bool {
        if path.isEmpty { return true }
        guard path.hasSuffix("/"), path.utf8.count <= 200 else { return false }
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789._-")
        return path.dropLast().split(separator: "/", omittingEmptySubsequences: false).allSatisfy { part in
            !part.isEmpty && !part.hasPrefix(".") && part.allSatisfy(allowed.contains)
        }
    }

    /// An id as APIs give them: at most 200 characters, none of them a control character.
    static func isItemID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 200 && !id.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

}

/// A history file (`history.json`) cannot be used.
public struct HistoryFileError: UserFacingError {
    /// The file or URL the history was read from.
    public let file: String
    /// What is wrong with it: too large, not JSON, another format, or a value Vitrine refuses.
    public let problem: String

    package init(file: String, problem: String) {
        self.file = file
        self.problem = problem
    }

    /// Names the history and what is wrong with it, and the ways on: mend it, remove it, or read another.
    public var sentence: String {
        "The history \(file) cannot be used: \(problem); fix or remove it, or start from another publish's history."
    }
    /// Always `.badData`.
    public var kind: FailureKind { .badData }
}
