import DocumentCore
import Foundation

/// The order the browser shows a location's items in: one key, folders always first, and
/// optionally reversed (folders stay first). Ties are broken by natural name order.
public struct BrowserSort: Codable, Hashable, Sendable {
    /// What items are ordered by.
    public enum Key: String, Codable, Hashable, Sendable, CaseIterable {
        /// The name (natural order: "2" before "10"), the size, the kind of document, or the
        /// modification date.
        case name, size, kind, modified
    }

    /// What items are ordered by.
    public var key: Key
    /// Whether the order is reversed (folders stay first).
    public var reversed: Bool

    /// Makes an order by `key`, reversed when `reversed` is set.
    public init(key: Key = .name, reversed: Bool = false) {
        self.key = key
        self.reversed = reversed
    }

    /// The query options that list a folder in this order.
    func applied(to options: QueryOptions) -> QueryOptions {
        var options = options
        options.sortKey = switch key {
        case .name: .name
        case .size: .size
        case .kind: .kind
        case .modified: .dateModified
        }
        options.ascending = !reversed
        options.foldersFirst = true
        return options
    }

    /// True when `lhs` comes before `rhs` in this order (the same order a `DirectoryQuery`
    /// gives, for the locations that are not folders and for merging a query's batches).
    func areInIncreasingOrder(_ lhs: BrowserItem, _ rhs: BrowserItem) -> Bool {
        if lhs.isDirectory != rhs.isDirectory { return lhs.isDirectory }
        var result = ComparisonResult.orderedSame
        switch key {
        case .name: break
        case .size: result = Self.compare(lhs.size, rhs.size)
        case .modified: result = Self.compare(lhs.modified ?? .distantPast, rhs.modified ?? .distantPast)
        case .kind:
            if lhs.type != rhs.type {
                result = NaturalSort.compare(KindName.of(lhs.type), KindName.of(rhs.type))
            }
        }
        if result == .orderedSame { result = NaturalSort.compare(lhs.name, rhs.name) }
        if result == .orderedSame { result = NaturalSort.compare(lhs.key, rhs.key) }
        return reversed ? result == .orderedDescending : result == .orderedAscending
    }

    private static func compare<T: Comparable>(_ lhs: T, _ rhs: T) -> ComparisonResult {
        lhs < rhs ? .orderedAscending : lhs > rhs ? .orderedDescending : .orderedSame
    }
}

/// The icon sizes of the grid's zoom levels, in logical pixels.
public enum BrowserZoom {
    /// The icon sizes, smallest first: a zoom level is an index into this list.
    public static let iconSizes = [64, 96, 128, 192, 256]
    /// The zoom level a new browser starts at (96 pixels).
    public static let defaultLevel = 1

    static func clamp(_ level: Int) -> Int { min(max(level, 0), iconSizes.count - 1) }
}

/// The description of a type ("PDF document"), looked up once per type: the MIME database
/// reads a file for each.
enum KindName {
    nonisolated(unsafe) private static var cache: [String: String] = [:]
    private static let lock = NSLock()

    static func of(_ type: DocumentType) -> String {
        lock.lock()
        defer { lock.unlock() }
        if let known = cache[type.identifier] { return known }
        let name = type == .folder ? tr("Folder") : type.localizedDescription
        cache[type.identifier] = name
        return name
    }
}
