import Foundation

/// One item in the Trash: everything needed to show it, put it back (undo) or delete it.
public struct TrashedItem: Sendable, Hashable, Codable {
    /// The item's name in the trash folder (`files/NAME`, `info/NAME.trashinfo`); unique
    /// within one trash folder, not across all of them.
    public let name: String
    /// The absolute path the item had before it was trashed.
    public let originalPath: String
    /// When it was trashed, to the second; nil when its record has no readable date.
    public let deletionDate: Date?
    /// The trash folder that holds it.
    package let trash: TrashDirectory

    /// Where the item is now, inside the trash.
    public var url: URL { trash.filesURL.appendingPathComponent(name, isDirectory: false) }
    /// Its `.trashinfo` record.
    public var infoURL: URL { trash.infoURL.appendingPathComponent(name + ".trashinfo", isDirectory: false) }
    /// Where it was before it was trashed, and where restoring puts it.
    public var originalURL: URL { URL(fileURLWithPath: originalPath, isDirectory: false) }
    /// The name it had (and will have again when restored).
    public var originalName: String { (originalPath as NSString).lastPathComponent }

    /// An item as a trash folder records it (normally made by `Trash`, not by hand).
    package init(name: String, originalPath: String, deletionDate: Date?, trash: TrashDirectory) {
        self.name = name
        self.originalPath = originalPath
        self.deletionDate = deletionDate
        self.trash = trash
    }
}

/// What the Trash holds: its items, newest first, and anything odd found on the way.
public struct TrashContents: Sendable {
    /// The items of every trash folder, most recently trashed first.
    public let items: [TrashedItem]
    /// Damaged or orphaned records, reported rather than hidden or fatal.
    public let problems: [TrashProblem]

    /// True when no item is in the Trash (problems aside).
    public var isEmpty: Bool { items.isEmpty }
}
