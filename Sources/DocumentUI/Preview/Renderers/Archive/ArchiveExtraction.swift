import CArchive
import CGtk
import DocumentCore
import Foundation
import GObjectSupport

/// Takes one entry out of an archive so it can be previewed: into a new private folder under
/// `$XDG_CACHE_HOME/dossier/archive-previews/`, as a regular file under the entry's last name.
///
/// Nothing else is written: the entry's path is never used as a path (only its last component,
/// which cannot hold a `/`), the file is created with `O_EXCL | O_NOFOLLOW` inside a folder
/// opened with `O_NOFOLLOW`, links are not followed or made, unsafe entries are refused, and
/// the size is capped. libarchive's own extraction to disk is not used at all.
package enum ArchiveExtraction {
    /// The largest entry extracted for a preview.
    static let sizeLimit: Int64 = 256 << 20
    /// Folders left behind (by a crash) are removed when older than this.
    static let staleAge: TimeInterval = 24 * 60 * 60

    package static var previewsFolder: URL {
        let cache = String(cString: g_get_user_cache_dir())
        return URL(fileURLWithPath: cache).appendingPathComponent("dossier/archive-previews", isDirectory: true)
    }

    /// Extracts `entry` of the archive at `archivePath`; returns the file made. Blocking: call
    /// it off the main thread. Stops early when the calling task is cancelled.
    package static func extract(_ entry: ArchiveEntry, from archivePath: String, raw: Bool) throws(PreviewError) -> URL {
        if entry.isUnsafe {
            throw PreviewError(tr("Its path leads outside the archive, so it is not extracted."))
        }
        switch entry.kind {
        case .file: break
        case .folder: throw PreviewError(tr("It is a folder."))
        case .link: throw PreviewError(tr("It is a link to “%s”; links in archives are not followed.", entry.linkTarget ?? ""))
        case .other: throw PreviewError(tr("It is not a regular file."))
        }
        if entry.isEncrypted { throw PreviewError(tr("It is protected by a password.")) }
        guard let headerIndex = entry.headerIndex else { throw PreviewError(tr("It is not a regular file.")) }
        if let size = entry.size, size > sizeLimit {
            throw PreviewError(tr("It is larger than %s, the most extracted for a preview.", formattedSize(sizeLimit)))
        }

        let folder = try makePrivateFolder()
        do throws(PreviewError) {
            let file = try write(entry, at: headerIndex, from: archivePath, raw: raw, into: folder)
            return file
        } catch {
            remove(folder)
            throw error
        }
    }

    /// Removes a folder made by `extract` and what is in it.
    package static func remove(_ folder: URL) {
        guard folder.path.hasPrefix(previewsFolder.path + "/") else { return }
        try? FileManager.default.removeItem(at: folder)
    }

    /// A new folder only the user can enter, inside the previews folder; old ones are swept.
    private static func makePrivateFolder() throws(PreviewError) -> URL {
        let parent = previewsFolder
        guard g_mkdir_with_parents(parent.path, 0o700) == 0 else {
            throw PreviewError(tr("The folder for extracted entries could not be made: %s", String(cString: strerror(errno))))
        }
        var status = stat()
        guard lstat(parent.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw PreviewError(tr("The folder for extracted entries is not a folder: %s", parent.path))
        }
        sweep(parent)
        var template = Array((parent.path + "/XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in
            mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
        }
        guard let made else {
            throw PreviewError(tr("The folder for extracted entries could not be made: %s", String(cString: strerror(errno))))
        }
        return URL(fileURLWithPath: made, isDirectory: true)
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

    private static func write(_ entry: ArchiveEntry, at headerIndex: Int, from archivePath: String, raw: Bool,
                              into folder: URL) throws(PreviewError) -> URL {
        let archive = try ArchiveListing.open(archivePath, raw: raw).get()
        defer { archive_read_free(archive) }
        // Find the entry again by its position, and check it is the same one.
        var header: OpaquePointer?
        var index = 0
        while true {
            let status = archive_read_next_header(archive, &header)
            if status == ARCHIVE_EOF || status == ARCHIVE_FATAL {
                throw PreviewError(tr("The archive could not be read: %s", ArchiveListing.errorMessage(archive)))
            }
            if index == headerIndex { break }
            index += 1
            if Task.isCancelled { throw PreviewError(tr("Cancelled")) }
        }
        guard let header, ArchiveListing.storedPath(header) == entry.path || raw else {
            throw PreviewError(tr("The archive changed while it was shown."))
        }

        let directory = open(folder.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard directory >= 0 else { throw PreviewError(tr("The file could not be written: %s", String(cString: strerror(errno)))) }
        defer { close(directory) }
        let name = fileName(for: entry)
        let file = openat(directory, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw PreviewError(tr("The file could not be written: %s", String(cString: strerror(errno)))) }
        defer { close(file) }

        var written: Int64 = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { archive_read_data(archive, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                throw PreviewError(tr("The entry could not be extracted: %s", ArchiveListing.errorMessage(archive)))
            }
            written += Int64(count)
            if written > sizeLimit {
                throw PreviewError(tr("It is larger than %s, the most extracted for a preview.", formattedSize(sizeLimit)))
            }
            if Task.isCancelled { throw PreviewError(tr("Cancelled")) }
            let done = buffer.withUnsafeBytes { bytes in writeAll(file, bytes.baseAddress!, count) }
            guard done else { throw PreviewError(tr("The file could not be written: %s", String(cString: strerror(errno)))) }
        }
        return folder.appendingPathComponent(name)
    }

    private static func writeAll(_ file: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Bool {
        var offset = 0
        while offset < count {
            let result = Foundation.write(file, bytes + offset, count - offset)
            if result < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += result
        }
        return true
    }
}
