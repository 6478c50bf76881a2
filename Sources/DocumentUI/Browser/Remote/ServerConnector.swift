import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// Mounts a remote location's server before the browser lists it (sftp://, smb://… that no
/// mount holds yet: a sidebar recent, Ctrl+L, Back to a server since unmounted), asking
/// through `MountDialogs`. One connection at a time: a new location cancels the last.
@MainActor
final class ServerConnector {
    enum State: Equatable {
        case idle
        case connecting(URL)
        case failed(URL, ServerConnectionError)
    }

    private(set) var state = State.idle {
        didSet { if state != oldValue { stateDidChange?() } }
    }
    var stateDidChange: (() -> Void)?
    private var task: Task<Void, Never>?

    /// Whether `url` is on a server no mount holds yet.
    static func needsMount(_ url: URL) -> Bool {
        !url.isFileURL && ServerAddress.isServerLocation(url) && RemoteLocation.mount(containing: url) == nil
    }

    /// Mounts the server of `url`, then calls `ready`; a failure shows in `state`.
    func connect(_ url: URL, parent: WidgetPointer, ready: @escaping @MainActor () -> Void) {
        cancel()
        let address: ServerAddress
        do {
            address = try ServerAddress(parsing: url.absoluteString)
        } catch {
            ready()  // not a server address after all: the listing will say what it is
            return
        }
        state = .connecting(url)
        task = Task { [weak self] in
            do throws(ServerConnectionError) {
                _ = try await Self.mount(address, parent: parent)
                guard !Task.isCancelled, let self, self.state == .connecting(url) else { return }
                self.state = .idle
                ready()
            } catch {
                guard !Task.isCancelled, let self, self.state == .connecting(url) else { return }
                self.state = error == .cancelled ? .idle : .failed(url, error)
            }
        }
    }

    /// Stops a connection under way (its dialogs go) and forgets a failure.
    func cancel() {
        task?.cancel()
        task = nil
        state = .idle
    }

    /// Mounts `address`'s server, asking through dialogs over `parent`'s window, and puts it
    /// first among the recent servers. The one way the browser mounts a server.
    static func mount(_ address: ServerAddress, parent: WidgetPointer) async throws(ServerConnectionError) -> URL {
        let dialogs = MountDialogs(parent: parent)
        let connection = ServerConnection(address: address, prompt: dialogs)
        let url: URL
        do {
            url = try await connection.mount()
        } catch {
            dialogs.withdraw()
            throw error
        }
        Task.detached(priority: .utility) { try? RecentServers().add(address) }
        return url
    }
}
