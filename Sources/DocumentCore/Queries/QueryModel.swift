import Foundation

/// A query's items in sort order, and the change sets that take it from one state to the next.
///
/// Changes arrive as fresh looks at a few paths. Applying them costs one pass over the items
/// (to find where the changed ones were) plus a binary search per changed item, so a change
/// in a folder of 100,000 items is a few milliseconds, and a burst of thousands is a merge.
struct QueryModel {
    var items: [QueryItem] = []
    var order: QueryOrder

    init(order: QueryOrder, items: [QueryItem] = []) {
        self.order = order
        self.items = items
    }

    /// Brings the model up to date with `updates` (relative path → the visible item there now,
    /// or nil when there is none) and returns the change set that does the same to a copy.
    /// `renames` maps a destination to its source for moves inside the folder; `forced` paths
    /// are reported as updated even when their attributes are unchanged (their content changed).
    mutating func apply(updates: [PathKey: QueryItem?], renames: [PathKey: PathKey] = [:], forced: Set<PathKey> = []) -> QueryChangeSet {
        guard !updates.isEmpty else { return QueryChangeSet() }

        // Where the changed paths are now. Comparing names first keeps most items to one hash.
        let names = Set(updates.keys.map(\.name))
        var previous: [PathKey: (index: Int, item: QueryItem)] = [:]
        for index in items.indices where names.contains(PathKey(items[index].name)) {
            let path = items[index].key
            if updates.index(forKey: path) != nil { previous[path] = (index, items[index]) }
        }

        var removed: [Int] = []
        var persisting: [(from: Int, item: QueryItem)] = []
        var inserted: [QueryItem] = []
        var handled = Set<PathKey>()
        // A rename keeps its item when the source went and the destination is new.
        for (destination, source) in renames {
            guard case .some(.some(let item)) = updates[destination], previous[destination] == nil,
                let before = previous[source], case .some(.none) = updates[source], !handled.contains(source)
            else { continue }
            persisting.append((before.index, item))
            handled.insert(source)
            handled.insert(destination)
        }
        for (path, now) in updates where !handled.contains(path) {
            switch (previous[path], now) {
            case (let before?, let item?):
                if before.item != item || forced.contains(path) { persisting.append((before.index, item)) }
            case (let before?, nil): removed.append(before.index)
            case (nil, let item?): inserted.append(item)
            case (nil, nil): break
            }
        }
        if removed.isEmpty && persisting.isEmpty && inserted.isEmpty { return QueryChangeSet() }

        // Take out every changed item, then put the new versions where they sort.
        let leaving = (removed + persisting.map(\.from)).sorted()
        items.removeSubranges(RangeSet(leaving, within: items))
        let arriving = persisting.map(\.item) + inserted
        insert(arriving)
        let arrivingIndices = arriving.map { order.insertionIndex(of: $0, in: items) }

        // A persisting item moved when its place among the unchanged items changed, or when it
        // swapped places with another persisting item (those outside a longest run in order).
        let sortedArriving = arrivingIndices.sorted()
        var moved: [QueryChangeSet.Move] = []
        var candidates: [(from: Int, to: Int)] = []
        for (offset, entry) in persisting.enumerated() {
            let to = arrivingIndices[offset]
            let rankBefore = entry.from - Self.countLess(than: entry.from, in: leaving)
            let rankAfter = to - Self.countLess(than: to, in: sortedArriving)
            if rankBefore == rankAfter {
                candidates.append((entry.from, to))
            } else {
                moved.append(.init(from: entry.from, to: to))
            }
        }
        candidates.sort { $0.to < $1.to }
        let staying = Self.longestIncreasingRun(candidates.map(\.from))
        for (offset, candidate) in candidates.enumerated() where !staying.contains(offset) {
            moved.append(.init(from: candidate.from, to: candidate.to))
        }
        moved.sort { $0.to < $1.to }

        let persistingCount = persisting.count
        return QueryChangeSet(
            removed: removed.sorted(),
            inserted: zip(arrivingIndices[persistingCount...], inserted).map { IndexedItem(index: $0, item: $1) }
                .sorted { $0.index < $1.index },
            updated: zip(arrivingIndices[..<persistingCount], persisting).map { IndexedItem(index: $0, item: $1.item) }
                .sorted { $0.index < $1.index },
            moved: moved)
    }

    /// Re-sorts under a new order.
    mutating func reorder(_ newOrder: QueryOrder) {
        order = newOrder
        items = order.sorted(items)
    }

    /// Relative paths of every item under the folder `folder` (not the folder itself).
    func paths(under folder: PathKey) -> [PathKey] {
        items.compactMap { item in folder.contains(PathKey(item.parent.relativePath)) ? item.key : nil }
    }

    private mutating func insert(_ arriving: [QueryItem]) {
        if arriving.count <= 32 {
            for item in arriving {
                items.insert(item, at: order.insertionIndex(of: item, in: items))
            }
            return
        }
        let sorted = order.sorted(arriving)
        var merged: [QueryItem] = []
        merged.reserveCapacity(items.count + sorted.count)
        var left = 0
        var right = 0
        while left < items.count && right < sorted.count {
            if order.areInIncreasingOrder(sorted[right], items[left]) {
                merged.append(sorted[right])
                right += 1
            } else {
                merged.append(items[left])
                left += 1
            }
        }
        merged += items[left...]
        merged += sorted[right...]
        items = merged
    }

    private static func countLess(than value: Int, in sorted: [Int]) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Offsets of one longest strictly increasing subsequence of `values` (patience sorting).
    static func longestIncreasingRun(_ values: [Int]) -> Set<Int> {
        guard !values.isEmpty else { return [] }
        var tails: [Int] = []  // offsets: tails[k] ends the best run of length k + 1
        var previous = [Int](repeating: -1, count: values.count)
        for (offset, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[offset] = tails[low - 1] }
            if low == tails.count { tails.append(offset) } else { tails[low] = offset }
        }
        var result = Set<Int>()
        var cursor = tails.last ?? -1
        while cursor >= 0 {
            result.insert(cursor)
            cursor = previous[cursor]
        }
        return result
    }
}
