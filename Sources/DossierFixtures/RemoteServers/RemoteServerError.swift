import Foundation

/// Why a test server could not be started, reached, mounted or unmounted.
public enum RemoteServerError: Error, CustomStringConvertible {
    /// The servers bind as root and sshd checks system passwords: the tests run as root (CI does).
    case needsRoot
    /// A program the fixture runs to prepare a server failed.
    case setupFailed(String, String)
    /// The server's program is not installed (tools/install-deps.sh installs it).
    case notInstalled(String)
    /// The server did not accept connections on its port in time; its log.
    case notListening(RemoteServer.Kind, UInt16, String)
    /// GVFS refused the mount or the unmount (its message).
    case mountFailed(String, String)
    /// GVFS did not answer in time.
    case timedOut(String)

    public var description: String {
        switch self {
        case .needsRoot:
            return "The remote-location test servers need root (sshd checks system passwords); run the tests as root"
        case .setupFailed(let step, let output):
            return "Preparing a test server failed at '\(step)': \(output)"
        case .notInstalled(let program):
            return "\(program) is not installed: run tools/install-deps.sh"
        case .notListening(let kind, let port, let log):
            return "The \(kind) test server did not listen on 127.0.0.1:\(port); its log:\n\(log)"
        case .mountFailed(let uri, let message):
            return "GVFS could not mount or unmount \(uri): \(message)"
        case .timedOut(let what):
            return "GVFS did not answer in time: \(what)"
        }
    }
}
