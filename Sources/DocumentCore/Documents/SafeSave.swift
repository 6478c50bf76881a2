import CGLib
import Foundation

/// What a save expects to find on disk before it writes.
public enum SaveExpectation: Sendable, Equatable {
    /// Write whatever is there (a "Save As" that the user confirmed, say).
    case anything
    /// The file must not exist yet.
    case absent
    /// The file must still be the version that was read.
    case version(FileVersion)
}

/// A save that found someone else's newer version on disk: both versions are offered, and
/// nothing was written.
public struct SaveConflict: Sendable, Equatable {
    /// The file, on disk as the other writer left it.
    public let url: URL
    /// What the saver expected to find.
    public let expected: SaveExpectation
    /// What is on disk now (nil: the file was deleted).
    public let current: FileVersion?
    /// The content that was to be saved.
    public let unsavedContents: Data
}

/// Why a save did not happen.
public enum SaveError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// Someone else changed or deleted the file since the version the save expected.
    case conflict(SaveConflict)
    /// Writing, syncing or renaming into place failed; the file on disk is as it was.
    case failed(name: String, reason: String)

    public var description: String {
        switch self {
        case .conflict(let conflict):
            conflict.current == nil
                ? tr("'%s' was not saved: it was deleted by another program", conflict.url.lastPathComponent)
                : tr("'%s' was not saved: another program changed it since it was opened", conflict.url.lastPathComponent)
        case .failed(let name, let reason): tr("'%s' could not be saved: %s", name, reason)
        }
    }

    public var errorDescription: String? { description }
}

/// Writing a file so that a reader, a crash or a power cut sees the old version or the new
/// one, whole, never a mix: a temporary file in the same folder, fsync, rename over the
/// original, fsync the folder. Mode, owner and extended attributes of the original are kept;
/// a symbolic link is written through to its target and stays a link. A file with several
/// hard links is written in place instead, as GIO's replace does, so the links keep sharing
/// it (that write is not atomic).
///
/// Not coordinated by itself: call it inside `FileCoordinator.coordinate(writingItemAt:)`.
package enum SafeSave {
    /// Writes `contents` to `url` if what is there matches `expectation`.
    /// - Returns: the version just written.
    /// - Throws: `SaveError.conflict` (nothing written) or `SaveError.failed`.
    @discardableResult
    package static func write(_ contents: Data, to url: URL, expecting expectation: SaveExpectation = .anything)
        throws(SaveError) -> FileVersion {
        let name = url.lastPathComponent
        let target = resolveLinks(url.path)
        var original = stat()
        let exists = stat(target, &original) == 0
        let current = exists ? FileVersion(original) : nil
        switch expectation {
        case .anything: break
        case .absent where current != nil, .version where current != expectation.version:
            throw .conflict(SaveConflict(url: url, expected: expectation, current: current, unsavedContents: contents))
        default: break
        }
        if exists && original.st_mode & S_IFMT != S_IFREG {
            throw .failed(name: name, reason: tr("it is not a regular file"))
        }
        if exists && original.st_nlink > 1 {
            return try writeInPlace(contents, to: target, name: name)
        }
        return try replace(target, with: contents, original: exists ? original : nil, name: name)
    }

    private static func replace(_ target: String, with contents: Data, original: stat?, name: String) throws(SaveError) -> FileVersion {
        let folder = (target as NSString).deletingLastPathComponent
        var template = Array((folder + "/." + (target as NSString).lastPathComponent + ".XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .failed(name: name, reason: String(cString: strerror(errno))) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var committed = false
        defer {
            close(fd)
            if !committed { unlink(temporary) }
        }
        do {
            try writeAll(contents, to: fd, name: name)
            if let original {
                fchmod(fd, original.st_mode & 0o7777)
                fchown(fd, original.st_uid, original.st_gid)  // may fail for a non-root saver: the file is then theirs
                copyExtendedAttributes(from: target, to: fd)
            } else {
                let mask = umask(0)
                umask(mask)
                fchmod(fd, 0o666 & ~mask)
            }
            guard fsync(fd) == 0 else { throw SaveError.failed(name: name, reason: String(cString: strerror(errno))) }
            guard rename(temporary, target) == 0 else { throw SaveError.failed(name: name, reason: String(cString: strerror(errno))) }
            committed = true
        } catch let error as SaveError {
            throw error
        } catch {
            throw .failed(name: name, reason: "\(error)")
        }
        syncFolder(folder)
        var written = stat()
        guard fstat(fd, &written) == 0 else { throw .failed(name: name, reason: String(cString: strerror(errno))) }
        return FileVersion(written)
    }

    private static func writeInPlace(_ contents: Data, to target: String, name: String) throws(SaveError) -> FileVersion {
        let fd = open(target, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .failed(name: name, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        try writeAll(contents, to: fd, name: name)
        guard ftruncate(fd, off_t(contents.count)) == 0, fsync(fd) == 0 else {
            throw .failed(name: name, reason: String(cString: strerror(errno)))
        }
        var written = stat()
        fstat(fd, &written)
        return FileVersion(written)
    }

    private static func writeAll(_ contents: Data, to fd: Int32, name: String) throws(SaveError) {
        let failure: Int32? = contents.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = pwrite(fd, buffer.baseAddress! + offset, buffer.count - offset, off_t(offset))
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += count
            }
            return nil
        }
        if let failure { throw .failed(name: name, reason: String(cString: strerror(failure))) }
    }

    /// Follows symbolic links from `path` to the file they end at (which may not exist yet).
    static func resolveLinks(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, Int(PATH_MAX))
            guard length > 0 else { return current }
            let target = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = target.hasPrefix("/") ? target : (current as NSString).deletingLastPathComponent + "/" + target
        }
        return current
    }

    private static func copyExtendedAttributes(from path: String, to fd: Int32) {
        let size = listxattr(path, nil, 0)
        guard size > 0 else { return }
        var names = [CChar](repeating: 0, count: size)
        let listed = listxattr(path, &names, size)
        guard listed > 0 else { return }
        for name in names[0..<listed].split(separator: 0) {
            let key = Array(name) + [0]
            let valueSize = getxattr(path, key, nil, 0)
            guard valueSize >= 0 else { continue }
            var value = [UInt8](repeating: 0, count: valueSize)
            let read = getxattr(path, key, &value, valueSize)
            guard read >= 0 else { continue }
            fsetxattr(fd, key, value, read, 0)  // attributes the saver may not set are skipped
        }
    }

    private static func syncFolder(_ folder: String) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}

extension SaveExpectation {
    var version: FileVersion? {
        if case .version(let version) = self { return version }
        return nil
    }
}
