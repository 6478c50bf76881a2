import CGLib
import Foundation

/// What lstat(2) says about one path: never follows a final symbolic link.
struct FileStatus {
    let raw: stat

    /// The status of `path`, or the errno that explains why there is none.
    static func of(_ path: String) -> Result<FileStatus, SystemError> {
        var status = stat()
        guard lstat(path, &status) == 0 else { return .failure(SystemError(errno)) }
        return .success(FileStatus(raw: status))
    }

    /// The status of `path`, or nil when it cannot be read (missing, no permission…).
    static func existing(_ path: String) -> FileStatus? {
        try? of(path).get()
    }

    var fileType: mode_t { raw.st_mode & S_IFMT }
    var isDirectory: Bool { fileType == S_IFDIR }
    var isSymbolicLink: Bool { fileType == S_IFLNK }
    var isRegularFile: Bool { fileType == S_IFREG }
    var isFIFO: Bool { fileType == S_IFIFO }
    /// Permission bits, including set-id and sticky bits.
    var permissions: mode_t { raw.st_mode & 0o7777 }
    var isSticky: Bool { raw.st_mode & S_ISVTX != 0 }
    var device: UInt64 { UInt64(raw.st_dev) }
    var inode: UInt64 { UInt64(raw.st_ino) }
    var owner: uid_t { raw.st_uid }
    var size: Int64 { Int64(raw.st_size) }
    /// Bytes of disk the item takes, as `du -B1` counts them.
    var diskUsage: Int64 { Int64(raw.st_blocks) * 512 }
    var accessTime: timespec { raw.st_atim }
    var modificationTime: timespec { raw.st_mtim }

    /// True when both describe the same file system object.
    func isSameItem(as other: FileStatus) -> Bool {
        device == other.device && inode == other.inode
    }
}

/// An errno value with the C library's description of it.
struct SystemError: Error, Equatable, Sendable {
    let code: Int32

    init(_ code: Int32) { self.code = code }

    var message: String { String(cString: strerror(code)) }
}

/// Small wrappers over the POSIX calls the operations and the Trash share.
enum FileSystem {
    /// Renames without ever replacing an existing item (renameat2 RENAME_NOREPLACE).
    /// File systems without RENAME_NOREPLACE get a check-then-rename instead.
    static func renameWithoutReplacing(_ from: String, _ to: String) throws(SystemError) {
        if dossier_rename_noreplace(from, to) == 0 { return }
        var error = errno
        if error == EACCES, let status = FileStatus.existing(from), status.isDirectory, status.owner == geteuid(),
            status.permissions & S_IWUSR == 0
        {
            // Moving a folder to another parent rewrites its "..", which needs write permission
            // on the folder itself: lend it to our own read-only folder, then take it back.
            chmod(from, status.permissions | S_IWUSR)
            let moved = dossier_rename_noreplace(from, to) == 0
            error = errno
            chmod(moved ? to : from, status.permissions)
            if moved { return }
        }
        guard error == EINVAL || error == ENOSYS || error == EOPNOTSUPP else { throw SystemError(error) }
        // EINVAL also means "a folder into itself": that check happens before we get here.
        if FileStatus.existing(to) != nil { throw SystemError(EEXIST) }
        guard rename(from, to) == 0 else { throw SystemError(errno) }
    }

    /// The canonical absolute path of `path` with its parent folders' symbolic links resolved
    /// but the last component kept as it is (so a link stays the link, not its target).
    static func resolvingParent(of path: String) -> String {
        let url = URL(fileURLWithPath: path, isDirectory: false).standardizedFileURL
        let name = url.lastPathComponent
        let parent = url.deletingLastPathComponent().path
        guard let resolved = realpath(parent, nil) else { return url.path }
        defer { free(resolved) }
        let parentPath = String(cString: resolved)
        if name.isEmpty || name == "/" { return parentPath }
        return parentPath == "/" ? "/" + name : parentPath + "/" + name
    }

    /// True when `path` is `ancestor` or lies somewhere inside it.
    static func isPath(_ path: String, inside ancestor: String) -> Bool {
        if path == ancestor { return true }
        let prefix = ancestor.hasSuffix("/") ? ancestor : ancestor + "/"
        return path.hasPrefix(prefix)
    }

    /// Creates `path` and any missing parents with mode `mode` (before the umask).
    static func createFolders(_ path: String, mode: mode_t = 0o777) throws(SystemError) {
        var status = stat()
        if stat(path, &status) == 0 {  // following links: a link to a folder will do
            if status.st_mode & S_IFMT == S_IFDIR { return }
            throw SystemError(ENOTDIR)
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path {
            try createFolders(parent, mode: mode)
        }
        if mkdir(path, mode) != 0, errno != EEXIST {
            throw SystemError(errno)
        }
    }

    /// Writes all of `bytes` to `fd`, retrying short writes and interruptions.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(SystemError) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                write(fd, buffer.baseAddress.map { $0 + written }, bytes.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemError(errno)
            }
            written += count
        }
    }

    /// The names in a folder, without "." and "..", in no particular order.
    static func contentsOfFolder(_ path: String) throws(SystemError) -> [String] {
        guard let directory = opendir(path) else { throw SystemError(errno) }
        defer { closedir(directory) }
        return names(in: directory)
    }

    /// The names an open directory stream lists, without "." and "..".
    static func names(in directory: OpaquePointer) -> [String] {
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Why a file whose name is not UTF-8 is refused by the operations that still take a path
    /// string (they could reach another file, whose name its U+FFFD text spells).
    static var bytesNameReason: String {
        tr("its name is not UTF-8, which Dossier does not rename, move, copy or trash yet")
    }

    /// The path of a local file URL; nil for another URL, or one whose path is not UTF-8.
    static func localPath(_ url: URL) -> String? {
        guard url.isFileURL else { return nil }
        let path = url.path
        return path.isEmpty ? nil : path
    }
}
