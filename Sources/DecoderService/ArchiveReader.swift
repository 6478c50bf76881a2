import CArchive
import CGLib
import CSandbox
import DocumentCore
import Foundation

/// libarchive, in the decoder worker: lists an archive and takes one entry's data out. The
/// process that shows the result never calls it; it asks a worker (`ArchiveWorkers`).
///
/// Every format and filter libarchive has (zip, tar and its compressed forms, 7z, rar, cpio,
/// ar/deb, ISO 9660…). libarchive's own extraction to disk is not used at all: an entry's data
/// goes into a sealed memfd, and the caller decides where it is written.
package enum ArchiveReader {
    /// Loads libarchive, once. The worker calls it before its lock-down: a dlopen() after it
    /// works (the library and its dependencies are opened read-only and mapped, which the
    /// filter allows), but would break with any tighter rule on mmap or open, and would be
    /// paid by the first request rather than at the worker's start.
    static func load() -> ArchiveError? {
        var error: UnsafeMutablePointer<CChar>?
        guard dossier_archive_load(&error) != 0 else {
            let reason = error.map { String(cString: $0) } ?? ""
            g_free(error)
            return .libraryMissing(reason)
        }
        return nil
    }

    /// libarchive reading the file open at `input` from its start with every format and filter;
    /// `raw` also accepts a lone compressed file (`notes.txt.gz`) as an archive of one entry.
    private static func open(_ input: Int32, raw: Bool) throws(ArchiveError) -> OpaquePointer {
        if let error = load() { throw error }
        guard let archive = archive_read_new() else { throw .unreadable(tr("out of memory")) }
        archive_read_support_filter_all(archive)
        archive_read_support_format_all(archive)
        if raw { archive_read_support_format_raw(archive) }
        guard lseek(input, 0, SEEK_SET) == 0, archive_read_open_fd(archive, input, 65_536) == ARCHIVE_OK else {
            let message = errorMessage(archive)
            archive_read_free(archive)
            throw .unreadable(message)
        }
        return archive
    }

    private static func errorMessage(_ archive: OpaquePointer) -> String {
        archive_error_string(archive).map { String(cString: $0) } ?? tr("the data is damaged or in an unknown format")
    }

    // MARK: Listing

    /// The entries of the archive open at `input`, in the archive's order, within the listing's
    /// limits (entries, time, text); `name` is the archive's file name without its extension,
    /// which names the one entry of a lone compressed file. Names are paths, and unsafe flags
    /// and the tree are left to the caller (`ArchiveListing.arranged`).
    package static func list(_ input: Int32, raw: Bool, name: String) throws(ArchiveError) -> ArchiveListing {
        let archive = try open(input, raw: raw)
        defer { archive_read_free(archive) }
        var entries: [ArchiveEntry] = []
        var damage: String?
        var isTruncated = false
        var failures = 0
        var textBytes = 0
        let clock = ContinuousClock(), start = clock.now
        var header: OpaquePointer?
        while true {
            let status = archive_read_next_header(archive, &header)
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
            guard let header else { break }
            let entry = describe(header, in: archive, index: entries.count, name: name)
            textBytes += entry.path.utf8.count + (entry.linkTarget?.utf8.count ?? 0)
            if textBytes > ArchiveListing.textLimit {
                isTruncated = true
                break
            }
            entries.append(entry)
            if entries.count >= ArchiveListing.entryLimit
                || (entries.count % 256 == 0 && clock.now - start > ArchiveListing.timeLimit) {
                isTruncated = true
                break
            }
        }
        if entries.isEmpty, let damage { throw .unreadable(damage) }
        return ArchiveListing(entries: entries, isTruncated: isTruncated,
                              damage: damage.map { ArchiveListing.truncated($0, toBytes: ArchiveListing.damageLimit) })
    }

    private static func describe(_ header: OpaquePointer, in archive: OpaquePointer, index: Int, name: String) -> ArchiveEntry {
        var path = storedPath(header)
        var kind: ArchiveEntry.Kind
        var linkTarget: String?
        switch archive_entry_filetype(header) & 0o170000 {
        case 0o100000:
            kind = .file
            if let hardlink = archive_entry_hardlink(header) {
                kind = .link
                linkTarget = text(hardlink)
            }
        case 0o040000: kind = .folder
        case 0o120000:
            kind = .link
            linkTarget = (archive_entry_symlink_utf8(header) ?? archive_entry_symlink(header)).map(text)
        default: kind = .other
        }
        // A lone compressed file is one entry called "data": name it after the file instead.
        if path.isEmpty || archive_format(archive) == ARCHIVE_FORMAT_RAW {
            path = ArchiveListing.truncated(name, toBytes: ArchiveListing.pathLimit)
        }
        return ArchiveEntry(
            path: path, name: path, depth: 0, kind: kind,
            size: archive_entry_size_is_set(header) != 0 ? archive_entry_size(header) : nil,
            modified: archive_entry_mtime_is_set(header) != 0 ? Date(timeIntervalSince1970: TimeInterval(archive_entry_mtime(header))) : nil,
            isUnsafe: false, isEncrypted: archive_entry_is_encrypted(header) != 0,
            linkTarget: linkTarget, headerIndex: index)
    }

    /// The entry's path as UTF-8 (libarchive converts from the archive's charset), else its
    /// bytes repaired; at most `ArchiveListing.pathLimit` bytes.
    private static func storedPath(_ header: OpaquePointer) -> String {
        guard let bytes = archive_entry_pathname_utf8(header) ?? archive_entry_pathname(header) else { return "" }
        return text(bytes)
    }

    /// A C string from the archive as UTF-8 (repaired) of at most `ArchiveListing.pathLimit` bytes.
    private static func text(_ bytes: UnsafePointer<CChar>) -> String {
        let length = min(strlen(bytes), ArchiveListing.pathLimit + 4)
        let repaired = String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
        return ArchiveListing.truncated(repaired, toBytes: ArchiveListing.pathLimit)
    }

    // MARK: One entry

    /// The data of the entry at `headerIndex` of the archive open at `input`, at most
    /// `ArchiveExtraction.sizeLimit` bytes, in a sealed memfd (its fd is returned, the caller
    /// closes it). Unless `raw`, the entry's stored path must still have `pathDigest`.
    static func extract(_ input: Int32, raw: Bool, headerIndex: Int, pathDigest: String) throws(ArchiveError) -> Int32 {
        let archive = try open(input, raw: raw)
        defer { archive_read_free(archive) }
        // Find the entry again by its position, and check it is the same one.
        // Headers are counted as `list` counts them: those it skipped are skipped here too.
        var header: OpaquePointer?
        var index = 0
        var failures = 0
        while true {
            let status = archive_read_next_header(archive, &header)
            if status == ARCHIVE_EOF || status == ARCHIVE_FATAL || (status == ARCHIVE_FAILED && failures > 100) {
                throw .unreadable(errorMessage(archive))
            }
            if status == ARCHIVE_RETRY { continue }
            if status == ARCHIVE_FAILED {
                failures += 1
                continue
            }
            if index == headerIndex { break }
            index += 1
        }
        guard let header, raw || ArchiveWorkers.digest(storedPath(header)) == pathDigest else { throw .changed }

        let file = dossier_memfd_create("dossier-archive-entry", 0)
        guard file >= 0 else { throw .cannotExtract(String(cString: strerror(errno))) }
        var written: Int64 = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { archive_read_data(archive, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                close(file)
                throw .cannotExtract(errorMessage(archive))
            }
            written += Int64(count)
            if written > ArchiveExtraction.sizeLimit {
                close(file)
                throw .tooLarge(ArchiveExtraction.sizeLimit)
            }
            guard buffer.withUnsafeBytes({ writeAll(file, $0.baseAddress!, count) }) else {
                let reason = String(cString: strerror(errno))
                close(file)
                throw .cannotExtract(reason)
            }
        }
        guard dossier_memfd_seal(file) == 0 else {
            let reason = String(cString: strerror(errno))
            close(file)
            throw .cannotExtract(reason)
        }
        return file
    }

    /// The worker's own extraction, in this process: for the fuzz target, which checks what
    /// the caller then does with the bytes.
    package static func extractHere(_ input: Int32, raw: Bool, entry: ArchiveEntry) throws(ArchiveError) -> SealedBlob {
        guard let headerIndex = entry.headerIndex else { throw .notRegularFile }
        let file = try extract(input, raw: raw, headerIndex: headerIndex, pathDigest: ArchiveWorkers.digest(entry.path))
        guard let blob = SealedBlob(adopting: file) else { throw .cannotExtract(tr("the extracted data was not sealed")) }
        return blob
    }

    private static func writeAll(_ file: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Bool {
        var offset = 0
        while offset < count {
            let result = write(file, bytes + offset, count - offset)
            if result < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += result
        }
        return true
    }
}
