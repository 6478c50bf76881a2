import Foundation

/// Why a folder could not be listed or followed, with a message a person can act on.
public enum DirectoryQueryError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// Nothing is at the folder's path.
    case notFound(name: String)
    /// The path names a file, not a folder.
    case notAFolder(name: String)
    /// The folder may not be read by this user.
    case permissionDenied(name: String)
    /// The folder was deleted or moved away while the query listed it.
    case folderGone(name: String)
    /// The file system holding the folder was unmounted.
    case unmounted(name: String)
    /// Changes to the folder cannot be followed (inotify's limits); the listing stays as gathered.
    case changesNotFollowed(name: String, reason: String)
    /// The location is not a local folder (remote GVFS locations are not listed yet).
    case notLocal(location: String)
    /// Anything else the system reported.
    case failed(name: String, reason: String)

    /// Maps an `errno` from opening or reading the folder `name`.
    init(errno code: Int32, name: String) {
        switch code {
        case ENOENT: self = .notFound(name: name)
        case ENOTDIR: self = .notAFolder(name: name)
        case EACCES, EPERM: self = .permissionDenied(name: name)
        default: self = .failed(name: name, reason: String(cString: strerror(code)))
        }
    }

    public var description: String {
        switch self {
        case .notFound(let name): tr("'%s' does not exist", name)
        case .notAFolder(let name): tr("'%s' is not a folder", name)
        case .permissionDenied(let name): tr("The folder '%s' could not be opened: permission denied", name)
        case .folderGone(let name): tr("The folder '%s' was deleted or moved away", name)
        case .unmounted(let name): tr("The folder '%s' is on a volume that was unmounted", name)
        case .changesNotFollowed(let name, let reason):
            tr("Changes to '%s' will not show until it is opened again: %s", name, reason)
        case .notLocal(let location): tr("'%s' is not a local folder: only local folders can be listed for now", location)
        case .failed(let name, let reason): tr("The folder '%s' could not be listed: %s", name, reason)
        }
    }

    public var errorDescription: String? { description }
}
