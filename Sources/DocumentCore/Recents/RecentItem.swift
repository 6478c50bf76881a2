import Foundation

/// One recent document, as listed by `RecentDocuments.items()`: recorded by Dossier or by
/// any other program that writes `recently-used.xbel`.
public struct RecentItem: Sendable, Hashable, Codable {
    /// Its URI (after following a move, the new one).
    public let uri: String
    /// The local path, for `file://` URIs.
    public let path: String?
    /// The name to show: the title a program gave it, else the file name.
    public let name: String
    /// The MIME type the recording program gave, when it gave one.
    public let mimeType: String?
    /// When the document was first recorded.
    public let added: Date?
    /// When a program last recorded a change to the document.
    public let modified: Date?
    /// When a program last opened the document.
    public let visited: Date?
    /// The programs that recorded it, by the names they registered ("Dossier", "gedit"…).
    public let applications: [String]
    /// True when Dossier is one of them.
    public let isRecordedByDossier: Bool
    /// True when the document is not where the list says and could not be found elsewhere:
    /// show it as missing until it is removed (or comes back).
    public let isMissing: Bool

    /// The latest of the visited and modified dates (the added date when neither is set):
    /// what the list is sorted by, newest first.
    public var lastUsed: Date? {
        [visited, modified].compactMap { $0 }.max() ?? added
    }

    /// An item described by hand (`RecentDocuments.items()` makes the real ones).
    public init(uri: String, path: String?, name: String, mimeType: String?, added: Date?, modified: Date?,
                visited: Date?, applications: [String], isRecordedByDossier: Bool, isMissing: Bool) {
        self.uri = uri
        self.path = path
        self.name = name
        self.mimeType = mimeType
        self.added = added
        self.modified = modified
        self.visited = visited
        self.applications = applications
        self.isRecordedByDossier = isRecordedByDossier
        self.isMissing = isMissing
    }
}
