import CGLib
import Foundation
import GObjectSupport

/// Why a server could not be mounted or unmounted, in words a person can act on.
package enum ServerConnectionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// GVFS has no backend for the protocol (gvfs-backends is not installed).
    case unsupportedScheme(String)
    /// Nothing answered: the name is unknown, the port closed, the network down.
    case hostUnreachable(host: String, reason: String)
    /// The server refused the password, again after the person retried or gave up.
    case wrongPassword(host: String)
    /// The person closed the password dialog on the first request.
    case authenticationCancelled(host: String)
    /// The person declined the server's question (an unknown host key).
    case hostKeyDeclined(host: String)
    /// The mount was cancelled (the window went elsewhere).
    case cancelled
    /// Anything else, with GIO's words.
    case failed(host: String, reason: String)

    package var description: String {
        switch self {
        case .unsupportedScheme(let scheme):
            tr("Dossier cannot connect to “%s://” servers on this computer: the GVFS backends are not installed (the package gvfs-backends).", scheme)
        case .hostUnreachable(let host, let reason):
            tr("The server “%s” could not be reached: %s. Check the address and that the server is running.", host, reason)
        case .wrongPassword(let host):
            tr("The server “%s” did not accept the user name or password.", host)
        case .authenticationCancelled(let host):
            tr("Not connected to “%s”: no password was given.", host)
        case .hostKeyDeclined(let host):
            tr("Not connected to “%s”: its identity was not confirmed.", host)
        case .cancelled:
            tr("The connection was cancelled.")
        case .failed(let host, let reason):
            tr("Could not connect to “%s”: %s", host, reason)
        }
    }

    /// Whether trying again may help without changing the address (a page offers Retry).
    package var isRetryable: Bool {
        switch self {
        case .unsupportedScheme: false
        default: true
        }
    }

    /// A GIO error from mounting `host`, in these terms (`passwordGiven`: a refusal then
    /// means the password).
    static func mapping(_ error: GLibError, host: String, passwordGiven: Bool) -> ServerConnectionError {
        guard error.domain == String(cString: g_quark_to_string(g_io_error_quark())) else {
            return .failed(host: host, reason: error.message)
        }
        switch GIOErrorEnum(rawValue: UInt32(error.code)) {
        case G_IO_ERROR_CANCELLED, G_IO_ERROR_FAILED_HANDLED: return .cancelled
        case G_IO_ERROR_HOST_NOT_FOUND, G_IO_ERROR_HOST_UNREACHABLE, G_IO_ERROR_NETWORK_UNREACHABLE,
             G_IO_ERROR_CONNECTION_REFUSED, G_IO_ERROR_TIMED_OUT, G_IO_ERROR_CONNECTION_CLOSED:
            return .hostUnreachable(host: host, reason: error.message)
        case G_IO_ERROR_PERMISSION_DENIED where passwordGiven: return .wrongPassword(host: host)
        case G_IO_ERROR_NOT_MOUNTED: return .failed(host: host, reason: error.message)
        default:
            // smb reports a refused connection as a plain failure, in words only.
            let words = error.message.lowercased()
            if words.contains("connection refused") || words.contains("unreachable") || words.contains("timed out") {
                return .hostUnreachable(host: host, reason: error.message)
            }
            return .failed(host: host, reason: error.message)
        }
    }
}
