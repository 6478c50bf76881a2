import Foundation

/// A place the browser can show: a folder, or one of the sidebar's collections.
public enum BrowserLocation: Hashable, Sendable, CustomStringConvertible {
    /// The items of one folder (local path or any GIO location as a URL).
    case folder(URL)
    /// Recent documents, Dossier's and other programs' (recently-used.xbel).
    case recents
    /// The files carrying a tag (`user.xdg.tags`), searched under the home folder.
    case tag(String)
    /// Recently Deleted: the freedesktop Trash.
    case trash

    public var description: String {
        switch self {
        case .folder(let url): url.isFileURL ? url.path : url.absoluteString
        case .recents: "recents:"
        case .tag(let name): "tag:" + name
        case .trash: "trash:"
        }
    }
}

/// How the browser lays out a location's items.
public enum BrowserViewMode: String, Sendable, CaseIterable {
    /// Icons in a grid, with thumbnails.
    case grid
    /// Rows with columns for the name, size, kind and modification date.
    case list
}
