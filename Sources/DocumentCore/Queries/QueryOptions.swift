import Foundation

/// What a `DirectoryQuery` sorts by. Ties are broken by name, so the order is always total.
public enum QuerySortKey: String, Sendable, CaseIterable, Codable {
    /// Natural name order: "file2" before "file10", case-insensitive, in the user's locale.
    case name
    /// Date of last modification, oldest first.
    case dateModified
    /// Size in bytes, smallest first (folders count as 0).
    case size
    /// The type's description ("PDF document"), then name.
    case kind
}

/// Which items a query reports: those whose name contains a string and whose type conforms
/// to one of some types, and any further test. An empty predicate matches everything.
public struct QueryPredicate: Sendable {
    /// Matched case-insensitively anywhere in the name; nil for any name.
    public var nameContains: String?
    /// The item's type must conform to one of these (`DocumentType.conforms(to:)`); empty for any type.
    public var types: [DocumentType]
    /// A further test, run on the query's background queue.
    public var test: (@Sendable (QueryItem) -> Bool)?

    /// Makes a predicate: a part of the name, some types, and a further test; each left out matches
    /// everything.
    public init(nameContains: String? = nil, types: [DocumentType] = [], where test: (@Sendable (QueryItem) -> Bool)? = nil) {
        self.nameContains = nameContains
        self.types = types
        self.test = test
    }

    /// True when `item` passes every part of the predicate.
    public func matches(_ item: QueryItem) -> Bool {
        if let nameContains, !nameContains.isEmpty,
            item.name.range(of: nameContains, options: [.caseInsensitive, .diacriticInsensitive]) == nil
        {
            return false
        }
        if !types.isEmpty && !types.contains(where: { item.type.conforms(to: $0) }) {
            return false
        }
        return test?(item) ?? true
    }
}

/// How a `DirectoryQuery` lists, orders and follows its folder.
public struct QueryOptions: Sendable {
    /// What the items are sorted by.
    public var sortKey: QuerySortKey
    /// False reverses the order (folders stay first when `foldersFirst` is set).
    public var ascending: Bool
    /// Folders before everything else, as Files does by default.
    public var foldersFirst: Bool
    /// Also list names starting with "." and names in the folder's `.hidden` file.
    public var showsHidden: Bool
    /// List the whole tree under the folder (not entering hidden folders unless `showsHidden`,
    /// nor links to folders), not just the folder.
    public var recursive: Bool
    /// Only report the items that match; folders are still entered when `recursive`.
    public var predicate: QueryPredicate?
    /// Follow changes after the first gathering (inotify); false gathers once.
    public var observesChanges: Bool
    /// The least time between two deliveries of changes seen by inotify: a burst of changes
    /// inside it arrives as one change set. `DirectoryQuery.noteChange(at:)` does not wait for it.
    public var coalescingInterval: Duration
    /// For a remote location whose changes GIO does not report (SFTP, SMB and WebDAV do not):
    /// how long after one listing the folder is listed again, when `observesChanges`.
    public var refreshInterval: Duration
    /// For a remote location: how long a listing may wait for the server's next answer before
    /// it ends with `DirectoryQueryError.unreachable`, so a server that stops answering
    /// (without closing the connection) never leaves the listing hanging.
    public var remoteTimeout: Duration

    /// Makes options; the defaults list a folder by name, folders first, hidden items left out, and
    /// follow its changes.
    public init(
        sortKey: QuerySortKey = .name, ascending: Bool = true, foldersFirst: Bool = true, showsHidden: Bool = false,
        recursive: Bool = false, predicate: QueryPredicate? = nil, observesChanges: Bool = true,
        coalescingInterval: Duration = .milliseconds(75), refreshInterval: Duration = .seconds(15),
        remoteTimeout: Duration = .seconds(30)
    ) {
        self.refreshInterval = refreshInterval
        self.remoteTimeout = remoteTimeout
        self.sortKey = sortKey
        self.ascending = ascending
        self.foldersFirst = foldersFirst
        self.showsHidden = showsHidden
        self.recursive = recursive
        self.predicate = predicate
        self.observesChanges = observesChanges
        self.coalescingInterval = coalescingInterval
    }

    /// True when `other` lists the same items as these options (only the order may differ).
    func listsSameItems(as other: QueryOptions) -> Bool {
        showsHidden == other.showsHidden && recursive == other.recursive
            && predicate == nil && other.predicate == nil
    }
}
