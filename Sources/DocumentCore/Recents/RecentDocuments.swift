import CGLib
import Foundation
import GObjectSupport

/// The documents opened, created or edited recently, shared with the desktop: entries live
/// in `$XDG_DATA_HOME/recently-used.xbel` (GNOME Files' Recent and every GTK file chooser read
/// it), written through GLib's GBookmarkFile so other programs' entries stay as they were.
/// Dossier also keeps a `Bookmark` for each entry it records (`RecentBookmarks`), so an entry
/// whose document was moved is pointed at its new place, and one that is gone is listed as
/// missing.
///
/// Every method reads and writes files: call them off the main thread. Calls from several
/// threads, or several Dossier processes, take turns (a coordinated write on the XBEL file).
public final class RecentDocuments: @unchecked Sendable {
    // @unchecked: the two files in memory (`state`) are only touched under `lock`, the
    // tracker under `trackerLock` (never taken while waiting for `lock`).
    /// What happened to a document being recorded.
    public enum Use: Sendable {
        /// Opened or previewed: sets the visited date.
        case opened
        /// Created: sets the modified date.
        case created
        /// Saved with changes: sets the modified date.
        case edited
    }

    /// The name Dossier registers its entries under, and the command line to open one.
    public static let applicationName = "Dossier"
    /// The command line registered with each entry (GLib stores it shell-quoted).
    public static let applicationExec = "dossier %u"

    /// The XBEL file (`$XDG_DATA_HOME/recently-used.xbel` by default).
    public let xbelURL: URL
    /// Dossier's bookmarks for its entries (`$XDG_DATA_HOME/dossier/recents.json`).
    public let bookmarksURL: URL
    /// How many entries Dossier keeps of its own; beyond it, the oldest it recorded are dropped
    /// (other programs' entries are never dropped for this).
    public let limit: Int
    /// How long finding one moved document may take while listing.
    public let resolveBudget: Duration
    /// How long finding all moved documents of one listing may take together.
    public let listingBudget: Duration
    private let directories: UserDirectories

    private final class State {
        let xbel: RecentlyUsedFile
        let bookmarks: RecentBookmarks
        init(xbel: URL, bookmarks: URL) {
            self.xbel = RecentlyUsedFile(url: xbel)
            self.bookmarks = RecentBookmarks(url: bookmarks)
        }
    }

    private let lock = NSLock()
    private let state: State
    private let trackerLock = NSLock()
    private var tracker: BookmarkTracker?

    /// A list over the files of `directories` (the process's XDG folders by default).
    /// - Parameters:
    ///   - directories: the XDG folders whose `recently-used.xbel` is read and written.
    ///   - limit: how many entries of its own Dossier keeps (500 by default).
    ///   - resolveBudget: the search budget for one moved document while listing.
    ///   - listingBudget: the search budget for all moved documents of one listing.
    public init(directories: UserDirectories = UserDirectories(), limit: Int = 500,
                resolveBudget: Duration = .milliseconds(200), listingBudget: Duration = .seconds(1)) {
        self.directories = directories
        xbelURL = directories.dataHome.appendingPathComponent("recently-used.xbel")
        bookmarksURL = directories.dossierData.appendingPathComponent("recents.json")
        self.limit = max(limit, 1)
        self.resolveBudget = resolveBudget
        self.listingBudget = listingBudget
        state = State(xbel: xbelURL, bookmarks: bookmarksURL)
    }

    // MARK: Recording

    /// Records one use of the document at `url`: registers it in the XBEL under "Dossier"
    /// (`dossier %u`) with its MIME type (detected when not given) and the date, and keeps a
    /// bookmark to it. Drops Dossier's oldest entries beyond `limit`.
    /// - Throws: `RecentsError.cannotRecord` when a local file is missing; `.unreadable`,
    ///   `.unwritable` or `.busy` for the list itself.
    public func record(_ url: URL, as use: Use = .opened, mimeType: String? = nil) throws(RecentsError) {
        try record([url], as: use, mimeType: mimeType)
    }

