import Foundation

/// The record, kept in the output folder, of every file Vitrine wrote there; only files it lists are ever
/// overwritten or deleted by a later run.
public struct OutputManifest: Codable, Sendable, Equatable {
    public static let fileName = ".vitrine-manifest.json"

    /// One written file and the SHA-256 of its bytes.
    public struct File: Codable, Sendable, Hashable {
        public var path: String
        public var sha256: String
    }

    public var generator: String
    public var files: [File]

    public init(files: [File]) {
        generator = "Vitrine \(VitrineVersion.current)"
        self.files = files.sorted { $0.path < $1.path }
    }

    func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return [UInt8]((try? encoder.encode(self)) ?? Data()) + [0x0A]
    }

    static func read(in root: URL) -> OutputManifest? {
        guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(fileName).path) else {
            return nil
        }
        return try? JSONDecoder().decode(OutputManifest.self, from: data)
    }
}

/// The output folder holds files Vitrine did not write, and it was not told to write there anyway.
public struct OutputOwnershipError: UserFacingError {
    public let folder: String
    public let foreignFiles: [String]

    public var sentence: String {
        let shown = foreignFiles.prefix(3).joined(separator: ", ") + (foreignFiles.count > 3 ? ", …" : "")
        return "Refusing to write into \(folder): it holds files Vitrine did not write (\(shown)); "
            + "pass --force to write there anyway, or choose another --out."
    }

    public var exitStatus: ExitStatus { .cannotWrite }
}

/// Temporary files of interrupted writes (`.NAME.vitrine-PID-RANDOM`) whose writer is gone.
enum TemporaryFileSweeper {
    static func isOrphanedTemporaryFile(_ name: String) -> Bool {
        guard name.hasPrefix("."), let marker = name.range(of: ".vitrine-", options: .backwards) else { return false }
        let parts = name[marker.upperBound...].split(separator: "-")
        guard parts.count == 2, let pid = Int32(parts[0]), UInt32(parts[1]) != nil else { return false }
        return pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH
    }

    /// Removes orphaned temporary files anywhere below `root`; returns how many.
    @discardableResult
    static func sweep(_ root: URL) -> Int {
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return 0 }
        var removed = 0
        for case let relative as String in walker
        where isOrphanedTemporaryFile((relative as NSString).lastPathComponent) {
            if unlink(root.appendingPathComponent(relative).path) == 0 { removed += 1 }
        }
        return removed
    }
}
