import DocumentCore
import Foundation

/// How much a folder holds, counted by a bounded walk: it stops after `entryLimit` entries or
/// `timeLimit`, whichever comes first, and then says "more than". Symbolic links are counted
/// but never followed, and folders on other file systems (mount points) are counted but not
/// entered, so a walk cannot leave the folder or wander into /proc.
struct FolderSummary: Sendable, Equatable {
    /// Entries directly in the folder.
    var directItems = 0
    /// Entries at any depth inside the folder.
    var totalItems = 0
    /// The apparent size of the regular files inside.
    var totalSize: Int64 = 0
    /// False when the walk stopped at a limit: the counts are lower bounds.
    var isComplete = true
    /// False when the walk stopped before listing the folder itself to the end.
    var isDirectCountComplete = true
    /// Folders inside that could not be read (permissions).
    var unreadableFolders = 0

    static let entryLimit = 100_000
    static let timeLimit: Duration = .seconds(2)

    /// Walks the folder at `path` (blocking: call it off the main thread).
    static func measure(_ path: FileSystemPath, entryLimit: Int = entryLimit, timeLimit: Duration = timeLimit) -> Result<FolderSummary, PreviewError> {
        var root = stat()
        guard path.withCString({ stat($0, &root) }) == 0 else {
            return .failure(PreviewError(tr("The folder could not be read: %s", String(cString: strerror(errno)))))
        }
        var summary = FolderSummary()
        let clock = ContinuousClock(), start = clock.now
        // Breadth first: the folder's own entries are counted before anything deeper.
        var queue = [path]
        var next = 0
        var isRoot = true
        walk: while next < queue.count {
            let folder = queue[next]
            next += 1
            defer { isRoot = false }
            let flags = isRoot ? O_RDONLY | O_DIRECTORY | O_CLOEXEC : O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
            let descriptor = folder.withCString { open($0, flags) }
            guard descriptor >= 0, let directory = fdopendir(descriptor) else {
                if descriptor >= 0 { close(descriptor) }
                if isRoot {
                    return .failure(PreviewError(tr("The folder could not be read: %s", String(cString: strerror(errno)))))
                }
                summary.unreadableFolders += 1
                continue
            }
            defer { closedir(directory) }
            let directoryDescriptor = dirfd(directory)
            while let entry = readdir(directory) {
                let isSelfOrParent = withUnsafePointer(to: &entry.pointee.d_name) { name -> Bool in
                    let bytes = UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self)
                    return bytes[0] == 0x2E && (bytes[1] == 0 || (bytes[1] == 0x2E && bytes[2] == 0))
                }
                if isSelfOrParent { continue }
                summary.totalItems += 1
                if isRoot { summary.directItems += 1 }
                var status = stat()
                let found = withUnsafePointer(to: &entry.pointee.d_name) { name in
                    fstatat(directoryDescriptor, UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self), &status,
                            AT_SYMLINK_NOFOLLOW) == 0
                }
                if found {
                    switch status.st_mode & S_IFMT {
                    case S_IFREG:
                        summary.totalSize += Int64(status.st_size)
                    case S_IFDIR where status.st_dev == root.st_dev:
                        // A name's bytes, which need not be UTF-8.
                        let name = withUnsafePointer(to: &entry.pointee.d_name) { name in
                            UnsafeRawBufferPointer(start: name, count: strlen(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self)))
                        }
                        queue.append(FileSystemPath(bytes: folder.bytes + [UInt8(ascii: "/")] + name))
                    default:
                        break  // links, devices, other file systems: counted, not entered
                    }
                }
                if summary.totalItems >= entryLimit || (summary.totalItems % 256 == 0 && clock.now - start > timeLimit) {
                    summary.isComplete = false
                    if isRoot { summary.isDirectCountComplete = false }
                    break walk
                }
            }
            // Folders already read are not kept: the queue only grows by what is still to read.
            if next > 4096 {
                queue.removeFirst(next)
                next = 0
            }
        }
        return .success(summary)
    }
}
