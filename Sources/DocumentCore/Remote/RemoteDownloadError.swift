import CGLib
import Foundation
import GObjectSupport

/// Why a remote file could not be brought into Dossier's cache.
package enum RemoteDownloadError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The server could not be reached, or refused to say what the file is.
    case unreachable(name: String, reason: String)
    /// Reading stopped part way: the connection dropped, the server went away.
    case interrupted(name: String, reason: String)
    /// A folder, a link the server cannot follow, a device: only files are downloaded.
    case notAFile(name: String)
    /// The server gave the file a name that cannot be a file name here (`/`, `..`, empty).
    case unsafeName(String)
    /// The file is larger than the cache may hold.
    case tooLarge(name: String, size: Int64, limit: Int64)
    /// The server sent another number of bytes than it said the file has.
    case sizeMismatch(name: String, expected: Int64, received: Int64)
    /// Whoever asked no longer wants it.
    case cancelled(name: String)
    /// The cache folder could not be written.
    case cache(reason: String)

    package var description: String {
        switch self {
        case .unreachable(let name, let reason): tr("'%s' could not be reached: %s", name, reason)
        case .interrupted(let name, let reason): tr("The download of '%s' stopped: %s", name, reason)
        case .notAFile(let name): tr("'%s' is not a file: only files can be downloaded", name)
        case .unsafeName(let name): tr("The server named a file '%s', which is not a safe file name; it was not downloaded", name)
        case .tooLarge(let name, let size, let limit):
            tr("'%s' is %s, more than the %s the download cache holds", name, Self.format(size), Self.format(limit))
        case .sizeMismatch(let name, let expected, let received):
            tr("The server said '%s' has %s bytes but sent %s; the download was discarded",
               name, String(expected), String(received))
        case .cancelled(let name): tr("The download of '%s' was cancelled", name)
        case .cache(let reason): tr("The download cache could not be written: %s", reason)
        }
    }

    package var errorDescription: String? { description }

    /// True for failures another try may get past (the server back, the connection up).
    package var isRetryable: Bool {
        switch self {
        case .unreachable, .interrupted, .sizeMismatch, .cancelled, .cache: true
        case .notAFile, .unsafeName, .tooLarge: false
        }
    }

    static func format(_ bytes: Int64) -> String {
        takeString(g_format_size(guint64(max(bytes, 0)))) ?? String(bytes)
    }
}
