import CGLib
import DocumentCore
import Foundation
import GObjectSupport

/// Fills a `BrowserListModel` with a location's items and keeps them current: a folder
/// through a live `DirectoryQuery` (batches, then change sets); recents, a tag and the Trash
/// listed off the main thread (the Trash again whenever its folder changes). A new location,
/// order or hidden setting replaces the feed's work; late answers of old work are dropped.
@MainActor
final class LocationFeed {
    /// Where a location's listing stands.
    enum State: Equatable {
        case loading
        case loaded
        case failed(DirectoryQueryError)
    }

    let model: BrowserListModel
    private(set) var location: BrowserLocation?
    private(set) var state = State.loading { didSet { if state != oldValue { stateDidChange?(state) } } }
    private(set) var sort = BrowserSort()
    private(set) var showsHidden = false
    /// Recents in the order they were last used and the Trash in the order things were
    /// deleted, newest first, instead of `sort` — until the user picks a sort there (each
    /// new location starts with its own order again).
    private(set) var prefersLocationOrder = true
    var stateDidChange: ((State) -> Void)?
    /// Called after the items changed (whatever the cause).
    var itemsDidChange: (() -> Void)?
    /// Called for problems that do not end the listing (a change that could not be made…).
    var warning: ((String) -> Void)?
    /// Called when a folder has been listed whole (again: a new order, hidden items shown),
    /// with its own items in order; with none when its listing failed.
    var folderDidList: (([BrowserItem]) -> Void)?
    /// Called when items of a listed folder appeared or changed on disk, with those items.
    var folderItemsDidArrive: (([BrowserItem]) -> Void)?

    private var listing: FolderListing?
    /// The newest list of a folder being listed, waiting for the main loop to be idle.
    private var pendingListed: [BrowserItem]?
    private var pendingSource: guint = 0
    private var trashWatch: DirectoryQuery?
    private var tagIndex: TagIndex?
    private var generation = 0
    /// The folder's own items, in order (a search shows others besides them).
    private(set) var folderItems: [BrowserItem] = []
    /// Search results from subfolders, shown with the folder's items while a search runs.
    private var extraItems: [BrowserItem] = []
    private var isShowingExtras = false

    /// The directories the Trash, recents and tags are read from (tests pass private ones).
    let directories: UserDirectories
    let trash: Trash

    init(model: BrowserListModel, directories: UserDirectories = UserDirectories(), trash: Trash = Trash()) {
        self.model = model
        self.directories = directories
        self.trash = trash
    }

    /// Shows `location` in `sort` order.
    func show(_ location: BrowserLocation, sort: BrowserSort, showsHidden: Bool) {
        prefersLocationOrder = true
        self.location = location
        self.sort = sort
        self.showsHidden = showsHidden
        reload()
    }

    /// Takes `location` without listing it yet (its server is being mounted): no items, loading.
    func hold(_ location: BrowserLocation, sort: BrowserSort, showsHidden: Bool) {
        prefersLocationOrder = true
        self.location = location
        self.sort = sort
        self.showsHidden = showsHidden
        stop()
        generation += 1
        folderItems = []
        extraItems = []
        state = .loading
        model.replace(with: [])
    }

    /// Changes the order (a folder's query re-sorts; other locations are sorted here).
    func setSort(_ sort: BrowserSort) {
        guard sort != self.sort else { return }
        self.sort = sort
        if case .folder = location, let listing {
            listing.setOptions(options(for: listing.query.options), sort: sort)
        } else {
            setItems(folderItems.sorted(by: order.areInIncreasingOrder))
        }
    }

    /// Orders the items by `sort` from now on (the user picked it), not the location's order.
    func leaveLocationOrder() {
        guard prefersLocationOrder else { return }
        prefersLocationOrder = false
        if !isFolder { setItems(folderItems.sorted(by: order.areInIncreasingOrder)) }
    }

