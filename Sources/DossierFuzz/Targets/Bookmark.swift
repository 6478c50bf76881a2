import DocumentCore
import Foundation

extension FuzzTarget {
    /// Bookmark data as `dossier bookmark resolve` and recents.json hand it over: the compact
    /// form and its base64 text. What reads must write again and read back the same.
    static let bookmark = FuzzTarget("bookmark", "bookmark data (Bookmark(dataRepresentation:), base64)") { data in
        let text = String(decoding: data, as: UTF8.self)
        for decoded in [try? Bookmark(dataRepresentation: data), try? Bookmark(base64Encoded: text)] {
            guard let bookmark = decoded else { continue }
            let again = try? Bookmark(dataRepresentation: bookmark.dataRepresentation)
            expect(again == bookmark, "a bookmark read from data does not read back the same after writing it")
        }
    }
}
