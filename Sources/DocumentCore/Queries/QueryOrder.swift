import Foundation

/// The total order of a query's items under its options: folders first if asked, then the
/// sort key, then natural name order, then the folder (for recursive queries). Reversing
/// keeps folders first. Two distinct items never compare equal, so an item's index in a
/// sorted array can be found by binary search.
struct QueryOrder: Sendable {
    let key: QuerySortKey
    let ascending: Bool
    let foldersFirst: Bool

    init(_ options: QueryOptions) {
        key = options.sortKey
        ascending = options.ascending
        foldersFirst = options.foldersFirst
    }

    func compare(_ lhs: QueryItem, _ rhs: QueryItem) -> ComparisonResult {
        withUnsafePointer(to: lhs) { left in withUnsafePointer(to: rhs) { right in compare(left, right) } }
    }

    /// The comparison itself, reading fields in place: passing whole items would copy them,
    /// retaining their strings and folder, and that cost more than comparing.
    private func compare(_ lhs: UnsafePointer<QueryItem>, _ rhs: UnsafePointer<QueryItem>) -> ComparisonResult {
        if foldersFirst && lhs.pointee.isDirectory != rhs.pointee.isDirectory {
            return lhs.pointee.isDirectory ? .orderedAscending : .orderedDescending
        }
        var result = ComparisonResult.orderedSame
        switch key {
        case .name: break
        case .dateModified: result = Self.compare(lhs.pointee.modified, rhs.pointee.modified)
        case .size: result = Self.compare(lhs.pointee.size, rhs.pointee.size)
        case .kind:
            if lhs.pointee.type != rhs.pointee.type {
                result = NaturalSort.compare(KindNames.name(of: lhs.pointee.type), KindNames.name(of: rhs.pointee.type))
                if result == .orderedSame { result = Self.compare(lhs.pointee.type.identifier, rhs.pointee.type.identifier) }
            }
        }
        if result == .orderedSame { result = NaturalSort.compare(lhs.pointee.name, rhs.pointee.name) }
        if result == .orderedSame && lhs.pointee.parent !== rhs.pointee.parent {
            result = NaturalSort.compare(lhs.pointee.parent.relativePath, rhs.pointee.parent.relativePath)
        }
        guard !ascending else { return result }
        switch result {
        case .orderedAscending: return .orderedDescending
        case .orderedDescending: return .orderedAscending
        case .orderedSame: return .orderedSame
        }
    }

    func areInIncreasingOrder(_ lhs: QueryItem, _ rhs: QueryItem) -> Bool {
        compare(lhs, rhs) == .orderedAscending
    }

    /// `items` in this order. Sorts indices, not items: moving an item means retaining its
    /// strings and folder, moving an index nothing, and that was most of the time a sort took.
    /// Runs already in order (sorted batches) are merged, not sorted again.
    func sorted(_ items: ArraySlice<QueryItem>) -> [QueryItem] {
        items.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return [] }
            var indices = Array(buffer.indices)
            indices.sort { compare(base + $0, base + $1) == .orderedAscending }
            return indices.map { buffer[$0] }
        }
    }

    func sorted(_ items: [QueryItem]) -> [QueryItem] { sorted(items[...]) }

    /// The index of the first element of the sorted `items` that does not sort before `item`:
    /// where `item` is, or where it would be inserted.
    func insertionIndex(of item: QueryItem, in items: [QueryItem]) -> Int {
        var low = 0
        var high = items.count
        while low < high {
            let middle = (low + high) / 2
            if compare(items[middle], item) == .orderedAscending {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    private static func compare<T: Comparable>(_ lhs: T, _ rhs: T) -> ComparisonResult {
        lhs < rhs ? .orderedAscending : lhs > rhs ? .orderedDescending : .orderedSame
    }
}

/// The descriptions types sort by under `.kind`, looked up once per type: the MIME database
/// reads a file for each.
enum KindNames {
    private static let cache = Locked<[String: String]>([:])

    static func name(of type: DocumentType) -> String {
        if let known = cache.withLock({ $0[type.identifier] }) { return known }
        let description = type.localizedDescription
        cache.withLock { $0[type.identifier] = description }
        return description
    }
}
