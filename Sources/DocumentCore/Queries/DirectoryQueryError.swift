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
    /// The location is not a local folder and cannot be listed as one. `DirectoryQuery` lists
    /// remote locations through GIO and no longer reports it; kept for callers that need a path.
    case notLocal(location: String)
    /// A remote location whose server is not mounted: mount it (`g_file_mount_enclosing_volume`),
    /// then list it again.
    case notMounted(location: String)
    /// The server of a remote location could not be reached (unknown host, refused, timed out).
    case unreachable(name: String, reason: String)
    /// The connection to the server dropped while the folder was listed or followed.
    case connectionLost(name: String, reason: String)
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
        case .notLocal(let location): tr("'%s' is not a local folder", location)
        case .notMounted(let location): tr("'%s' is on a server that is not connected: connect to it, then open the folder again", location)
        case .unreachable(let name, let reason): tr("The server of '%s' could not be reached: %s", name, reason)
        case .connectionLost(let name, let reason):
            tr("The connection to the server was lost while '%s' was listed: %s", name, reason)
        case .failed(let name, let reason): tr("The folder '%s' could not be listed: %s", name, reason)
        }
    }

    public var errorDescription: String? { description }
}
