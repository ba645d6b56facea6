import Foundation
import Synchronization

/// Files below one root folder with the stamps they had, as a build's state keeps thousands of them: each folder's
/// path once and every name in one buffer, so that reading them from a record and checking them with a `stat` each
/// (``allCurrent(under:)``) makes no string and no allocation per file. A no-change rebuild does little else, and a
/// `String` per path, split again at each check, was more than a tenth of its processor time (BENCHMARKS.md, "Figures
/// behind the code").
package struct StampedFiles: Equatable, Sendable, RandomAccessCollection {
    /// One file and the stamp it had.
    package struct File: Equatable, Sendable {
        /// Relative to the root.
        package var path: String
        package var stamp: FileStamp

        package init(path: String, stamp: FileStamp) {
            self.path = path
            self.stamp = stamp
        }
    }

    private struct Entry: Equatable, Sendable {
        var folder: Int32
        /// Clamped: a count above `NAME_MAX` is never a file's name anyway.
        var nameCount: Int32
        var nameStart: Int
        var stamp: FileStamp
    }

    /// Every folder's path below the root, once, in the order of first use ("" for the root itself).
    private var folders: [String] = []
    private var folderIndex: [String: Int32] = [:]
    private var names: [UInt8] = []
    private var entries: [Entry] = []

    package init() {}

    package init(_ files: some Sequence<File>) {
        for file in files { append(file) }
    }

    package var startIndex: Int { entries.startIndex }
    package var endIndex: Int { entries.endIndex }

    package subscript(position: Int) -> File {
        let entry = entries[position]
        let start = entry.nameStart
        let name = String(decoding: names[start..<start + Int(entry.nameCount)], as: UTF8.self)
        let folder = folders[Int(entry.folder)]
        return File(path: folder.isEmpty ? name : "\(folder)/\(name)", stamp: entry.stamp)
    }

    package mutating func append(_ file: File) {
        var path = file.path
        path.withUTF8 { append(path: $0, stamp: file.stamp) }
    }

    /// Appends the file whose path below the root has the UTF-8 bytes `path`; its folder is compared with the last
    /// file's as bytes, so a run of files in one folder makes no string.
    package mutating func append(path: UnsafeBufferPointer<UInt8>, stamp: FileStamp) {
        let slash = path.lastIndex(of: UInt8(ascii: "/"))
        let folderBytes = UnsafeBufferPointer(rebasing: path[..<(slash ?? 0)])
        let nameBytes = UnsafeBufferPointer(rebasing: path[(slash.map { $0 + 1 } ?? 0)...])
        let folder: Int32
        if let last = entries.last, folders[Int(last.folder)].utf8.elementsEqual(folderBytes) {
            folder = last.folder
        } else {
            let path = String(decoding: folderBytes, as: UTF8.self)
            if let known = folderIndex[path] {
                folder = known
            } else {
                folder = Int32(folders.count)
                folders.append(path)
                folderIndex[path] = folder
            }
        }
        entries.append(
            Entry(folder: folder, nameCount: Int32(clamping: nameBytes.count), nameStart: names.count, stamp: stamp))
        names.append(contentsOf: nameBytes)
    }

    package mutating func reserveCapacity(files: Int, nameBytes: Int) {
        entries.reserveCapacity(files)
        names.reserveCapacity(nameBytes)
    }

    /// Whether every file is still as its stamp says, under the folder `root`: one `fstatat` each from its folder
    /// opened once (``RootedFiles``, never following a link below the root), over the processor's cores, stopping
    /// at the first difference. A name no file can have (a NUL byte, longer than the system allows) is a difference.
    package func allCurrent(under root: String) async -> Bool {
        let changed = Atomic<Bool>(false)
        let files = self
        _ = await CoreSplit.mapParts(of: entries.count, threshold: 1024) { part in
            if !files.areCurrent(part, under: root, unless: changed) { changed.store(true, ordering: .relaxed) }
        }
        return !changed.load(ordering: .relaxed)
    }

    private func areCurrent(_ part: Range<Int>, under root: String, unless changed: borrowing Atomic<Bool>) -> Bool {
        let rooted = RootedFiles(root: root)
        let longestName = Int(NAME_MAX)
        var openFolder: (index: Int32, descriptor: Int32)?
        return names.withUnsafeBufferPointer { names in
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: longestName + 1) { name in
                for entry in entries[part] {
                    if changed.load(ordering: .relaxed) { return false }
                    if openFolder?.index != entry.folder {
                        guard
                            case .success(let descriptor) = rooted.openFolder(folders[Int(entry.folder)], create: false)
                        else { return false }
                        openFolder = (entry.folder, descriptor)
                    }
                    let count = Int(entry.nameCount)
                    guard count <= longestName else { return false }
                    let start = entry.nameStart
                    for offset in 0..<count {
                        let byte = names[start + offset]
                        guard byte != 0 else { return false }
                        name[offset] = CChar(bitPattern: byte)
                    }
                    name[count] = 0
                    guard let folder = openFolder?.descriptor,
                        FileStamp.of(name.baseAddress!, in: folder) == entry.stamp
                    else { return false }
                }
                return true
            }
        }
    }
}
