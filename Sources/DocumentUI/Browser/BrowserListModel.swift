import CGtk
import DocumentCore
import Foundation

/// A location's items for the grid and the list: a Swift array behind a GListModel
/// (`object.model`). Every change is told to the views as the exact ranges that changed —
/// a file created in a folder of 100,000 is one insertion at its place — so rows animate and
/// the scroll position stays; only a new order or a new set of items resets the views.
///
/// `filterText` narrows the items to those whose name contains it (case and accents ignored).
@MainActor
final class BrowserListModel {
    /// Every item of the location, in order, before filtering.
    private(set) var allItems: [BrowserItem] = []
    /// The items the views show: `allItems` filtered.
    private(set) var items: [BrowserItem] = []
    private(set) lazy var object = ItemListObject(source: self)
    /// The items that arrived by a live change (`apply`), for the cells to animate them in.
    let arrivals = ArrivalLog()

    init() {}

    isolated deinit { object.detach() }

    var count: Int { items.count }
    subscript(position: Int) -> BrowserItem { items[position] }

    /// The shown position of the item at `url`, if shown.
    func position(of url: URL) -> Int? {
        let key = BrowserItem.key(for: url)
        return items.firstIndex { $0.key == key }
    }

    /// Only items whose name contains this are shown; empty shows all.
    var filterText = "" {
        didSet {
            guard filterText != oldValue else { return }
            replaceShown(with: filtered(allItems))
        }
    }

    /// Only folders and items of these types (or a subtype) are shown; empty shows all.
    var contentTypes: [DocumentType] = [] {
        didSet { replaceShown(with: filtered(allItems)) }
    }

    private func filtered(_ items: [BrowserItem]) -> [BrowserItem] {
        guard !filterText.isEmpty || !contentTypes.isEmpty else { return items }
        return items.filter { item in
            item.matches(filterText)
                && (contentTypes.isEmpty || item.isDirectory || contentTypes.contains { item.type.conforms(to: $0) })
        }
    }

    // MARK: Changing the items

    /// Replaces every item. Items that stay keep their objects in the views when the order of
    /// those that stay is unchanged (the others are removed and inserted where they now are);
    /// a new order resets the views.
    /// `resetting` skips working out what stayed: the views get one reset.
    func replace(with newItems: [BrowserItem], resetting: Bool = false) {
        allItems = newItems
        if resetting {
            let old = items.count
            items = filtered(newItems)
            object.itemsChanged(at: 0, removed: old, added: items.count)
        } else {
            replaceShown(with: filtered(newItems))
        }
    }

    /// Applies a query's change set (relative to the items as last delivered).
    func apply(_ changes: QueryChangeSet, showingFolder: Bool = false) {
        guard !changes.isEmpty else { return }
        let converted = ConvertedChanges(changes, showingFolder: showingFolder, old: allItems)
        if filterText.isEmpty && contentTypes.isEmpty {
            // Shown and all are the same list: tell the views each range.
            applyPrecisely(converted)
            allItems = items
        } else {
            var all = allItems
            converted.apply(to: &all)
            allItems = all
            replaceShown(with: filtered(all))
        }
    }

    // MARK: Telling the views

    private func applyPrecisely(_ changes: ConvertedChanges) {
        // Out first, highest index first, so the indices still to remove stay valid.
        for run in Self.runs(changes.leaving.sorted(by: >)) {
            items.removeSubrange(run.lowerBound..<run.upperBound)
            object.itemsChanged(at: run.lowerBound, removed: run.count, added: 0)
        }
        // In by ascending new index: everything before each insertion is already in place.
        let arriving = changes.arriving.sorted { $0.index < $1.index }
        var start = 0
        while start < arriving.count {
            var end = start + 1
            while end < arriving.count && arriving[end].index == arriving[end - 1].index + 1 { end += 1 }
            let first = arriving[start].index
            items.insert(contentsOf: arriving[start..<end].map(\.item), at: min(first, items.count))
            object.itemsChanged(at: first, removed: 0, added: end - start)
            start = end
        }
        let placed = Set(arriving.map(\.index))
        let updates = changes.updated.filter { !placed.contains($0.index) && $0.index < items.count }
        for update in updates { items[update.index] = update.item }
        for run in Self.runs(updates.map(\.index).sorted()) {
            replaceInPlace(run)
        }
    }

