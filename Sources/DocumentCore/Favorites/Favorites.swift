import CGLib
import Foundation
import GObjectSupport

/// The user's favorite places: GTK's bookmarks file, `$XDG_CONFIG_HOME/gtk-3.0/bookmarks`,
/// the same list GNOME Files and GTK file choosers show. Read and written in place of theirs:
/// lines Dossier does not understand and every label are kept; writes are atomic
/// (`SafeSave`) and start from what is on disk, so another program's change is not undone.
///
/// `startWatching()` follows changes other programs make (a presenter on the file) and tells
/// observers, as it does for Dossier's own changes. Methods touch the disk: call them off the
/// main thread.
public final class Favorites: @unchecked Sendable {
    // @unchecked: `contents`, `onDisk` and `presenter` are only touched under `lock`.
    /// The bookmarks file read and written (`$XDG_CONFIG_HOME/gtk-3.0/bookmarks` by default).
    public let fileURL: URL

    private let lock = NSLock()
    private var contents = BookmarksFileContents(text: "")
    private var onDisk: FileState?
    private var loaded = false
    private var presenter: BookmarksFilePresenter?
    private let observers = Observers<[Favorite]>()

    /// The favorites of `directories` (the process's XDG folders by default).
    public convenience init(directories: UserDirectories = UserDirectories()) {
        self.init(fileURL: directories.configHome.appendingPathComponent("gtk-3.0/bookmarks"))
    }

    /// The favorites in the bookmarks file at `fileURL`.
    public init(fileURL: URL) {
        self.fileURL = fileURL
    }

    deinit { stopWatching() }

    // MARK: Reading

    /// The favorites in order, read again if the file changed since.
    /// - Throws: `FavoritesError.unreadable`.
    public func items() throws(FavoritesError) -> [Favorite] {
        lock.lock()
        defer { lock.unlock() }
        try refresh()
        return contents.favorites
    }

    // MARK: Changing

    /// Adds a favorite for `location` (a URI, or an absolute path), at `index` among the
    /// favorites or at the end.
    /// - Throws: `.alreadyFavorite` when it is one, `.invalidLocation`, `.unwritable`.
    public func add(_ location: String, label: String? = nil, at index: Int? = nil) throws(FavoritesError) {
        let uri = try Self.uri(for: location)
        try change { contents throws(FavoritesError) in
            guard contents.lineIndex(of: uri) == nil else {
                throw .alreadyFavorite(name: Favorite(uri: uri, label: label).displayName)
            }
            let line = BookmarksFileContents.Line.favorite(Favorite(uri: uri, label: label))
            let favorites = contents.favorites
            if let index, index < favorites.count, let position = contents.lineIndex(of: favorites[max(index, 0)].uri) {
                contents.lines.insert(line, at: position)
            } else {
                contents.lines.append(line)
            }
        }
    }

    /// Removes the favorite for `location` (a URI or an absolute path).
    public func remove(_ location: String) throws(FavoritesError) {
        let uri = try Self.uri(for: location)
        try change { contents throws(FavoritesError) in
            guard let position = contents.lineIndex(of: uri) else { throw .notFavorite(name: Favorite(uri: uri).displayName) }
            contents.lines.remove(at: position)
        }
    }

    /// Gives the favorite for `location` a new label (nil or empty: none, show the name).
    public func rename(_ location: String, to label: String?) throws(FavoritesError) {
        let uri = try Self.uri(for: location)
        try change { contents throws(FavoritesError) in
            guard let position = contents.lineIndex(of: uri) else { throw .notFavorite(name: Favorite(uri: uri).displayName) }
            contents.lines[position] = .favorite(Favorite(uri: uri, label: label))
        }
    }

    /// Moves the favorite for `location` to `index` among the favorites (clamped to the list);
    /// other lines stay where they are.
    public func move(_ location: String, to index: Int) throws(FavoritesError) {
        let uri = try Self.uri(for: location)
        try change { contents throws(FavoritesError) in
            guard let position = contents.lineIndex(of: uri) else { throw .notFavorite(name: Favorite(uri: uri).displayName) }
            let line = contents.lines.remove(at: position)
            let others = contents.favorites
            let target = min(max(index, 0), others.count)
            if target < others.count, let before = contents.lineIndex(of: others[target].uri) {
                contents.lines.insert(line, at: before)
            } else if let last = others.last, let after = contents.lineIndex(of: last.uri) {
                contents.lines.insert(line, at: after + 1)
            } else {
                contents.lines.insert(line, at: min(position, contents.lines.count))
            }
        }
    }

