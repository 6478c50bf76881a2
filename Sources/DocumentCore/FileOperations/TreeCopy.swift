import CGLib
import Foundation
import GObjectSupport

/// How much work copying an item is: the bytes of its files and the number of items.
struct CopySize {
    var bytes: Int64 = 0
    var items: Int64 = 0

    /// Progress units: one per byte of file content plus one per item, so that a tree of
    /// empty files still moves the bar.
    var units: Int64 { bytes + items }

    /// Measures `path` and everything under it, without following links.
    static func of(_ path: String) -> CopySize {
        guard let status = FileStatus.existing(path) else { return CopySize() }
        var size = CopySize(bytes: status.isRegularFile ? status.size : 0, items: 1)
        if status.isDirectory, let names = try? FileSystem.contentsOfFolder(path) {
            for name in names {
                let child = of(path + "/" + name)
                size.bytes += child.bytes
                size.items += child.items
            }
        }
        return size
    }
}

/// Copies one item to a place where nothing exists yet: a file with GIO's `g_file_copy`
/// (content, mode, times and extended attributes), a symbolic link as a link, a folder by
/// recreating it and copying what it holds. Symbolic links are never followed, so link
/// loops are copied as the links they are. Reports to a `Progress` and stops when it is
/// cancelled; on any failure or cancellation, what it had created is removed again.
final class TreeCopy {
    private let kind: FileOperationKind
    private let progress: Progress?
    private let cancellable: UnsafeMutablePointer<GCancellable>
    /// Progress units completed before the file being copied now.
    private var unitsBefore: Int64 = 0

    init(kind: FileOperationKind, progress: Progress?) {
        self.kind = kind
        self.progress = progress
        cancellable = g_cancellable_new()
        unitsBefore = progress?.completedUnitCount ?? 0
    }

    deinit {
        g_object_unref(cancellable)
    }

    /// Copies `source` to `destination`, which must not exist.
    func copy(_ source: String, to destination: String) throws(FileOperationError) {
        var createdTop = false
        do {
            try copyItem(source, to: destination, ancestors: [], createdTop: &createdTop)
        } catch {
            if createdTop {
                // Leave nothing half-copied behind; the original error is what matters.
                try? TreeRemoval().remove(destination)
            }
            throw error
        }
    }

    private func checkCancelled(_ path: String) throws(FileOperationError) {
        if progress?.isCancelled == true { throw .cancelled(kind, name: FileOperationError.displayName(path)) }
    }

    private func advance(by units: Int64) {
        unitsBefore += units
        progress?.completedUnitCount = unitsBefore
    }

    private func copyItem(
        _ source: String, to destination: String, ancestors: [(UInt64, UInt64)], createdTop: inout Bool
    ) throws(FileOperationError) {
        try checkCancelled(source)
        let status: FileStatus
        switch FileStatus.of(source) {
        case .success(let found): status = found
        case .failure(let error): throw FileOperationError(error, kind, path: source)
        }
        if status.isDirectory {
            try copyFolder(source, to: destination, status: status, ancestors: ancestors, createdTop: &createdTop)
        } else if status.isRegularFile || status.isSymbolicLink {
            try copyFile(source, to: destination, createdTop: &createdTop)
            advance(by: 1)
        } else if status.isFIFO {
            guard mkfifo(destination, status.permissions) == 0 else {
                throw FileOperationError(SystemError(errno), kind, path: destination)
            }
            createdTop = true
            setTimes(destination, from: status)
            advance(by: 1)
        } else {
            throw .specialFile(kind, name: FileOperationError.displayName(source))
        }
    }

