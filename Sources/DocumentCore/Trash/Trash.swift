import CGLib
import Foundation

/// The user's Trash, following the freedesktop.org Trash specification 1.0: the home trash
/// in `$XDG_DATA_HOME/Trash`, and for items on other file systems a trash at the top of
/// their own file system, so trashing is always a rename and never a copy. Works with GIO,
/// Nautilus, KDE and every other implementation of the specification.
public struct Trash: Sendable {
    /// The home trash, `$XDG_DATA_HOME/Trash`.
    package let home: TrashDirectory
    /// The file systems whose trash folders are used and listed.
    package let mounts: MountTable
    let userID: uid_t

    /// The Trash for a data folder (default: `$XDG_DATA_HOME`, else `~/.local/share`), on the
    /// system's mounts (or `$DOSSIER_TRASH_VOLUMES`). Tests pass their own folder so that they
    /// never touch the real Trash.
    public init(dataHome: URL? = nil) {
        self.init(dataHome: dataHome, mounts: .default)
    }

    /// The Trash for a data folder and a set of mounts.
    package init(dataHome: URL?, mounts: MountTable) {
        let folder = dataHome?.standardizedFileURL.path ?? Self.defaultDataHome()
        home = TrashDirectory.home(dataHome: folder)
        self.mounts = mounts
        userID = getuid()
    }

    /// `$XDG_DATA_HOME` when it is an absolute path (the Base Directory specification says to
    /// ignore a relative one), else `$HOME/.local/share`.
    static func defaultDataHome() -> String {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["XDG_DATA_HOME"], explicit.hasPrefix("/") {
            return URL(fileURLWithPath: explicit, isDirectory: true).standardizedFileURL.path
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share"
    }

    // MARK: Trashing

    /// Moves the item at `url` (a file, a folder with its contents, or a link itself) to the
    /// Trash: into the home trash when it is on the same file system, else into the trash at
    /// the top of its own file system. The `.trashinfo` record is written first, with
    /// `O_EXCL`, and removed again if the item cannot be moved.
    /// - Returns: the trashed item, which is what `restore(_:)` needs to undo the move.
    @discardableResult
    public func trash(_ url: URL) throws(TrashError) -> TrashedItem {
        guard let given = FileSystem.localPath(url) else {
            if url.isFileURL { throw .failed(name: url.fileDisplayName, reason: FileSystem.bytesNameReason) }
            throw .notLocal(name: url.lastPathComponent)
        }
        let path = FileSystem.resolvingParent(of: given)
        let name = FileOperationError.displayName(path)
        let status: FileStatus
        switch FileStatus.of(path) {
        case .success(let found): status = found
        case .failure(let error):
            throw error.code == EACCES ? .permissionDenied(name: name) : .notFound(name: name)
        }
        let trash = try trashDirectory(for: path, name: name)
        // Compare real paths: the data home may be reached through a link.
        let trashPath = FileSystem.resolvingParent(of: trash.path)
        if FileSystem.isPath(path, inside: trashPath) {
            throw path == trashPath ? .containsTrash(name: name) : .alreadyInTrash(name: name)
        }
        if FileSystem.isPath(trashPath, inside: path) { throw .containsTrash(name: name) }
        do {
            try trash.prepare()
        } catch {
            throw Self.error(error, name: name, volume: trash.topDirectory?.path)
        }
        let info = TrashInfo(path: trash.recordedPath(for: path), deletionDate: Date())
        let trashedName = try move(path, into: trash, info: info, isFolder: status.isDirectory, name: name)
        if status.isDirectory {
            DirectorySizes(trash: trash).add(trashedName)
        }
        return TrashedItem(
            name: trashedName, originalPath: path, deletionDate: info.deletionDate.map(Self.wholeSeconds), trash: trash)
    }

    /// The trash folder an item at `path` goes to (not yet created).
    private func trashDirectory(for path: String, name: String) throws(TrashError) -> TrashDirectory {
        let parent = (path as NSString).deletingLastPathComponent
        guard let volume = mounts.volume(containing: parent) else { throw .notFound(name: name) }
        if let homeVolume = mounts.volume(containing: home.path), homeVolume == volume {
            return home
        }
        do {
            return try TrashDirectory.forTop(volume.topDirectory, userID: userID)
        } catch {
            throw .noTrashOnVolume(name: name, volume: volume.topDirectory, reason: error.message)
        }
    }

    /// Writes the record under the first free name ("name.ext", "name.2.ext", …), then renames
    /// the item into `files/`. Returns the name it has in the trash.
    private func move(
        _ path: String, into trash: TrashDirectory, info: TrashInfo, isFolder: Bool, name: String
    ) throws(TrashError) -> String {
        let original = (path as NSString).lastPathComponent
        let record = Array(info.serialized.utf8)
        for number in 1...100_000 {
            let candidate = FileName.trashName(of: original, isFolder: isFolder, number: number)
            let infoPath = trash.infoFilePath(candidate)
            let fd = open(infoPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd < 0 {
                if errno == EEXIST { continue }
                throw .infoNotWritten(name: name, reason: SystemError(errno).message)
            }
            do {
                try FileSystem.writeAll(fd, record)
                close(fd)
            } catch {
                close(fd)
                unlink(infoPath)
                throw .infoNotWritten(name: name, reason: error.message)
            }
            do {
                try FileSystem.renameWithoutReplacing(path, trash.itemPath(candidate))
                return candidate
            } catch {
                unlink(infoPath)
                // A leftover in files/ without its record: leave it, try the next name.
                if error.code == EEXIST || error.code == ENOTEMPTY { continue }
                throw Self.error(error, name: name, volume: trash.topDirectory?.path)
            }
        }
        throw .failed(name: name, reason: tr("no free name is left in the Trash"))
    }

    static func error(_ error: SystemError, name: String, volume: String?) -> TrashError {
        switch error.code {
        case ENOENT: .notFound(name: name)
        case EACCES, EPERM: .permissionDenied(name: name)
        case EXDEV: .noTrashOnVolume(name: name, volume: volume ?? "/", reason: error.message)
        default: .failed(name: name, reason: error.message)
        }
    }

    /// The date as the record stores it, to the second, so a returned item equals a listed one.
    static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }
}