    // MARK: Watching

    /// Calls `handler` with the new list whenever it changes, through Dossier or another
    /// program (the latter only while watching), while the token lives.
    public func addObserver(_ handler: @escaping @Sendable ([Favorite]) -> Void) -> ObservationToken {
        observers.add(handler)
    }

    /// Starts following changes other programs make to the file (creating its folder, so
    /// there is something to watch).
    public func startWatching() {
        lock.withLock {
            guard presenter == nil else { return }
            g_mkdir_with_parents(fileURL.deletingLastPathComponent().path, 0o700)
            let presenter = BookmarksFilePresenter(url: fileURL) { [weak self] in self?.fileChanged() }
            self.presenter = presenter
            FileCoordinator.addFilePresenter(presenter)
            try? refresh()
        }
    }

    /// Stops following other programs' changes (Dossier's own still reach observers).
    public func stopWatching() {
        let presenter = lock.withLock { () -> BookmarksFilePresenter? in
            defer { self.presenter = nil }
            return self.presenter
        }
        if let presenter { FileCoordinator.removeFilePresenter(presenter) }
    }

    private func fileChanged() {
        let changed = lock.withLock { () -> [Favorite]? in
            let before = contents
            guard (try? refresh()) != nil, contents != before else { return nil }
            return contents.favorites
        }
        if let changed { observers.notify(changed) }
    }

    // MARK: Steps

    private func refresh() throws(FavoritesError) {
        let state = FileState(path: fileURL.path)
        guard !loaded || state != onDisk else { return }
        guard state != nil else {
            contents = BookmarksFileContents(text: "")
            onDisk = nil
            loaded = true
            return
        }
        do {
            let data = try Data(contentsOf: fileURL)
            contents = BookmarksFileContents(text: String(decoding: data, as: UTF8.self))
        } catch {
            throw .unreadable(path: fileURL.path, reason: error.localizedDescription)
        }
        onDisk = state
        loaded = true
    }

    /// Applies `edit` to what is on disk now and writes the result, under a coordinated write
    /// that our own presenter does not hear of; then tells observers.
    private func change(_ edit: (inout BookmarksFileContents) throws(FavoritesError) -> Void) throws(FavoritesError) {
        lock.lock()
        let favorites: [Favorite]
        do {
            defer { lock.unlock() }
            var failure: FavoritesError?
            do {
                try FileCoordinator(filePresenter: presenter).coordinate(writingItemAt: fileURL, timeout: .seconds(10)) { url in
                    do {
                        loaded = false
                        try refresh()
                        var edited = contents
                        try edit(&edited)
                        guard edited != contents else { return }
                        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                        try SafeSave.write(Data(edited.text.utf8), to: url)
                        contents = edited
                        onDisk = FileState(path: url.path)
                    } catch let error as FavoritesError {
                        failure = error
                    }
                }
            } catch {
                throw FavoritesError.unwritable(path: fileURL.path, reason: "\(error)")
            }
            if let failure { throw failure }
            favorites = contents.favorites
        }
        observers.notify(favorites)
    }

    /// A URI as is; an absolute path as a `file://` URI.
    private static func uri(for location: String) throws(FavoritesError) -> String {
        if location.hasPrefix("/") {
            return takeString(g_filename_to_uri(location, nil, nil)) ?? URL(fileURLWithPath: location).absoluteString
        }
        guard takeString(g_uri_parse_scheme(location)) != nil, !location.contains(" ") else {
            throw .invalidLocation(location: location)
        }
        return location
    }
}

/// Presents the bookmarks file so that changes by other programs reach `Favorites`.
private final class BookmarksFilePresenter: FilePresenter, @unchecked Sendable {
    // @unchecked: immutable after init.
    let url: URL
    let onChange: @Sendable () -> Void
    let presentedItemOperationQueue = DispatchQueue(label: "dossier.favorites")

    init(url: URL, onChange: @escaping @Sendable () -> Void) {
        self.url = url
        self.onChange = onChange
    }

    var presentedItemURL: URL? { url }

    func presentedItemDidChange() { onChange() }
    func presentedItemWasDeleted() { onChange() }

    /// The file was renamed away: keep watching its path, where GTK will look for it.
    func presentedItem(didMoveTo url: URL) {
        FileCoordinator.removeFilePresenter(self)
        FileCoordinator.addFilePresenter(self)
        onChange()
    }
}