    /// The order the items are in now: the location's own or `sort`.
    var order: LocationOrder {
        guard prefersLocationOrder else { return .sort(sort) }
        switch location {
        case .recents: return .lastUsed
        case .trash: return .deleted
        default: return .sort(sort)
        }
    }

    private var isFolder: Bool {
        if case .folder = location { return true }
        return false
    }

    func setShowsHidden(_ shows: Bool) {
        guard shows != showsHidden else { return }
        showsHidden = shows
        if case .folder = location, let listing {
            listing.setOptions(options(for: listing.query.options), sort: sort)
        } else {
            reload()
        }
    }

    /// Lists the location again from scratch.
    func reload() {
        stop()
        generation += 1
        folderItems = []
        extraItems = []
        state = .loading
        model.replace(with: [])
        guard let location else { return }
        switch location {
        case .folder(let url): startQuery(url)
        case .recents: listRecents()
        case .tag(let name): listTag(name)
        case .trash: listTrash(watch: true)
        }
    }

    func stop() {
        listing?.stop()
        listing = nil
        pendingListed = nil
        if pendingSource != 0 {
            g_source_remove(pendingSource)
            pendingSource = 0
        }
        trashWatch?.stop()
        trashWatch = nil
        tagIndex?.stop()
        tagIndex = nil
    }

    // MARK: Search results

    /// Shows `items` (from subfolders) with the folder's own; nil goes back to the folder alone.
    func showExtras(_ items: [BrowserItem]?) {
        isShowingExtras = items != nil
        extraItems = (items ?? []).filter { $0.location != nil }
        publish()
    }

    /// `resetting`: tell the views one reset instead of working out what changed (a folder's
    /// list while it is read, where the new items land all over).
    private func publish(resetting: Bool = false) {
        if isShowingExtras {
            model.replace(with: (folderItems + extraItems).sorted(by: sort.areInIncreasingOrder))
        } else {
            model.replace(with: folderItems, resetting: resetting)
        }
        itemsDidChange?()
    }

    private func setItems(_ items: [BrowserItem], resetting: Bool = false) {
        folderItems = items
        publish(resetting: resetting)
    }

    // MARK: Folders

    private func options(for base: QueryOptions = QueryOptions()) -> QueryOptions {
        var options = sort.applied(to: base)
        options.showsHidden = showsHidden
        return options
    }

    private func startQuery(_ url: URL) {
        let listing = FolderListing(folder: url, options: options(), sort: sort)
        self.listing = listing
        let generation = generation
        listing.start(onMainActor: { [weak self] event in
            guard let self, self.generation == generation else { return }
            self.receive(event)
        })
    }

    /// Lists while the folder is read are kept until the main loop is idle (after GTK's
    /// layout and paint), and only the newest is shown; every other event is handled at once,
    /// after any list still waiting, so the order holds.
    private func receive(_ event: FolderListing.Event) {
        if case .listed(let items) = event {
            pendingListed = items
            if pendingSource == 0 { pendingSource = showPendingListedWhenIdle() }
            return
        }
        showPendingListed()
        switch event {
        case .listed: break
        case .complete(let items):
            if let items { setItems(items) }
            state = .loaded
            folderDidList?(folderItems)
        case .relisted(let items):
            setItems(items)
            state = .loaded
            folderDidList?(folderItems)
        case .changes(let changes):
            // New items animate in, however they are shown; a moved (renamed) item is one the
            // user already saw.
            model.arrivals.record(changes.inserted.map { $0.item.path })
            if isShowingExtras || !model.filterText.isEmpty {
                var items = folderItems
                ConvertedChanges(changes, showingFolder: false, old: items).apply(to: &items)
                setItems(items)
            } else {
                model.apply(changes)
                folderItems = model.allItems
                itemsDidChange?()
            }
            folderItemsDidArrive?((changes.inserted + changes.updated).map { BrowserItem($0.item) })
        case .warning(let error):
            warning?(error.description)
        case .failed(let error):
            setItems([])
            state = .failed(error)
            folderDidList?([])
        }
    }

