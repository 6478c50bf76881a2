import Foundation

/// What a `DirectoryQuery` delivers, in order, on the executor its owner chose.
public enum QueryEvent: Sendable {
    /// Part of a gathering, sorted within itself, for showing something at once. Batches are
    /// followed by `.reload(_, .gathered)`, which has all of them in order.
    case batch([QueryItem])
    /// Every item, in order: replace what is shown. Change sets that follow are relative to it.
    case reload([QueryItem], QueryReloadReason)
    /// Changes since the last reload or change set, as indices a list or grid can animate.
    case changes(QueryChangeSet)
    /// A problem that does not end the query: a subfolder of a recursive query that cannot be
    /// read, or changes that can no longer be followed.
    case warning(DirectoryQueryError)
    /// The query has ended: its folder could not be listed, or it went away. No events follow.
    case failed(DirectoryQueryError)
}

/// Why a query delivers every item again.
public enum QueryReloadReason: String, Sendable {
    /// The first gathering finished.
    case gathered
    /// The sort or the options changed.
    case optionsChanged
}

/// An item with its index in a list.
public struct IndexedItem: Sendable, Hashable {
    /// The item's position in the list.
    public let index: Int
    /// The item.
    public let item: QueryItem

    /// Pairs an item with its position in a list.
    public init(index: Int, item: QueryItem) {
        self.index = index
        self.item = item
    }
}

/// How a list in sort order changed, in the terms of a batch update of a list or grid view:
/// `removed` and the sources of `moved` are indices in the old list; `inserted`, `updated`
/// and the destinations of `moved` are indices in the new one. Items that are in neither
/// `removed` nor `moved` keep their relative order. An item renamed inside the folder (a
/// paired inotify move) keeps its identity: it is updated, and moved if its place changed.
public struct QueryChangeSet: Sendable, Hashable {
    /// A persisting item whose place among the others changed.
    public struct Move: Sendable, Hashable {
        /// The item's index in the old list.
        public let from: Int
        /// The item's index in the new list.
        public let to: Int

        /// Describes an item that moved from index `from` in the old list to `to` in the new one.
        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// Old indices of items that are gone, ascending.
    public var removed: [Int] = []
    /// New items with their new indices, ascending.
    public var inserted: [IndexedItem] = []
    /// Items whose attributes (or name) changed, with their new indices, ascending.
    public var updated: [IndexedItem] = []
    /// Items that changed place, from old index to new index, by ascending destination.
    public var moved: [Move] = []

    /// Makes a change set from the indices of each kind of change.
    public init(removed: [Int] = [], inserted: [IndexedItem] = [], updated: [IndexedItem] = [], moved: [Move] = []) {
        self.removed = removed
        self.inserted = inserted
        self.updated = updated
        self.moved = moved
    }

    /// True when nothing changed.
    public var isEmpty: Bool { removed.isEmpty && inserted.isEmpty && updated.isEmpty && moved.isEmpty }

    /// Applies the changes to `items`, the list as it was before them. A consumer that keeps
    /// its own copy of the items stays equal to the query's by applying every change set.
    public func apply(to items: inout [QueryItem]) {
        let old = items
        let newCount = old.count - removed.count + inserted.count
        var leaving = Set(removed)
        for move in moved { leaving.insert(move.from) }
        var result = [QueryItem?](repeating: nil, count: newCount)
        for entry in inserted where entry.index < newCount { result[entry.index] = entry.item }
        for move in moved where move.to < newCount && move.from < old.count { result[move.to] = old[move.from] }
        var staying = old.indices.lazy.filter { !leaving.contains($0) }.makeIterator()
        for index in 0..<newCount where result[index] == nil {
            if let next = staying.next() { result[index] = old[next] }
        }
        for entry in updated where entry.index < newCount { result[entry.index] = entry.item }
        items = result.compactMap { $0 }
    }
}
