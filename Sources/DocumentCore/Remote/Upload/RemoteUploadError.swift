import Foundation

/// Why an edited copy of a remote file could not go back to its server.
public enum RemoteUploadError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The local copy the app edited is no longer there (removed, or the cache was cleared).
    case copyMissing(name: String)
    /// The server could not be asked about its file (not connected, gone, refused).
    case unreachable(name: String, reason: String)
    /// The copy could not be written to the server; the server's file is as it was.
    case failed(name: String, reason: String)
    /// The copy could not be made or recorded in Dossier's cache.
    case cache(name: String, reason: String)
    /// The person cancelled the upload; the file on the server is as it was.
    case cancelled(name: String)

    public var description: String {
        switch self {
        case .copyMissing(let name):
            tr("The edited copy of '%s' is no longer in Dossier's cache, so it cannot be uploaded", name)
        case .unreachable(let name, let reason):
            tr("'%s' could not be uploaded: the server could not be reached (%s)", name, reason)
        case .failed(let name, let reason):
            tr("'%s' could not be uploaded; the file on the server was left as it was: %s", name, reason)
        case .cache(let name, let reason):
            tr("A copy of '%s' to edit could not be made in Dossier's cache: %s", name, reason)
        case .cancelled(let name):
            tr("The upload of '%s' was cancelled; the file on the server was left as it was", name)
        }
    }

    public var errorDescription: String? { description }
}
