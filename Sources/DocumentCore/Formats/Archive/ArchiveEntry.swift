import Foundation

/// One entry of an archive as the listing shows it.
package struct ArchiveEntry: Equatable, Sendable {
    package enum Kind: UInt8, Sendable { case file, folder, link, other }

    /// The path as stored in the archive (at most `ArchiveListing.pathLimit` bytes).
    package var path: String
    /// What the listing shows: the last component, or the whole path of an unsafe entry.
    package var name: String
    /// How deep in the folder tree (0: at the top).
    package var depth: Int
    package var kind: Kind
    package var size: Int64?
    package var modified: Date?
    /// An absolute path or one with `..`: listed, flagged, never extracted.
    package var isUnsafe: Bool
    package var isEncrypted: Bool
    package var linkTarget: String?
    /// The entry's position in the archive; nil for a folder only implied by other paths.
    package var headerIndex: Int?

    package init(path: String, name: String, depth: Int, kind: Kind, size: Int64?, modified: Date?, isUnsafe: Bool,
                 isEncrypted: Bool, linkTarget: String?, headerIndex: Int?) {
        self.path = path
        self.name = name
        self.depth = depth
        self.kind = kind
        self.size = size
        self.modified = modified
        self.isUnsafe = isUnsafe
        self.isEncrypted = isEncrypted
        self.linkTarget = linkTarget
        self.headerIndex = headerIndex
    }
}
