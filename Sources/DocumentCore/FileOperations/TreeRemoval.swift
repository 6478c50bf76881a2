import CGLib
import Foundation

/// Deletes an item and, for a folder, everything in it, without ever following a symbolic
/// link: folders are opened relative to their parent with `O_NOFOLLOW | O_DIRECTORY`, so a
/// link swapped in for a folder mid-way is removed as a link, never walked into.
struct TreeRemoval {
    /// Where a removal stopped: the item it could not remove and why.
    struct Failure: Error {
        let path: String
        let error: SystemError
    }

    /// Called after each removed item with how many items it removed; return false to stop.
    var shouldContinue: (Int64) -> Bool = { _ in true }

    /// Counts `path` and everything under it, without following links.
    static func count(_ path: String) -> Int64 {
        guard let status = FileStatus.existing(path) else { return 0 }
        guard status.isDirectory, let names = try? FileSystem.contentsOfFolder(path) else { return 1 }
        return names.reduce(1) { $0 + count(path + "/" + $1) }
    }

    /// Removes `path` (a file, a link or a whole folder). Throws `Failure` with the first item
    /// that could not be removed, or with `ECANCELED` when `shouldContinue` said stop.
    func remove(_ path: String) throws(Failure) {
        guard let status = FileStatus.existing(path) else {
            throw Failure(path: path, error: SystemError(errno))
        }
        if status.isDirectory {
            let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else { throw Failure(path: path, error: SystemError(errno)) }
            defer { close(fd) }
            try removeContents(of: fd, path: path)
            guard rmdir(path) == 0 else { throw Failure(path: path, error: SystemError(errno)) }
        } else {
            guard unlink(path) == 0 else { throw Failure(path: path, error: SystemError(errno)) }
        }
        try report(1, path)
    }

    private func report(_ count: Int64, _ path: String) throws(Failure) {
        if !shouldContinue(count) { throw Failure(path: path, error: SystemError(ECANCELED)) }
    }

    /// Empties the open folder `fd` (whose path, for messages, is `path`).
    private func removeContents(of fd: Int32, path: String) throws(Failure) {
        let listing = dup(fd)
        guard listing >= 0, let directory = fdopendir(listing) else {
            throw Failure(path: path, error: SystemError(errno))
        }
        let names = FileSystem.names(in: directory)
        closedir(directory)
        for name in names {
            let child = path + "/" + name
            var status = stat()
            guard fstatat(fd, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
                if errno == ENOENT { continue }  // removed by someone else meanwhile
                throw Failure(path: child, error: SystemError(errno))
            }
            if status.st_mode & S_IFMT == S_IFDIR {
                var childFD = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                if childFD < 0, errno == EACCES, status.st_uid == geteuid() {
                    // A folder we own but may not read (mode 0 or 0200): let ourselves in.
                    fchmodat(fd, name, (status.st_mode & 0o7777) | S_IRWXU, 0)
                    childFD = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                }
                guard childFD >= 0 else { throw Failure(path: child, error: SystemError(errno)) }
                defer { close(childFD) }
                try removeContents(of: childFD, path: child)
                try removeEntry(name, in: fd, folder: true, path: child)
            } else {
                try removeEntry(name, in: fd, folder: false, path: child)
            }
            try report(1, child)
        }
    }

    private func removeEntry(_ name: String, in fd: Int32, folder: Bool, path: String) throws(Failure) {
        let flags = folder ? AT_REMOVEDIR : 0
        if unlinkat(fd, name, flags) == 0 { return }
        var parent = stat()
        if errno == EACCES, fstat(fd, &parent) == 0, parent.st_uid == geteuid() {
            // A read-only folder we own (0555, as build caches make): make it writable, retry.
            fchmod(fd, (parent.st_mode & 0o7777) | S_IRWXU)
            if unlinkat(fd, name, flags) == 0 { return }
        }
        throw Failure(path: path, error: SystemError(errno))
    }
}
