import CGLib
import Foundation
import GObjectSupport

/// The file operations of a document browser — rename, duplicate, move, copy, new folder,
/// move to Trash, restore, delete — on local files, and through GIO on remote locations
/// (GVFS: sftp, smb, dav…) and between the two. Each method does one operation
/// synchronously (call it off the main thread), never replaces an existing item, and returns
/// what an undo needs. Long ones report to a `Progress`: they add their work to its
/// `totalUnitCount` (one unit per item plus one per byte copied), complete it as they go,
/// and stop when it is cancelled, removing whatever they had half made.
///
/// Each operation on local files is a coordinated access (see `FileCoordinator`): open
/// documents and folder views hear of it before the call returns. Coordination, the
/// freedesktop Trash and restoring are local-only: a remote item goes to its location's own
/// trash where it has one (`.trashedOnServer`, not undoable), else the move fails with
/// `.trashNotSupported` and the caller offers `deletePermanently`.
public struct FileOperations: Sendable {
    /// The Trash that `moveToTrash` and `restore` use.
    public let trash: Trash

    /// Makes the operations with the Trash that trashing and restoring use.
    public init(trash: Trash = Trash()) {
        self.trash = trash
    }

    // MARK: Rename

    /// Gives the item at `url` a new name in the same folder.
    /// - Throws: `.invalidName` for an empty name, one with "/" or a NUL, "." or "..", or one
    ///   longer than 255 bytes; `.alreadyExists` when another item has that name.
    public func rename(_ url: URL, to newName: String) throws(FileOperationError) -> FileOperationResult {
        guard url.isFileURL else { return try renameRemotely(url, to: newName) }
        let path = try Self.localPath(url, .rename)
        let name = FileOperationError.displayName(path)
        if let problem = FileName.problem(with: newName) {
            throw .invalidName(.rename, name: name, newName: newName, problem: problem)
        }
        let status = try Self.status(path, .rename)
        if newName == name { return .renamed(from: url, to: url) }
        let destination = (path as NSString).deletingLastPathComponent + "/" + newName
        var sameItem = false
        if let existing = FileStatus.existing(destination) {
            // On a case-insensitive file system "a.txt" → "A.txt" finds the item itself.
            guard existing.isSameItem(as: status) else {
                throw .alreadyExists(.rename, name: name, existing: newName, isFolder: existing.isDirectory)
            }
            sameItem = true
        }
        try Self.coordinating(.move(url, to: URL(fileURLWithPath: destination)), .rename) { () throws(FileOperationError) in
            do throws(SystemError) {
                if sameItem {
                    guard Glibc.rename(path, destination) == 0 else { throw SystemError(errno) }
                } else {
                    try FileSystem.renameWithoutReplacing(path, destination)
                }
            } catch {
                throw Self.error(error, .rename, name: name, destination: destination)
            }
        }
        return .renamed(from: url, to: URL(fileURLWithPath: destination, isDirectory: status.isDirectory))
    }

    // MARK: New folder

    /// Makes an empty folder in `folder`: named `name`, or else the first free one of
    /// "Untitled Folder", "Untitled Folder 2", …
    public func createFolder(in folder: URL, named name: String? = nil) throws(FileOperationError) -> FileOperationResult {
        guard folder.isFileURL else { return try createFolderRemotely(in: folder, named: name) }
        let parent = try Self.localPath(folder, .createFolder)
        guard FileStatus.existing(parent)?.isDirectory == true else {
            throw .notFound(.createFolder, name: FileOperationError.displayName(parent))
        }
        if let name {
            if let problem = FileName.problem(with: name) {
                throw .invalidName(.createFolder, name: name, newName: name, problem: problem)
            }
            return .createdFolder(try makeFolder(parent + "/" + name))
        }
        for number in 1...10_000 {
            do {
                return .createdFolder(try makeFolder(parent + "/" + FileName.untitledFolderName(number: number)))
            } catch .alreadyExists {
                continue
            }
        }
        throw .alreadyExists(
            .createFolder, name: FileName.untitledFolderName(number: 1), existing: FileName.untitledFolderName(number: 1),
            isFolder: true)
    }

    private func makeFolder(_ path: String) throws(FileOperationError) -> URL {
        try Self.coordinating(.write(URL(fileURLWithPath: path)), .createFolder) { () throws(FileOperationError) in
            try makeFolderUncoordinated(path)
        }
    }

    private func makeFolderUncoordinated(_ path: String) throws(FileOperationError) -> URL {
        try withGFile(path) { file throws(FileOperationError) in
            do {
                _ = try withGError { g_file_make_directory(file, nil, $0) }
            } catch let error as GLibError {
                throw FileOperationError(error, .createFolder, path: path)
            } catch {
                throw .failed(.createFolder, name: FileOperationError.displayName(path), reason: "\(error)")
            }
        }
        return URL(fileURLWithPath: path, isDirectory: true)
    }

    // MARK: Trash