    private func copyFolder(
        _ source: String, to destination: String, status: FileStatus, ancestors: [(UInt64, UInt64)],
        createdTop: inout Bool
    ) throws(FileOperationError) {
        // A bind mount can make a folder its own descendant; links cannot (they are not followed).
        if ancestors.contains(where: { $0 == (status.device, status.inode) }) {
            throw .loop(kind, name: FileOperationError.displayName(source))
        }
        let names: [String]
        do {
            names = try FileSystem.contentsOfFolder(source)
        } catch {
            throw FileOperationError(error, kind, path: source)
        }
        try withGFile(destination) { file throws(FileOperationError) in
            do {
                _ = try withGError { g_file_make_directory(file, cancellable, $0) }
            } catch let error as GLibError {
                throw FileOperationError(error, kind, path: destination)
            } catch {
                throw .failed(kind, name: FileOperationError.displayName(destination), reason: "\(error)")
            }
        }
        createdTop = true
        advance(by: 1)
        var created = true
        let inside = ancestors + [(status.device, status.inode)]
        for name in names.sorted() {
            try copyItem(source + "/" + name, to: destination + "/" + name, ancestors: inside, createdTop: &created)
        }
        // Metadata last: a read-only mode would stop the children, and they would bump the mtime.
        withGFile(source) { from in
            withGFile(destination) { to in
                // Extended attributes, best effort: the owner cannot be set by a normal user.
                _ = try? withGError {
                    g_file_copy_attributes(from, to, copyFlags, nil, $0)
                }
            }
        }
        chmod(destination, status.permissions)
        setTimes(destination, from: status)
    }

    private func copyFile(_ source: String, to destination: String, createdTop: inout Bool) throws(FileOperationError) {
        let context = Unmanaged.passRetained(self)
        defer { context.release() }
        var failure: FileOperationError?
        withGFile(source) { from in
            withGFile(destination) { to in
                do {
                    _ = try withGError {
                        g_file_copy(from, to, copyFlags, cancellable, copyProgressCallback, context.toOpaque(), $0)
                    }
                } catch let error as GLibError {
                    failure = FileOperationError(error, kind, path: error.isIOError(G_IO_ERROR_EXISTS) ? destination : source)
                } catch {
                    failure = .failed(kind, name: FileOperationError.displayName(source), reason: "\(error)")
                }
            }
        }
        if let failure {
            // g_file_copy creates the file with O_EXCL: unless it already existed, a partial
            // copy is ours to remove (GIO leaves it behind when cancelled).
            if case .alreadyExists = failure {} else if FileStatus.existing(destination) != nil {
                unlink(destination)
            }
            throw failure
        }
        createdTop = true
        unitsBefore += FileStatus.existing(destination).map { $0.isRegularFile ? $0.size : 0 } ?? 0
        progress?.completedUnitCount = unitsBefore
    }

    /// Called by GIO after each chunk of a file.
    fileprivate func reportBytes(_ bytes: Int64) {
        progress?.completedUnitCount = unitsBefore + bytes
        if progress?.isCancelled == true {
            g_cancellable_cancel(cancellable)
        }
    }

    private func setTimes(_ path: String, from status: FileStatus) {
        let times = [status.accessTime, status.modificationTime]
        utimensat(AT_FDCWD, path, times, AT_SYMLINK_NOFOLLOW)
    }
}

/// Links stay links; mode, times, extended attributes (and the owner, when allowed) are kept.
private let copyFlags = GFileCopyFlags(rawValue: DOSSIER_G_FILE_COPY_NOFOLLOW_SYMLINKS | DOSSIER_G_FILE_COPY_ALL_METADATA)

private let copyProgressCallback: GFileProgressCallback = { current, _, data in
    guard let data else { return }
    Unmanaged<TreeCopy>.fromOpaque(data).takeUnretainedValue().reportBytes(Int64(current))
}

/// Calls `body` with a GFile for a local path, released afterwards.
func withGFile<T, E: Error>(_ path: String, _ body: (OpaquePointer) throws(E) -> T) throws(E) -> T {
    let file = g_file_new_for_path(path)!
    defer { unref(file) }
    return try body(file)
}
