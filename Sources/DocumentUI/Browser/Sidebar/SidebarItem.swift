import CGLib
import DocumentCore
import Foundation
import GObjectSupport

/// One row of the sidebar: where it leads, how it looks, and what else it can do.
struct SidebarItem {
    /// The groups of rows, in the order shown; a separator divides them.
    enum Section: Int {
        case places, volumes, favorites, tags, trash
    }

    enum Icon {
        /// A themed icon by name.
        case named(String)
        /// An icon GIO gave (a mount's), held while the row lives.
        case gicon(ObjectReference)
        /// A round dot, for tags.
        case dot
    }

    let section: Section
    let title: String
    let icon: Icon
    let location: BrowserLocation
    /// The mount a volume row stands for (for its eject or unmount button).
    var mount: ObjectReference?
    /// The bookmark line of a favorite row (for remove, rename and reorder).
    var favorite: Favorite?
    /// A short explanation (the folder's path), shown as the tooltip.
    var tooltip: String?
    /// The row opens Connect to Server instead of going to `location` (which no window shows).
    var connectsToServer = false
}

extension SidebarItem {
    /// The fixed places: Recents, Home, and the XDG user folders that exist.
    static func places(directories: UserDirectories) -> [SidebarItem] {
        var items = [
            SidebarItem(section: .places, title: tr("Recent"), icon: .named("document-open-recent-symbolic"), location: .recents),
            SidebarItem(section: .places, title: tr("Home"), icon: .named("user-home-symbolic"),
                        location: .folder(directories.home.standardizedFileURL), tooltip: directories.home.path),
        ]
        for folder in directories.userFolders {
            guard let icon = UserFolderKind.icon(for: folder) else { continue }
            items.append(SidebarItem(section: .places, title: folder.lastPathComponent, icon: .named(icon),
                                     location: .folder(folder), tooltip: folder.path))
        }
        return items
    }

    /// The Trash row, with the full or empty icon.
    static func trash(isFull: Bool) -> SidebarItem {
        SidebarItem(section: .trash, title: tr("Recently Deleted"),
                    icon: .named(isFull ? "user-trash-full-symbolic" : "user-trash-symbolic"), location: .trash)
    }

    /// A favorite place from the GTK bookmarks file.
    static func favorite(_ favorite: Favorite) -> SidebarItem {
        let url = favorite.path.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? URL(string: favorite.uri)
        let location = BrowserLocation.folder(url ?? URL(fileURLWithPath: "/"))
        return SidebarItem(section: .favorites, title: favorite.displayName,
                           icon: .named(favorite.path == nil ? "folder-remote-symbolic" : "folder-symbolic"),
                           location: location, favorite: favorite,
                           tooltip: favorite.path.map { $0.count > 1 && $0.hasSuffix("/") ? String($0.dropLast()) : $0 } ?? favorite.uri)
    }

    /// Connect to Server…, after the mounted volumes.
    static var connectToServer: SidebarItem {
        var item = SidebarItem(section: .volumes, title: tr("Connect to Server"), icon: .named("network-server-symbolic"),
                               location: .folder(URL(string: "dossier-connect-to-server:")!),
                               tooltip: tr("Browse files on a server: %s", ServerAddress.schemesHint))
        item.connectsToServer = true
        return item
    }

    /// A tag in use.
    static func tag(_ name: String) -> SidebarItem {
        SidebarItem(section: .tags, title: name, icon: .dot, location: .tag(name), tooltip: tr("Items tagged “%s”", name))
    }
}

/// Which of the XDG user folders a folder is, to give it its icon. Templates and Public are
/// not shown in the sidebar (GNOME Files leaves them out too).
enum UserFolderKind {
    private static let kinds: [(GUserDirectory, String, String)] = [
        (G_USER_DIRECTORY_DESKTOP, "Desktop", "user-desktop-symbolic"),
        (G_USER_DIRECTORY_DOCUMENTS, "Documents", "folder-documents-symbolic"),
        (G_USER_DIRECTORY_DOWNLOAD, "Downloads", "folder-download-symbolic"),
        (G_USER_DIRECTORY_MUSIC, "Music", "folder-music-symbolic"),
        (G_USER_DIRECTORY_PICTURES, "Pictures", "folder-pictures-symbolic"),
        (G_USER_DIRECTORY_VIDEOS, "Videos", "folder-videos-symbolic"),
    ]
    private static let hidden: [(GUserDirectory, String)] = [
        (G_USER_DIRECTORY_TEMPLATES, "Templates"), (G_USER_DIRECTORY_PUBLIC_SHARE, "Public"),
    ]

    /// The icon for one of `UserDirectories.userFolders`, or nil for a folder the sidebar
    /// leaves out. GLib names the folders of user-dirs.dirs; the English names are the
    /// fallback `UserDirectories` uses when that file is missing.
    static func icon(for folder: URL) -> String? {
        let path = folder.standardizedFileURL.path
        func special(_ kind: GUserDirectory) -> String? {
            borrowString(g_get_user_special_dir(kind)).map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        }
        if hidden.contains(where: { special($0.0) == path }) { return nil }
        if let match = kinds.first(where: { special($0.0) == path }) { return match.2 }
        if hidden.contains(where: { $0.1 == folder.lastPathComponent }) { return nil }
        return kinds.first { $0.1 == folder.lastPathComponent }?.2 ?? "folder-symbolic"
    }
}
