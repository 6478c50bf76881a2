import CGLib
import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// What every sidebar of the process shows, gathered once and kept current: the places, the
/// mounted volumes, the favorites (GTK's bookmarks file, watched), the tags in use (scanned in
/// the background) and whether the Trash is full (its folder watched).
@MainActor
final class SidebarSources {
    static let shared = SidebarSources()

    let directories = UserDirectories()
    let favorites: Favorites
    private(set) var places: [SidebarItem] = []
    private(set) var favoriteItems: [Favorite] = []
    private(set) var tags: [String] = []
    private(set) var trashIsFull = false
    let volumes = SidebarVolumes()

    private struct Listener {
        weak var owner: AnyObject?
        let handler: () -> Void
    }

    private var listeners: [Listener] = []

    private struct RemovalListener {
        weak var owner: AnyObject?
        let handler: (URL) -> Void
    }

    private var removalListeners: [RemovalListener] = []
    private var favoritesToken: ObservationToken?
    private var trashMonitor: ObjectReference?
    private var tagScan: Task<Void, Never>?
    private var lastTagScan: Date?

    private init() {
        favorites = Favorites(directories: directories)
        places = SidebarItem.places(directories: directories)
        volumes.didChange = { [weak self] in self?.notify() }
        volumes.didRemove = { [weak self] root in
            guard let self else { return }
            self.removalListeners.removeAll { $0.owner == nil }
            for listener in self.removalListeners { listener.handler(root) }
        }
        favoritesToken = favorites.addObserver { list in
            Task { @MainActor in SidebarSources.shared.favoritesChanged(list) }
        }
        let favorites = favorites
        Task { @MainActor in
            let list = await Task.detached { () -> [Favorite] in
                favorites.startWatching()
                return (try? favorites.items()) ?? []
            }.value
            self.favoritesChanged(list)
        }
        watchTrash()
        refreshTags()
    }

    /// Calls `handler` after every change while `owner` lives.
    func addListener(owner: AnyObject, _ handler: @escaping () -> Void) {
        listeners.append(Listener(owner: owner, handler: handler))
    }

    /// Calls `handler` with the root of every mount that goes away while `owner` lives.
    func addRemovalListener(owner: AnyObject, _ handler: @escaping (URL) -> Void) {
        removalListeners.append(RemovalListener(owner: owner, handler: handler))
    }

    private func notify() {
        listeners.removeAll { $0.owner == nil }
        for listener in listeners { listener.handler() }
    }

    private func favoritesChanged(_ list: [Favorite]) {
        guard list != favoriteItems else { return }
        favoriteItems = list
        notify()
    }

    // MARK: Tags

    /// Scans the home folder for tags in use, in the background; at most once a minute.
    func refreshTags() {
        if let lastTagScan, Date().timeIntervalSince(lastTagScan) < 60 { return }
        lastTagScan = Date()
        let home = directories.home
        tagScan?.cancel()
        tagScan = Task { @MainActor in
            let found = await Task.detached(priority: .utility) { () -> [String] in
                let index = TagIndex(folders: [home])
                index.scan()
                return index.tagCounts.keys.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
            }.value
            guard !Task.isCancelled, found != self.tags else { return }
            self.tags = found
            self.notify()
        }
    }

    // MARK: Trash

    /// Watches the home trash's `files` folder; the other trashes are looked at on each change.
    private func watchTrash() {
        let trash = Trash()
        let files = g_file_new_for_path(trash.home.filesURL.path)
        defer { unref(files) }
        if let monitor = g_file_monitor_directory(files, GFileMonitorFlags(rawValue: DOSSIER_G_FILE_MONITOR_WATCH_MOVES), nil, nil) {
            trashMonitor = ObjectReference(adopting: raw(monitor))
            connectFileMonitorChanged(raw(monitor)) { [weak self] in self?.checkTrash() }
        }
        checkTrash()
    }

    private func checkTrash() {
        Task { @MainActor in
            let full = await Task.detached(priority: .utility) { () -> Bool in
                Trash().trashDirectories().contains { trash in
                    guard let names = try? FileManager.default.contentsOfDirectory(atPath: trash.filesURL.path) else { return false }
                    return !names.isEmpty
                }
            }.value
            guard full != self.trashIsFull else { return }
            self.trashIsFull = full
            self.notify()
        }
    }
}
