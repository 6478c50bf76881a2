import DocumentCore
import Foundation

extension FuzzTarget {
    /// GTK's bookmarks file (`gtk-3.0/bookmarks`, GNOME Files' sidebar) as Favorites reads
    /// it; what reads writes back the same, and no favorite spans a line (a "\r" inside a
    /// URI is GTK's reading too: it splits lines at "\n" and the URI at the first space).
    static let favorites = FuzzTarget("favorites", "GTK's bookmarks file (BookmarksFileContents(text:))") { data in
        let contents = BookmarksFileContents(text: String(decoding: data, as: UTF8.self))
        expect(BookmarksFileContents(text: contents.text) == contents, "the bookmarks file does not read back the same")
        for line in contents.lines {
            guard case .favorite(let favorite) = line else { continue }
            expect(!favorite.uri.unicodeScalars.contains { $0 == "\n" || $0 == " " },
                   "the favorite '\(favorite.uri)' holds a space or a line break")
            expect(!(favorite.label ?? "").unicodeScalars.contains("\n"), "the label of '\(favorite.uri)' holds a line break")
        }
    }
}
