import Foundation

/// Files that start something the user then edits (a site's config, a copy of a theme), put into a folder only where
/// nothing is yet: either every one of them is written or none is. Every path is checked before the first write, and
/// each file is written through ``RootedFiles/create(_:at:durable:)``: never through a symbolic link, never over
/// anything that is there (even something put there after the check), never half-written. The folder is created when
/// it is missing; neither it nor any folder named on its way may be a link (see ``firstLink(in:below:)``).
package struct NewFiles {
    /// One file of the set: its path below the folder, with `/` between folders, and its bytes.
    package struct File: Sendable {
        package var path: String
        package var bytes: [UInt8]

        package init(path: String, bytes: [UInt8]) {
            self.path = path
            self.bytes = bytes
        }
    }

    package let folder: String
    package let files: [File]

    /// `files` have relative paths, without `.` or `..` among their parts.
    package init(folder: String, files: [File]) {
        precondition(
            files.allSatisfy { file in
                !file.path.hasPrefix("/") && file.path.split(separator: "/").allSatisfy { $0 != "." && $0 != ".." }
            })
        self.folder = folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        self.files = files
    }

    /// How a path of the set is named in messages: below the folder, or on its own when the folder is `.`.
    package func shown(_ path: String) -> String {
        folder == "." ? path : folder == "/" ? "/\(path)" : "\(folder)/\(path)"
    }

    /// Writes every file, in the set's order, once it is sure that none of their paths is taken and that no folder on
    /// their way is a link. A write that fails (a full disk, a name taken meanwhile) removes the files and the folders
    /// this call made before it, so the folder is left as it was found.
    package func write() throws(NewFilesError) {
        var isFolder: ObjCBool = false
        let folderExisted = FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder)
        let home = ProcessInfo.processInfo.environment["HOME"].map { [$0] } ?? []
        if let link = Self.firstLink(in: folder, below: [FileManager.default.currentDirectoryPath] + home) {
            throw .linkOnTheWay(folder: folder, link: link)
        }
        if folderExisted && !isFolder.boolValue { throw .notAFolder(path: folder) }
        let rooted = RootedFiles(root: folder, followingRootLink: false)
        try check(rooted)
        let newFolders = missingFolders(rooted)
        var written: [(path: String, stamp: FileStamp)] = []
        for file in files {
            do {
                written.append((file.path, try rooted.create(file.bytes, at: file.path, durable: true)))
            } catch {
                for (path, stamp) in written.reversed() where rooted.stamp(path) == stamp { rooted.remove(path) }
                for path in newFolders { rooted.removeFolderIfEmpty(path) }
                if !folderExisted { _ = rmdir(folder) }
                if let taken = refusal(of: file.path, in: rooted) { throw taken }
                throw .writeFailed(path: shown(file.path), reason: error.reason)
            }
        }
        rooted.syncRoot()
    }

    /// The first part of `folder`'s path that is a symbolic link, or nil. A relative path is looked at from the
    /// working directory down; an absolute one below the deepest of `anchors` (the working directory, the home
    /// folder: the user's own places, however they are reached) or of the top-level folders of `/` that it starts
    /// with: a link directly in `/` (`/home -> /data`, macOS's `/tmp`) is the machine's own layout, which only root
    /// can change. Parts that are not there yet end the walk: they are created as real folders.
    package static func firstLink(in folder: String, below anchors: [String]) -> String? {
        let absolute = folder.hasPrefix("/")
        var parts = folder.split(separator: "/").map(String.init)
        var checked = ""
        if absolute {
            let trusted =
                (anchors.map { $0.split(separator: "/").map(String.init) } + [Array(parts.prefix(1))])
                .filter { parts.starts(with: $0) }.max { $0.count < $1.count } ?? []
            checked = "/" + trusted.joined(separator: "/")
            parts.removeFirst(trusted.count)
        }
        for part in parts {
            checked = checked.isEmpty ? part : checked.hasSuffix("/") ? checked + part : "\(checked)/\(part)"
            var status = stat()
            guard lstat(checked, &status) == 0 else { return nil }
            if status.st_mode & S_IFMT == S_IFLNK { return checked }
        }
        return nil
    }

    /// Throws the refusal of the first path that is taken or blocked.
    private func check(_ rooted: RootedFiles) throws(NewFilesError) {
        for file in files {
            if let refusal = refusal(of: file.path, in: rooted) { throw refusal }
        }
    }

    /// Why `path` cannot be written, or nil when it is free.
    private func refusal(of path: String, in rooted: RootedFiles) -> NewFilesError? {
        switch rooted.entry(path) {
        case .missing: return nil
        case .file: return .exists(path: shown(path), thing: .file)
        case .blocked(let folder): return .linkedFolder(path: shown(path), folder: shown(folder))
        case .other:
            // The folders on the way are real folders (the entry would be blocked otherwise), so this looks at the
            // last name only.
            let full = shown(path)
            if (try? FileManager.default.destinationOfSymbolicLink(atPath: full)) != nil {
                return .exists(path: full, thing: .link)
            }
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: full, isDirectory: &isFolder)
            return .exists(path: full, thing: isFolder.boolValue ? .folder : .other)
        }
    }

    /// The folders below the root that the set's paths need and that are not there yet, deepest first.
    private func missingFolders(_ rooted: RootedFiles) -> [String] {
        var folders: Set<String> = []
        for file in files {
            var parts = file.path.split(separator: "/").dropLast()
            while !parts.isEmpty {
                let path = parts.joined(separator: "/")
                if rooted.entry(path) == .missing { folders.insert(path) }
                parts = parts.dropLast()
            }
        }
        // A folder's path is longer than its parent's.
        return folders.sorted { ($0.utf8.count, $0) > ($1.utf8.count, $1) }
    }
}