    private func showPendingListed() {
        if pendingSource != 0 {
            g_source_remove(pendingSource)
            pendingSource = 0
        }
        guard let items = pendingListed else { return }
        pendingListed = nil
        setItems(items, resetting: true)
    }

    /// An idle source (below GTK's redraw priority) that shows the pending list.
    private func showPendingListedWhenIdle() -> guint {
        MainLoopIdle.run { [weak self] in
            guard let self else { return }
            self.pendingSource = 0
            self.showPendingListed()
        }
    }

    // MARK: Recents, tags, Trash

    /// Runs `work` off the main thread and hands its items to the model, unless the location
    /// changed meanwhile.
    private func list(_ work: @escaping @Sendable () -> [BrowserItem]) {
        let generation = generation
        let order = order
        Task.detached {
            let items = work().sorted(by: order.areInIncreasingOrder)
            await MainActor.run { [weak self] in
                guard let self, self.generation == generation else { return }
                self.setItems(items)
                self.state = .loaded
            }
        }
    }

    private func listRecents() {
        let directories = directories
        let showsHidden = showsHidden
        list {
            let recents = (try? RecentDocuments(directories: directories).items()) ?? []
            return recents.compactMap { recent -> BrowserItem? in
                guard !recent.isMissing, let path = recent.path else { return nil }
                let url = URL(fileURLWithPath: path)
                let folder = displayPath(url.deletingLastPathComponent().path, home: directories.home.path)
                guard var item = BrowserItem(reading: url, location: folder), showsHidden || !item.isHidden else { return nil }
                item.lastUsed = recent.lastUsed
                return item
            }
        }
    }

    private func listTag(_ name: String) {
        let index = TagIndex(folders: [directories.home], store: TagStore(directories: directories), includesHidden: showsHidden)
        tagIndex = index
        let generation = generation
        let home = directories.home.path
        index.start { [weak self] in
            let items = index.files(taggedWith: name).compactMap { url in
                BrowserItem(reading: url, location: displayPath(url.deletingLastPathComponent().path, home: home))
            }
            Task { @MainActor in
                guard let self, self.generation == generation else { return }
                self.setItems(items.sorted(by: self.order.areInIncreasingOrder))
                self.state = .loaded
            }
        }
    }

    private func listTrash(watch: Bool) {
        let trash = trash
        list { trash.contents().items.map { BrowserItem(trashed: $0) } }
        guard watch else { return }
        // The home Trash's info folder changes with every trashing, restoring and emptying.
        try? FileManager.default.createDirectory(at: trash.home.infoURL, withIntermediateDirectories: true)
        let watchQuery = DirectoryQuery(folder: trash.home.infoURL, options: QueryOptions(showsHidden: true))
        trashWatch = watchQuery
        let generation = generation
        watchQuery.start(onMainActor: { [weak self] event in
            guard let self, self.generation == generation, case .changes = event else { return }
            self.listTrash(watch: false)
        })
    }
}

/// How a location's items are ordered: by the browser's sort, or Recents by when they were
/// last used and the Trash by when things were deleted, newest first (folders not first).
enum LocationOrder: Sendable, Equatable {
    case sort(BrowserSort)
    case lastUsed
    case deleted

    func areInIncreasingOrder(_ lhs: BrowserItem, _ rhs: BrowserItem) -> Bool {
        let dates: (Date?, Date?)
        switch self {
        case .sort(let sort): return sort.areInIncreasingOrder(lhs, rhs)
        case .lastUsed: dates = (lhs.lastUsed ?? lhs.modified, rhs.lastUsed ?? rhs.modified)
        case .deleted: dates = (lhs.trashed?.deletionDate ?? lhs.modified, rhs.trashed?.deletionDate ?? rhs.modified)
        }
        let left = dates.0 ?? .distantPast, right = dates.1 ?? .distantPast
        if left != right { return left > right }
        return BrowserSort().areInIncreasingOrder(lhs, rhs)
    }
}
