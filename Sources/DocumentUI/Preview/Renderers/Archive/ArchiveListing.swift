import CArchive
import DocumentCore
import Foundation

/// One entry of an archive as the listing shows it.
package struct ArchiveEntry: Sendable {
    package enum Kind: Sendable { case file, folder, link, other }

    /// The path as stored in the archive.
    package var path: String
    /// What the listing shows: the last component, or the whole path of an unsafe entry.
    package var name: String
    /// How deep in the folder tree (0: at the top).
    var depth: Int
    package var kind: Kind
    var size: Int64?
    var modified: Date?
    /// An absolute path or one with `..`: listed, flagged, never extracted.
    package var isUnsafe: Bool
    var isEncrypted: Bool
    var linkTarget: String?
    /// The entry's position in the archive; nil for a folder only implied by other paths.
    var headerIndex: Int?
}

/// An archive's entries, read with libarchive (zip, tar and its compressed forms, 7z, rar,
/// cpio, ar/deb, ISO 9660…), as a folder tree flattened in display order: unsafe entries
/// first, then each folder followed by its contents, folders before files.
package struct ArchiveListing: Sendable {
    package var entries: [ArchiveEntry]
    /// True when the listing stopped at `entryLimit` or `timeLimit`.
    var isTruncated: Bool
    /// libarchive's message when it could not read past some entry.
    var damage: String?

    static let entryLimit = 500_000
    /// A tar.xz has no index: listing it reads it whole. Past this, what was read is shown
    /// (well within the previewer's 15 s, with time left to sort the tree).
    static let timeLimit: Duration = .seconds(6)

    /// Opens `path` for reading with every format and filter libarchive has; `raw` also accepts
    /// a lone compressed file (`notes.txt.gz`) as an archive of one entry.
    static func open(_ path: String, raw: Bool) -> Result<OpaquePointer, PreviewError> {
        // libarchive is loaded the first time an archive is read.
        var error: UnsafeMutablePointer<CChar>?
        guard dossier_archive_load(&error) != 0 else {
            let reason = error.map { String(cString: $0) } ?? ""
            g_free(error)
            return .failure(PreviewError(tr("Archives cannot be read: libarchive could not be loaded (%s).", reason)))
        }
        guard let archive = archive_read_new() else {
            return .failure(PreviewError(tr("The archive could not be read: %s", tr("out of memory"))))
        }
        archive_read_support_filter_all(archive)
        archive_read_support_format_all(archive)
        if raw { archive_read_support_format_raw(archive) }
        guard archive_read_open_filename(archive, path, 65_536) == ARCHIVE_OK else {
            let message = errorMessage(archive)
            archive_read_free(archive)
            return .failure(PreviewError(tr("The archive could not be read: %s", message)))
        }
        return .success(archive)
    }

    static func errorMessage(_ archive: OpaquePointer) -> String {
        archive_error_string(archive).map { String(cString: $0) } ?? tr("the data is damaged or in an unknown format")
    }

    /// Reads the entries of the archive at `path` (blocking: call it off the main thread).
    package static func read(_ path: String, raw: Bool) -> Result<ArchiveListing, PreviewError> {
        let archive: OpaquePointer
        switch open(path, raw: raw) {
        case .success(let opened): archive = opened
        case .failure(let error): return .failure(error)
        }
        defer { archive_read_free(archive) }
        var raws: [ArchiveEntry] = []
        var damage: String?
        var isTruncated = false
        var failures = 0
        let clock = ContinuousClock(), start = clock.now
        var entry: OpaquePointer?
        while true {
            let status = archive_read_next_header(archive, &entry)
            if status == ARCHIVE_EOF { break }
            if status == ARCHIVE_RETRY { continue }
            if status == ARCHIVE_FATAL || (status == ARCHIVE_FAILED && failures > 100) {
                damage = errorMessage(archive)
                break
            }
            if status == ARCHIVE_FAILED {
                failures += 1
                damage = errorMessage(archive)
                continue
            }
            guard let entry else { break }
            raws.append(describe(entry, in: archive, index: raws.count, archivePath: path))
            if raws.count >= entryLimit || (raws.count % 256 == 0 && clock.now - start > timeLimit) {
                isTruncated = true
                break
            }
        }
        if raws.isEmpty, let damage {
            return .failure(PreviewError(tr("The archive could not be read: %s", damage)))
        }
        return .success(ArchiveListing(entries: tree(raws), isTruncated: isTruncated, damage: damage))
    }

    private static func describe(_ entry: OpaquePointer, in archive: OpaquePointer, index: Int, archivePath: String) -> ArchiveEntry {
        var path = storedPath(entry)
        let type = archive_entry_filetype(entry) & 0o170000
        var kind: ArchiveEntry.Kind
        var linkTarget: String?
        switch type {
        case 0o100000:
            kind = .file
            if let hardlink = archive_entry_hardlink(entry) {
                kind = .link
                linkTarget = String(decoding: Data(bytes: hardlink, count: strlen(hardlink)), as: UTF8.self)
            }
        case 0o040000: kind = .folder
        case 0o120000:
            kind = .link
            linkTarget = (archive_entry_symlink_utf8(entry) ?? archive_entry_symlink(entry)).map { String(cString: $0) }
        default: kind = .other
        }
        // A lone compressed file is one entry called "data": name it after the file instead.
        if path.isEmpty || archive_format(archive) == ARCHIVE_FORMAT_RAW {
            path = URL(fileURLWithPath: archivePath).deletingPathExtension().lastPathComponent
        }
        return ArchiveEntry(
            path: path, name: path, depth: 0, kind: kind,
            size: archive_entry_size_is_set(entry) != 0 ? archive_entry_size(entry) : nil,
            modified: archive_entry_mtime_is_set(entry) != 0 ? Date(timeIntervalSince1970: TimeInterval(archive_entry_mtime(entry))) : nil,
            isUnsafe: isUnsafe(path), isEncrypted: archive_entry_is_encrypted(entry) != 0,
            linkTarget: linkTarget, headerIndex: index)
    }

    /// The entry's path as UTF-8 (libarchive converts from the archive's charset), else its
    /// bytes repaired.
    static func storedPath(_ entry: OpaquePointer) -> String {
        if let utf8 = archive_entry_pathname_utf8(entry) { return String(cString: utf8) }
        guard let bytes = archive_entry_pathname(entry) else { return "" }
        return String(decoding: Data(bytes: bytes, count: strlen(bytes)), as: UTF8.self)
    }

    /// True for a path that would land outside a folder it is extracted into: absolute (`/x`,
    /// `C:\x`, `\\server\x`) or climbing with `..`. Zip writers on Windows use `\` too.
    package static func isUnsafe(_ path: String) -> Bool {
        if path.hasPrefix("/") || path.hasPrefix("\\") { return true }
        let characters = Array(path.prefix(2))
        if characters.count == 2, characters[1] == ":", characters[0].isASCII, characters[0].isLetter { return true }
        return path.split(whereSeparator: { $0 == "/" || $0 == "\\" }).contains("..")
    }

    /// The components of a safe path, without `.` and empty ones (`./a//b/` is `a`, `b`).
    static func components(_ path: String) -> [String] {
        path.split(separator: "/").map(String.init).filter { $0 != "." }
    }

    // MARK: The tree

    private final class Folder {
        var entry: ArchiveEntry?
        var folders: [String: Folder] = [:]
        var files: [ArchiveEntry] = []
    }

    /// Nests the entries by path and flattens the tree in display order. A folder that only
    /// appears in other entries' paths is listed too.
    static func tree(_ entries: [ArchiveEntry]) -> [ArchiveEntry] {
        let root = Folder()
        var unsafe: [ArchiveEntry] = []
        for entry in entries {
            if entry.isUnsafe {
                unsafe.append(entry)
                continue
            }
            var parts = components(entry.path)
            guard let last = parts.popLast() else { continue }  // "./" itself
            var folder = root
            for part in parts {
                if let existing = folder.folders[part] {
                    folder = existing
                } else {
                    let created = Folder()
                    folder.folders[part] = created
                    folder = created
                }
            }
            if entry.kind == .folder {
                let node = folder.folders[last] ?? Folder()
                node.entry = entry
                folder.folders[last] = node
            } else {
                folder.files.append(entry)
            }
        }
        var result = unsafe
        // Depth first without recursion: an archive can nest thousands of folders deep.
        var stack: [(name: String, folder: Folder, depth: Int, path: String)] =
            root.folders.sorted { $0.key.lowercased() > $1.key.lowercased() }.map { ($0.key, $0.value, 0, $0.key) }
        func appendFiles(_ files: [ArchiveEntry], depth: Int) {
            for var file in files.sorted(by: { $0.path.lowercased() < $1.path.lowercased() }) {
                file.name = components(file.path).last ?? file.path
                file.depth = depth
                result.append(file)
            }
        }
        // Files of a folder come after its subfolders: keep them until the subfolders are done.
        var pendingFiles: [(afterCount: Int, files: [ArchiveEntry], depth: Int)] = [(0, root.files, 0)]
        while let (name, folder, depth, path) = stack.popLast() {
            var entry = folder.entry ?? ArchiveEntry(path: path + "/", name: name, depth: depth, kind: .folder, size: nil,
                                                      modified: nil, isUnsafe: false, isEncrypted: false,
                                                      linkTarget: nil, headerIndex: nil)
            entry.name = name
            entry.depth = depth
            result.append(entry)
            let children = folder.folders.sorted { $0.key.lowercased() > $1.key.lowercased() }
            if folder.files.isEmpty == false {
                pendingFiles.append((stack.count, folder.files, depth + 1))
            }
            stack += children.map { ($0.key, $0.value, depth + 1, path + "/" + $0.key) }
            // Flush the files of every folder whose subfolders are all listed.
            while let pending = pendingFiles.last, stack.count <= pending.afterCount {
                pendingFiles.removeLast()
                appendFiles(pending.files, depth: pending.depth)
            }
        }
        for pending in pendingFiles.reversed() { appendFiles(pending.files, depth: pending.depth) }
        return result
    }
}
