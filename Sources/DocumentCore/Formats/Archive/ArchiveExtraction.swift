import CGLib
import Foundation

/// Takes one entry out of an archive so it can be previewed: a decoder worker decompresses it
/// into a sealed memfd, and this process writes those bytes into a new private folder under
/// `$XDG_CACHE_HOME/dossier/archive-previews/`, as a regular file under the entry's last name.
///
/// Nothing else is written: the entry's path is never used as a path (only its last component,
/// which cannot hold a `/`), the file is created with `O_EXCL | O_NOFOLLOW` inside a folder
/// opened with `O_NOFOLLOW`, links are not followed or made, unsafe entries are refused, and
/// the size is capped (in the worker, and again here).
package enum ArchiveExtraction {
    /// The largest entry extracted for a preview.
    package static let sizeLimit: Int64 = 256 << 20
    /// Folders left behind (by a crash) are removed when older than this.
    static let staleAge: TimeInterval = 24 * 60 * 60

    package static var previewsFolder: URL {
        let cache = String(cString: g_get_user_cache_dir())
        return URL(fileURLWithPath: cache).appendingPathComponent("dossier/archive-previews", isDirectory: true)
    }

    /// Extracts `entry` of the archive at `archivePath` in a decoder worker; returns the file
    /// made. Blocking: call it off the main thread. Nothing is written when the calling task
    /// is cancelled before the worker answers.
    package static func extract(_ entry: ArchiveEntry, from archivePath: FileSystemPath, raw: Bool) throws(ArchiveError) -> URL {
        let headerIndex = try check(entry)
        let data = try ArchiveWorkers.extract(headerIndex: headerIndex, path: entry.path, from: archivePath, raw: raw)
        if Task.isCancelled { throw .cancelled }
        return try store(data, as: fileName(for: entry))
    }

    /// The entry's position in the archive when it may be extracted; otherwise why not.
    package static func check(_ entry: ArchiveEntry) throws(ArchiveError) -> Int {
        if entry.isUnsafe || ArchiveListing.isUnsafe(entry.path) { throw .unsafePath }
        switch entry.kind {
        case .file: break
        case .folder: throw .folder
        case .link: throw .link(entry.linkTarget ?? "")
        case .other: throw .notRegularFile
        }
        if entry.isEncrypted { throw .encrypted }
        guard let headerIndex = entry.headerIndex else { throw .notRegularFile }
        if let size = entry.size, size > sizeLimit { throw .tooLarge(sizeLimit) }
        return headerIndex
    }

    /// Writes `data` (an entry's bytes, from a worker) as `name` into a new private folder;
    /// returns the file. `name` must be a file name (`fileName(for:)`).
    package static func store(_ data: SealedBlob, as name: String) throws(ArchiveError) -> URL {
        guard Int64(data.count) <= sizeLimit else { throw .tooLarge(sizeLimit) }
        let folder = try makePrivateFolder()
        do throws(ArchiveError) {
            try write(data, as: name, into: folder)
            return folder.appendingPathComponent(name)
        } catch {
            remove(folder)
            throw error
        }
    }

    /// Removes a folder made by `extract` and what is in it.
    package static func remove(_ folder: URL) {
        guard folder.path.hasPrefix(previewsFolder.path + "/") else { return }
        try? FileManager.default.removeItem(at: folder)
        made.withLock { _ = $0.remove(folder.standardizedFileURL.path) }
    }

    /// The folders this process made and has not removed: removed when it exits, since a
    /// previewer that quits lets go of its pages without tearing each down. Only a process
    /// killed leaves some, for the sweep.
    private static let made = Locked<Set<String>>([])
    private static let removedAtExit: Void = {
        atexit {
            for folder in ArchiveExtraction.made.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: folder) }
        }
    }()

    /// A new folder only the user can enter, inside the previews folder; old ones are swept.
    private static func makePrivateFolder() throws(ArchiveError) -> URL {
        let parent = previewsFolder
        guard g_mkdir_with_parents(parent.path, 0o700) == 0 else { throw .cannotMakeFolder(String(cString: strerror(errno))) }
        var status = stat()
        guard lstat(parent.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { throw .folderIsNotAFolder(parent.path) }
        sweep(parent)
        var template = Array((parent.path + "/XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in
            mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
        }
        guard let made else { throw .cannotMakeFolder(String(cString: strerror(errno))) }
        let folder = URL(fileURLWithPath: made, isDirectory: true)
        _ = removedAtExit
        Self.made.withLock { _ = $0.insert(folder.standardizedFileURL.path) }
        return folder
    }

    private static func sweep(_ parent: URL) {
        let keys: [URLResourceKey] = [.contentModificationDateKey]
        let children = (try? FileManager.default.contentsOfDirectory(at: parent, includingPropertiesForKeys: keys)) ?? []
        for child in children {
            let modified = (try? child.resourceValues(forKeys: Set(keys)))?.contentModificationDate ?? .distantFuture
            if Date().timeIntervalSince(modified) > staleAge { try? FileManager.default.removeItem(at: child) }
        }
    }

    /// A file name may be this long, in bytes (NAME_MAX).
    static let nameLimit = 255

    /// The entry's last path component as a file name that stays in its folder and can be
    /// made: a longer one keeps its end (where the extension is), whole characters only.
    package static func fileName(for entry: ArchiveEntry) -> String {
        var name = entry.path.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        name = name.replacingOccurrences(of: "\0", with: "")
        var start = name.endIndex
        var length = 0
        while start > name.startIndex {
            let previous = name.index(before: start)
            length += name[previous].utf8.count
            if length > nameLimit { break }
            start = previous
        }
        name = String(name[start...])
        if name.isEmpty || name == "." || name == ".." { name = "entry" }
        return name
    }

    private static func write(_ data: SealedBlob, as name: String, into folder: URL) throws(ArchiveError) {
        let directory = open(folder.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard directory >= 0 else { throw .cannotWrite(String(cString: strerror(errno))) }
        defer { close(directory) }
        let file = openat(directory, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw .cannotWrite(String(cString: strerror(errno))) }
        defer { close(file) }
        let failure = data.withUnsafeBytes { bytes -> ArchiveError? in
            var offset = 0
            while offset < bytes.count {
                if Task.isCancelled { return .cancelled }
                let count = Foundation.write(file, bytes.baseAddress! + offset, min(bytes.count - offset, 1 << 20))
                if count < 0 {
                    if errno == EINTR { continue }
                    return .cannotWrite(String(cString: strerror(errno)))
                }
                offset += count
            }
            return nil
        }
        if let failure { throw failure }
    }
}
