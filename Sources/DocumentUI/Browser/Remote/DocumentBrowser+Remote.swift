import CGtk
import DocumentCore
import Foundation
import GObjectSupport

/// Servers in the browser: Ctrl+L takes a path or a server address, Connect to Server asks
/// for one, Retry tries a location that failed again (its server mounted anew if need be).
extension DocumentBrowser {
    /// Reload (F5, Ctrl+R, a status page's Retry): lists the location again; a server that
    /// could not be mounted, or whose mount went, is connected to again.
    func retry() {
        if case .folder(let url) = location, connector.state != .idle || ServerConnector.needsMount(url) {
            show(location)
        } else {
            feed.reload()
        }
    }

    /// Ctrl+L: the path bar becomes an entry with the current location, selected.
    public func enterLocation() {
        let text: String
        switch location {
        case .folder(let url): text = url.isFileURL ? url.path : url.absoluteString
        default: text = ""
        }
        path.enterLocation(text)
    }

    /// Goes to what was typed: a path ("/", "~/", file://) or a server address, mounted first.
    func openTypedLocation(_ text: String) {
        let typed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !typed.isEmpty else { return focusItemsNow() }
        if typed.hasPrefix("/") || typed.hasPrefix("~") {
            let path = (typed as NSString).expandingTildeInPath
            go(to: .folder(URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL))
        } else if typed.lowercased().hasPrefix("file://"), let url = URL(string: typed), url.isFileURL {
            go(to: .folder(url.standardizedFileURL))
        } else {
            do {
                let address = try ServerAddress(parsing: typed)
                go(to: .folder(address.url))
            } catch {
                toast(error.description)
                path.enterLocation(typed)
            }
        }
        focusItemsNow()
    }

    /// Opens the Connect to Server dialog; a server it mounts is shown here.
    public func presentConnectToServer() {
        let dialog = ConnectToServerDialog(parent: contentWidget)
        dialog.connected = { [weak self] url in self?.go(to: .folder(url)) }
        dialog.present()
    }
}