    private func replaceShown(with newItems: [BrowserItem]) {
        let old = items
        // The same items in the same order (a folder's full listing after its batches): only
        // those whose attributes changed are told, without building sets of keys.
        if !old.isEmpty, old.count == newItems.count, old.indices.allSatisfy({ old[$0].key == newItems[$0].key }) {
            var changed: [Int] = []
            for index in newItems.indices where old[index] != newItems[index] { changed.append(index) }
            items = newItems
            for run in Self.runs(changed) {
                replaceInPlace(run)
            }
            return
        }
        let newKeys = Set(newItems.map(\.key))
        let oldKeys = Set(old.map(\.key))
        let stayingOld = old.lazy.filter { newKeys.contains($0.key) }.map(\.key)
        let stayingNew = newItems.lazy.filter { oldKeys.contains($0.key) }.map(\.key)
        guard !old.isEmpty, stayingOld.elementsEqual(stayingNew) else {
            items = newItems
            object.itemsChanged(at: 0, removed: old.count, added: newItems.count)
            return
        }
        let leaving = old.indices.filter { !newKeys.contains(old[$0].key) }
        let arriving = newItems.indices.filter { !oldKeys.contains(newItems[$0].key) }
        // Changes scattered all over (a big batch merged in while listing) are cheaper for
        // the views as one reset than as thousands of small ranges, each rebinding the cells.
        if Self.runs(leaving).count + Self.runs(arriving).count > Self.maximumRanges {
            items = newItems
            object.itemsChanged(at: 0, removed: old.count, added: newItems.count)
            return
        }
        applyPrecisely(ConvertedChanges(
            leaving: leaving, arriving: arriving.map { (index: $0, item: newItems[$0]) },
            updated: []))
        // Items that stayed but changed (size, date…): replaced in place.
        var changed: [Int] = []
        for index in newItems.indices where items[index] != newItems[index] {
            items[index] = newItems[index]
            changed.append(index)
        }
        for run in Self.runs(changed) {
            replaceInPlace(run)
        }
    }

    /// The selection over this model (the views'), so items updated in place stay selected.
    var selection: OpaquePointer?

    /// Tells the views that the items in `run` changed but stayed where they were. A selection
    /// model drops what it sees removed, so the selected ones among them are selected again (a
    /// file still being written, selected after a paste, stays selected as its size changes).
    private func replaceInPlace(_ run: Range<Int>) {
        let selected: [Int] = selection.map { model in run.filter { gtk_selection_model_is_selected(model, guint($0)) != 0 } } ?? []
        object.itemsChanged(at: run.lowerBound, removed: run.count, added: run.count)
        guard let selection else { return }
        for position in selected { gtk_selection_model_select_item(selection, guint(position), 0) }
    }

    /// Beyond this many ranges, a change is told as one reset.
    static let maximumRanges = 64

    /// Consecutive indices grouped into ranges (input ascending or descending).
    static func runs(_ indices: [Int]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for index in indices {
            if let last = result.last, index == last.upperBound {
                result[result.count - 1] = last.lowerBound..<(index + 1)
            } else if let last = result.last, index == last.lowerBound - 1 {
                result[result.count - 1] = index..<last.upperBound
            } else {
                result.append(index..<(index + 1))
            }
        }
        return result
    }
}

/// A query's change set in the browser's items: what leaves (old indices), what arrives
/// (new indices: insertions and the new places of moved items), and what is updated in place.
struct ConvertedChanges {
    var leaving: [Int]
    var arriving: [(index: Int, item: BrowserItem)]
    var updated: [(index: Int, item: BrowserItem)]

    init(leaving: [Int], arriving: [(index: Int, item: BrowserItem)], updated: [(index: Int, item: BrowserItem)]) {
        self.leaving = leaving
        self.arriving = arriving
        self.updated = updated
    }

    init(_ changes: QueryChangeSet, showingFolder: Bool, old: [BrowserItem]) {
        var updatedAt: [Int: BrowserItem] = [:]
        for entry in changes.updated { updatedAt[entry.index] = BrowserItem(entry.item, showingFolder: showingFolder) }
        leaving = changes.removed + changes.moved.map(\.from)
        arriving = changes.inserted.map { (index: $0.index, item: BrowserItem($0.item, showingFolder: showingFolder)) }
        for move in changes.moved where move.from < old.count {
            arriving.append((index: move.to, item: updatedAt[move.to] ?? old[move.from]))
        }
        updated = updatedAt.map { (index: $0.key, item: $0.value) }
    }

    /// The same changes applied to a plain array.
    func apply(to items: inout [BrowserItem]) {
        for index in leaving.sorted(by: >) where index < items.count { items.remove(at: index) }
        for entry in arriving.sorted(by: { $0.index < $1.index }) { items.insert(entry.item, at: min(entry.index, items.count)) }
        let placed = Set(arriving.map(\.index))
        for entry in updated where !placed.contains(entry.index) && entry.index < items.count { items[entry.index] = entry.item }
    }
}