/// A set of ``NewFiles`` was not written: a path is taken or leads through a link, or writing failed. Nothing of the
/// set is left in the folder.
package enum NewFilesError: UserFacingError, Equatable {
    /// What is already at a path the set would write.
    package enum Thing: Sendable {
        case file, link, folder, other
    }

    /// Something is already at `path`.
    case exists(path: String, thing: Thing)
    /// `folder`, on the way to `path`, is a symbolic link or not a folder.
    case linkedFolder(path: String, folder: String)
    /// The folder to write into is a file.
    case notAFolder(path: String)
    /// `link`, the folder to write into or a folder on its way, is a symbolic link.
    case linkOnTheWay(folder: String, link: String)
    /// Writing the file at `path` failed for `reason`.
    case writeFailed(path: String, reason: String)

    package var sentence: String {
        switch self {
        case .exists(let path, .file):
            "Refusing to overwrite \(path): Vitrine never replaces a file it did not write, so it wrote nothing; "
                + "move the file away or choose another folder."
        case .exists(let path, .link):
            "Refusing to write \(path): it is a symbolic link, and Vitrine never writes through links, so it wrote "
                + "nothing; remove the link or choose another folder."
        case .exists(let path, let thing):
            "Refusing to write \(path): \(thing == .folder ? "a folder" : "something other than a file") is there, "
                + "so Vitrine wrote nothing; move it away or choose another folder."
        case .linkedFolder(let path, let folder):
            "Refusing to write \(path): \(folder) is a symbolic link or not a folder, and Vitrine never writes "
                + "through links, so it wrote nothing; remove it or choose another folder."
        case .notAFolder(let path):
            "Refusing to write into \(path): it is a file, not a folder, so Vitrine wrote nothing; choose another "
                + "folder."
        case .linkOnTheWay(let folder, let link):
            "Refusing to write into \(folder): \(link) is a symbolic link, and Vitrine never writes through links, "
                + "so it wrote nothing; name the folder it points to, or choose another folder."
        case .writeFailed(let path, let reason):
            "Could not write \(path): \(reason); the files written before it were removed again."
        }
    }

    package var kind: FailureKind { .cannotWrite }
}