    /// Moves the item to the Trash (see `Trash.trash(_:)`); undo restores it. A remote item
    /// goes to its location's trash (`.trashedOnServer`, no undo).
    /// - Throws: `.trashNotSupported` for a remote item whose location has no trash.
    public func moveToTrash(_ url: URL) throws(FileOperationError) -> FileOperationResult {
        guard url.isFileURL else { return try moveToTrashRemotely(url) }
        return try Self.coordinating(.delete(url), .trash) { () throws(FileOperationError) in
            do throws(TrashError) {
                return .trashed(try trash.trash(url))
            } catch {
                throw .trash(error)
            }
        }
    }

    /// Moves each item to the Trash; one that cannot go is reported and the others still go.
    public func moveToTrash(_ urls: [URL], progress: Progress? = nil) -> FileOperationBatch {
        var batch = FileOperationBatch()
        progress?.totalUnitCount += Int64(urls.count)
        for url in urls {
            if progress?.isCancelled == true {
                batch.failures.append(.cancelled(.trash, name: url.lastPathComponent))
                break
            }
            do {
                batch.results.append(try moveToTrash(url))
            } catch {
                batch.failures.append(error)
            }
            progress?.completedUnitCount += 1
        }
        return batch
    }

    /// Puts a trashed item back where it was (see `Trash.restore(_:)`).
    public func restore(_ item: TrashedItem, progress: Progress? = nil) throws(FileOperationError) -> FileOperationResult {
        try Self.coordinating(.write(item.originalURL), .restore) { () throws(FileOperationError) in
            do throws(TrashError) {
                return .restored(item, to: try trash.restore(item, progress: progress))
            } catch {
                throw .trash(error)
            }
        }
    }

    // MARK: Delete

    /// Deletes the item for good — a folder with everything in it, never following a link
    /// out of it. Cannot be undone; a cancelled delete has already removed some items.
    public func deletePermanently(_ url: URL, progress: Progress? = nil) throws(FileOperationError) -> FileOperationResult {
        guard url.isFileURL else { return try deleteRemotely(url, progress: progress) }
        let path = try Self.localPath(url, .delete)
        _ = try Self.status(path, .delete)
        progress?.totalUnitCount += TreeRemoval.count(path)
        var removal = TreeRemoval()
        removal.shouldContinue = { count in
            progress?.completedUnitCount += count
            return progress?.isCancelled != true
        }
        try Self.coordinating(.delete(url), .delete) { () throws(FileOperationError) in
            do throws(TreeRemoval.Failure) {
                try removal.remove(path)
            } catch {
                if error.error.code == ECANCELED { throw .cancelled(.delete, name: FileOperationError.displayName(path)) }
                throw FileOperationError(error.error, .delete, path: error.path)
            }
        }
        return .deleted(url)
    }

    // MARK: Undo

    /// Reverses `result`: renames back, moves back, restores from the Trash, or moves a copy
    /// or new folder to the Trash (so an undo never destroys anything for good). A copy or
    /// new folder on a remote location, which has no Trash to go to, is deleted.
    /// - Returns: what the undo did, which is itself undoable (a redo).
    /// - Throws: `.notUndoable` for a permanent deletion or a move to a server's trash.
    public func undo(_ result: FileOperationResult, progress: Progress? = nil) throws(FileOperationError) -> FileOperationResult {
        switch result {
        case .renamed(let from, let to):
            return try rename(to, to: from.lastPathComponent)
        case .moved(let from, let to):
            return try move(to, to: from, progress: progress)
        case .duplicated(_, let made), .copied(_, let made), .createdFolder(let made), .restored(_, let made):
            return made.isFileURL ? try moveToTrash(made) : try deletePermanently(made, progress: progress)
        case .trashed(let item):
            return try restore(item, progress: progress)
        case .deleted(let url):
            throw .notUndoable(.delete, name: url.lastPathComponent)
        case .trashedOnServer(let url):
            throw .notUndoable(.trash, name: url.lastPathComponent)
        }
    }

    // MARK: Shared checks

    static func localPath(_ url: URL, _ kind: FileOperationKind) throws(FileOperationError) -> String {
        guard let path = FileSystem.localPath(url) else {
            // A file URL with no path string: its name's bytes are not UTF-8 (`FileSystemPath`).
            if url.isFileURL { throw .failed(kind, name: url.fileDisplayName, reason: FileSystem.bytesNameReason) }
            throw .notLocal(kind, name: url.lastPathComponent)
        }
        return path
    }

    /// The item's status, or the error that says it cannot be worked on.
    static func status(_ path: String, _ kind: FileOperationKind) throws(FileOperationError) -> FileStatus {
        switch FileStatus.of(path) {
        case .success(let status): return status
        case .failure(let error): throw FileOperationError(error, kind, path: path)
        }
    }

    /// Maps a failed rename(2) of `name` to `destination` onto an error about `name`.
    static func error(
        _ error: SystemError, _ kind: FileOperationKind, name: String, destination: String
    ) -> FileOperationError {
        if error.code == EEXIST || error.code == ENOTEMPTY {
            return .alreadyExists(
                kind, name: name, existing: FileOperationError.displayName(destination),
                isFolder: FileStatus.existing(destination)?.isDirectory ?? false)
        }
        return FileOperationError(error, kind, path: name)
    }
}
