import CGtk
import DocumentCore
import GObjectSupport
import GtkSupport

/// What the browser shows instead of items: an empty folder, a folder that cannot be shown
/// (with the reason), a search without results, an empty Trash, no recent documents.
enum BrowserStatus: Equatable {
    case emptyFolder
    case unavailable(DirectoryQueryError)
    case noResults(String)
    case emptyTrash
    case noRecents
    case noTaggedFiles(String)
    /// A server could not be mounted (unreachable, password refused or not given…).
    case notConnected(ServerConnectionError)

    /// Whether the page offers Retry: a server's problems may pass.
    var offersRetry: Bool {
        switch self {
        case .notConnected(let error): error.isRetryable
        case .unavailable(.unmounted), .unavailable(.failed), .unavailable(.notMounted), .unavailable(.unreachable),
             .unavailable(.connectionLost): true
        default: false
        }
    }

    var iconName: String {
        switch self {
        case .emptyFolder: "folder-symbolic"
        case .unavailable(let error):
            switch error {
            case .permissionDenied: "action-unavailable-symbolic"
            case .notLocal, .notMounted: "folder-remote-symbolic"
            case .unreachable, .connectionLost: "network-offline-symbolic"
            default: "folder-visiting-symbolic"
            }
        case .noResults: "system-search-symbolic"
        case .emptyTrash: "user-trash-symbolic"
        case .noRecents: "document-open-recent-symbolic"
        case .noTaggedFiles: "tag-symbolic"
        case .notConnected(.wrongPassword), .notConnected(.authenticationCancelled): "dialog-password-symbolic"
        case .notConnected: "network-offline-symbolic"
        }
    }

    var title: String {
        switch self {
        case .emptyFolder: tr("Folder Is Empty")
        case .unavailable(let error):
            switch error {
            case .notFound, .folderGone: tr("Folder Not Found")
            case .permissionDenied: tr("Folder Cannot Be Opened")
            case .notLocal: tr("Location Cannot Be Browsed")
            case .notMounted: tr("Server Not Connected")
            case .unreachable: tr("Server Unreachable")
            case .connectionLost: tr("Connection Lost")
            default: tr("Folder Cannot Be Shown")
            }
        case .noResults: tr("No Results Found")
        case .emptyTrash: tr("Trash Is Empty")
        case .noRecents: tr("No Recent Files")
        case .noTaggedFiles: tr("No Tagged Files")
        case .notConnected(.hostUnreachable): tr("Server Unreachable")
        case .notConnected(.wrongPassword): tr("Password Not Accepted")
        case .notConnected(.authenticationCancelled): tr("Not Connected")
        case .notConnected(.unsupportedScheme): tr("Protocol Not Available")
        case .notConnected: tr("Could Not Connect")
        }
    }

    var details: String {
        switch self {
        case .emptyFolder: tr("Files and folders put here will show up at once.")
        case .unavailable(let error): error.description
        case .noResults(let text): tr("Nothing in this folder or its subfolders has “%s” in its name.", text)
        case .emptyTrash: tr("Files you move to the Trash are kept here until you empty it.")
        case .noRecents: tr("Documents you open will show up here.")
        case .noTaggedFiles(let name): tr("No file in your home folder has the tag “%s”.", name)
        case .notConnected(let error): error.description
        }
    }
}

/// An AdwStatusPage that shows one `BrowserStatus` at a time, with a Retry button where the
/// problem may pass (it activates `browser.retry`).
@MainActor
final class StatusPage {
    let widget: WidgetPointer
    let retryButton: WidgetPointer
    private(set) var status: BrowserStatus?

    init() {
        widget = dossier_status_page_new()
        gtk_widget_set_vexpand(widget, 1)
        retryButton = gtk_button_new_with_mnemonic(tr("_Retry"))
        for style in ["pill", "suggested-action"] { gtk_widget_add_css_class(retryButton, style) }
        gtk_widget_set_halign(retryButton, GTK_ALIGN_CENTER)
        gtk_actionable_set_action_name(cast(retryButton), "browser.retry")
        setAccessibleName(retryButton, tr("Retry"))
        adw_status_page_set_child(OpaquePointer(widget), retryButton)
        gtk_widget_set_visible(retryButton, 0)
    }

    func show(_ status: BrowserStatus) {
        self.status = status
        adw_status_page_set_icon_name(OpaquePointer(widget), status.iconName)
        adw_status_page_set_title(OpaquePointer(widget), status.title)
        adw_status_page_set_description(OpaquePointer(widget), status.details)
        setAccessibleName(widget, status.title)
        gtk_widget_set_visible(retryButton, status.offersRetry ? 1 : 0)
    }
}
