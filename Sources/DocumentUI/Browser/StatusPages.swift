import CGtk
import DocumentCore
import GObjectSupport

/// What the browser shows instead of items: an empty folder, a folder that cannot be shown
/// (with the reason), a search without results, an empty Trash, no recent documents.
enum BrowserStatus: Equatable {
    case emptyFolder
    case unavailable(DirectoryQueryError)
    case noResults(String)
    case emptyTrash
    case noRecents
    case noTaggedFiles(String)

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
        }
    }
}

/// An AdwStatusPage that shows one `BrowserStatus` at a time.
@MainActor
final class StatusPage {
    let widget: Widget
    private(set) var status: BrowserStatus?

    init() {
        widget = dossier_status_page_new()
        gtk_widget_set_vexpand(widget, 1)
    }

    func show(_ status: BrowserStatus) {
        self.status = status
        adw_status_page_set_icon_name(OpaquePointer(widget), status.iconName)
        adw_status_page_set_title(OpaquePointer(widget), status.title)
        adw_status_page_set_description(OpaquePointer(widget), status.details)
        setAccessibleName(widget, status.title)
    }
}
