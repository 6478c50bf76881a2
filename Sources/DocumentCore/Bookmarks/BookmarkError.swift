import Foundation

/// Why a bookmark could not be made or resolved, with a message a person can act on.
public enum BookmarkError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The item to bookmark is not there, or could not be looked at.
    case cannotCreate(name: String, reason: String)
    /// The location is not a local file (a GVFS URI, say): bookmarks need inodes.
    case notLocal(location: String)
    /// The item was not found at its last path nor anywhere the search looked within its time
    /// budget: it was deleted, or moved somewhere far.
    case notFound(name: String, lastPath: String)
    /// The volume the item lives on is not mounted; `volume` is its label, else its UUID.
    case volumeNotMounted(name: String, volume: String)
    /// The data is not a bookmark, or was damaged (a wrong header, a bad checksum, missing fields).
    case corrupt(reason: String)
    /// The data was written by a newer Dossier in a format this one does not know.
    case newerVersion(found: Int, supported: Int)
    /// A bookmark file could not be read.
    case unreadableFile(name: String, reason: String)

    public var description: String {
        switch self {
        case .cannotCreate(let name, let reason):
            tr("A bookmark to '%s' could not be made: %s", name, reason)
        case .notLocal(let location):
            tr("'%s' is not a local file: only files on this computer's disks can be bookmarked", location)
        case .notFound(let name, let lastPath):
            tr("'%s' could not be found: it was deleted, or moved somewhere Dossier did not look (it was last at '%s')",
               name, lastPath)
        case .volumeNotMounted(let name, let volume):
            tr("'%s' is on the volume '%s', which is not mounted: connect or mount it, then try again", name, volume)
        case .corrupt(let reason):
            tr("The bookmark data is damaged and cannot be read (%s)", reason)
        case .newerVersion(let found, let supported):
            tr("The bookmark was made by a newer version of Dossier (format %s; this one reads up to %s): update Dossier to use it",
               String(found), String(supported))
        case .unreadableFile(let name, let reason):
            tr("The bookmark file '%s' could not be read: %s", name, reason)
        }
    }

    public var errorDescription: String? { description }
}
