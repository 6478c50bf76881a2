import DocumentCore
import Foundation

/// A folder's `DirectoryQuery` turned into browser items on a queue of its own. The first
/// listing's batches are converted and merged there, so the main thread only swaps in the
/// newest list: a very large folder arrives in many batches, and merging each on the main
/// thread (at the main queue's priority, above GTK's layout and paint) would keep the first
/// of them off the screen.
final class FolderListing: @unchecked Sendable {
    /// What the main thread gets, in order.
    enum Event: Sendable {
        /// Every item listed so far, in the browser's order; each supersedes the one before.
        case listed([BrowserItem])
        /// The listing is complete: `items` in the query's order, or nil when they are exactly
        /// the last `listed` items (the usual case, which then costs the main thread nothing).
        case complete([BrowserItem]?)
        /// The folder listed again after its options changed (a new order, hidden items).
        case relisted([BrowserItem])
        case changes(QueryChangeSet)
        case warning(DirectoryQueryError)
        case failed(DirectoryQueryError)
    }

    let query: DirectoryQuery
    private let queue = DispatchQueue(label: "dossier.browser.listing", qos: .userInitiated)
    /// Only touched on `queue`.
    private var sort: BrowserSort
    private var listed: [BrowserItem] = []
    private var isGathering = true

    init(folder: URL, options: QueryOptions, sort: BrowserSort) {
        query = DirectoryQuery(folder: folder, options: options)
        self.sort = sort
    }

    /// Starts the query; `handler` gets the events on the main actor.
    func start(onMainActor handler: @escaping @MainActor (Event) -> Void) {
        query.start(on: queue) { [self] event in
            guard let converted = convert(event) else { return }
            DispatchQueue.main.async { handler(converted) }
        }
    }

    /// A new order for the query and for batches still to be merged.
    func setOptions(_ options: QueryOptions, sort: BrowserSort) {
        queue.async { [self] in self.sort = sort }
        query.setOptions(options)
    }

    func stop() { query.stop() }

    /// On `queue`: the event as the main thread needs it.
    private func convert(_ event: QueryEvent) -> Event? {
        switch event {
        case .batch(let items):
            let batch = items.map { BrowserItem($0) }.sorted(by: sort.areInIncreasingOrder)
            listed = Self.merge(listed, batch, sort)
            return .listed(listed)
        case .reload(let items, let reason):
            let converted = items.map { BrowserItem($0) }
            let completesListing = isGathering && reason == .gathered
            let unchanged = completesListing && converted == listed
            isGathering = false
            listed = []
            return completesListing ? .complete(unchanged ? nil : converted) : .relisted(converted)
        case .changes(let changes): return .changes(changes)
        case .warning(let error): return .warning(error)
        case .failed(let error):
            listed = []
            return .failed(error)
        }
    }

    /// Two sorted lists as one.
    static func merge(_ lhs: [BrowserItem], _ rhs: [BrowserItem], _ sort: BrowserSort) -> [BrowserItem] {
        guard !lhs.isEmpty else { return rhs }
        guard !rhs.isEmpty else { return lhs }
        var merged: [BrowserItem] = []
        merged.reserveCapacity(lhs.count + rhs.count)
        var left = 0, right = 0
        while left < lhs.count && right < rhs.count {
            if sort.areInIncreasingOrder(rhs[right], lhs[left]) {
                merged.append(rhs[right]); right += 1
            } else {
                merged.append(lhs[left]); left += 1
            }
        }
        merged += lhs[left...]
        merged += rhs[right...]
        return merged
    }
}