    /// Records several documents at once, with one write of each file.
    public func record(_ urls: [URL], as use: Use = .opened, mimeType: String? = nil) throws(RecentsError) {
        var entries: [(uri: String, mimeType: String, bookmark: Bookmark?)] = []
        let volumes = VolumeTable()
        for url in urls {
            guard url.isFileURL else {
                entries.append((url.absoluteString, mimeType ?? "application/octet-stream", nil))
                continue
            }
            let bookmark: Bookmark
            do {
                bookmark = try Bookmark(url: url, volumes: volumes)
            } catch {
                throw .cannotRecord(name: url.lastPathComponent, reason: error.description)
            }
            let type = mimeType ?? (try? DocumentType(contentsOf: bookmark.path))?.identifier ?? "application/octet-stream"
            entries.append((Self.uri(forPath: bookmark.path), type, bookmark))
        }
        let now = Date()
        try change { xbel, bookmarks in
            for entry in entries {
                xbel.record(entry.uri, mimeType: entry.mimeType, application: Self.applicationName, exec: Self.applicationExec,
                            visited: use == .opened, modified: use != .opened, at: now)
                if let bookmark = entry.bookmark { bookmarks[entry.uri] = bookmark }
            }
            trim(xbel, bookmarks)
        }
        if let tracker = trackerLock.withLock({ tracker }) {
            for entry in entries { if let bookmark = entry.bookmark { tracker.track(bookmark, as: entry.uri) } }
        }
    }

    // MARK: Following moves

    /// Follows Dossier's entries while this process runs: a document renamed or moved (by
    /// Dossier or another program) has its XBEL entry and bookmark updated at once, instead of
    /// at the next listing. Costs one presenter (and one inotify watch per folder) per entry.
    public func startTracking() throws(RecentsError) {
        let options = Bookmark.ResolveOptions(budget: resolveBudget, userDirectories: directories)
        let tracker = BookmarkTracker(options: options) { [weak self] event in self?.trackedItemChanged(event) }
        let bookmarks = try change { _, bookmarks in bookmarks.bookmarks }
        trackerLock.withLock { self.tracker = tracker }
        for (uri, bookmark) in bookmarks { tracker.track(bookmark, as: uri) }
    }

    /// Stops following moves.
    public func stopTracking() {
        trackerLock.withLock { tracker = nil }
    }

    private func trackedItemChanged(_ event: BookmarkTracker.Event) {
        switch event {
        case .moved(let uri, _, let bookmark):
            let newURI = Self.uri(forPath: bookmark.path)
            try? change { xbel, bookmarks in
                if xbel.contains(uri) { xbel.move(uri, to: newURI) }
                bookmarks[uri] = nil
                bookmarks[newURI] = bookmark
            }
            if let tracker = trackerLock.withLock({ tracker }), newURI != uri {
                tracker.stopTracking(uri)
                tracker.track(bookmark, as: newURI)
            }
        case .replaced(let uri, let bookmark):
            try? change { _, bookmarks in bookmarks[uri] = bookmark }
        case .missing:
            break  // listed as missing until removed
        }
    }

    // MARK: Listing

    /// Every entry of the XBEL (Dossier's and other programs', except those another program
    /// marked private), newest first. Entries whose document moved are pointed at its new
    /// place (the XBEL is updated; other programs' entries too, once Dossier has listed them
    /// and kept a bookmark); entries whose local file is gone come back with `isMissing` set.
    public func items() throws(RecentsError) -> [RecentItem] {
        let deadline = ContinuousClock.now + listingBudget
        return try change { xbel, bookmarks in
            var items: [RecentItem] = []
            for uri in xbel.uris {
                let registrations = xbel.registrations(uri)
                let ours = registrations.contains { $0.name == Self.applicationName }
                if xbel.isPrivate(uri) && !ours { continue }
                var current = uri
                var missing = false
                var path = Self.path(forURI: uri)
                if let local = path {
                    if let bookmark = bookmarks[uri] {
                        switch locate(bookmark, deadline: deadline) {
                        case .some(let found) where found.path != local:
                            current = Self.uri(forPath: found.path)
                            xbel.move(uri, to: current)
                            bookmarks[uri] = nil
                            bookmarks[current] = found.bookmark
                            path = found.path
                        case .some(let found):
                            bookmarks[uri] = found.bookmark
                        case .none:
                            missing = true
                        }
                    } else if FileIdentity(path: local, followingLinks: true) != nil {
                        // Another program's entry (or one whose bookmark was lost): bookmark it
                        // now, so the next listing can follow it if it moves.
                        bookmarks[uri] = try? Bookmark(url: URL(fileURLWithPath: local))
                    } else {
                        missing = true
                    }
                }
                let name = xbel.title(current) ?? path.map { ($0 as NSString).lastPathComponent }
                    ?? (URL(string: current)?.lastPathComponent ?? current)
                items.append(RecentItem(
                    uri: current, path: path, name: name, mimeType: xbel.mimeType(current), added: xbel.added(current),
                    modified: xbel.modified(current), visited: xbel.visited(current),
                    applications: registrations.map(\.name), isRecordedByDossier: ours, isMissing: missing))
            }
            return items.sorted { ($0.lastUsed ?? .distantPast) > ($1.lastUsed ?? .distantPast) }
        }
    }

    /// The folders of recent local documents, most recent first, without searching for moved
    /// ones: where a moved file is likely to be (`Bookmark.ResolveOptions.hintFolders`).
    /// Empty when the list cannot be read.
    public var recentFolders: [URL] {
        let entries: [(path: String, date: Date)] = (try? change { xbel, _ in
            xbel.uris.compactMap { uri in
                Self.path(forURI: uri).map { ($0, [xbel.visited(uri), xbel.modified(uri)].compactMap { $0 }.max() ?? .distantPast) }
            }
        }) ?? []
        var seen: Set<String> = []
        return entries.sorted { $0.date > $1.date }.compactMap { entry in
            let folder = (entry.path as NSString).deletingLastPathComponent
            return seen.insert(folder).inserted ? URL(fileURLWithPath: folder, isDirectory: true) : nil
        }
    }

    // MARK: Removing

    /// Removes the entry for `uri` (or a local path) from the list, whoever recorded it.
    public func remove(_ location: String) throws(RecentsError) {
        var uri = location
        if location.hasPrefix("/") {
            // Entries are recorded with symbolic links resolved.
            let resolved = realpath(location, nil)
            defer { free(resolved) }
            uri = Self.uri(forPath: resolved.map { String(cString: $0) } ?? location)
        }
        try change { xbel, bookmarks in
            xbel.remove(uri)
            bookmarks[uri] = nil
        }
    }

    /// Empties the list entirely, other programs' entries included, as GNOME's "Clear
    /// History" does: the history is the desktop's, not Dossier's alone.
    public func clear() throws(RecentsError) {
        try change { xbel, bookmarks in
            xbel.removeAll()
            bookmarks.removeAll()
        }
    }

    // MARK: Steps

    /// Where a recorded document is now, with a fresh bookmark when it moved or was replaced.
    private func locate(_ bookmark: Bookmark, deadline: ContinuousClock.Instant) -> (path: String, bookmark: Bookmark)? {
        let left = deadline - ContinuousClock.now
        var options = Bookmark.ResolveOptions(budget: min(resolveBudget, max(left, .zero)), userDirectories: directories)
        options.hintFolders = []
        guard let resolution = try? bookmark.resolve(options: options) else { return nil }
        guard resolution.isStale else { return (resolution.path, bookmark) }
        return (resolution.path, (try? Bookmark(url: resolution.url)) ?? bookmark)
    }

    /// Drops Dossier's oldest entries beyond the limit.
    private func trim(_ xbel: RecentlyUsedFile, _ bookmarks: RecentBookmarks) {
        let ours = xbel.uris.compactMap { uri in
            xbel.registration(uri, Self.applicationName).map { (uri: uri, stamp: $0.stamp ?? .distantPast) }
        }
        guard ours.count > limit else { return }
        for entry in ours.sorted(by: { $0.stamp < $1.stamp }).prefix(ours.count - limit) {
            xbel.removeRegistration(entry.uri, application: Self.applicationName)
            bookmarks[entry.uri] = nil
        }
    }

    /// Runs `body` on fresh copies of both files under a coordinated write of the XBEL file,
    /// then saves what changed.
    private func change<T>(_ body: (RecentlyUsedFile, RecentBookmarks) throws(RecentsError) -> T) throws(RecentsError) -> T {
        do {
            return try lock.withLock {
                try FileCoordinator().coordinate(writingItemAt: xbelURL, timeout: .seconds(10)) { _ in
                    try state.xbel.refresh()
                    try state.bookmarks.refresh()
                    let result = try body(state.xbel, state.bookmarks)
                    try state.xbel.save()
                    try state.bookmarks.save()
                    return result
                }
            }
        } catch let error as RecentsError {
            throw error
        } catch is CoordinationError {
            throw .busy(path: xbelURL.path)
        } catch {
            throw .unwritable(path: xbelURL.path, reason: "\(error)")
        }
    }

    static func uri(forPath path: String) -> String {
        takeString(g_filename_to_uri(path, nil, nil)) ?? URL(fileURLWithPath: path).absoluteString
    }

    static func path(forURI uri: String) -> String? {
        guard uri.hasPrefix("file:") else { return nil }
        return takeString(g_filename_from_uri(uri, nil, nil))
    }
}
