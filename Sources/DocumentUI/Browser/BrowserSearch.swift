import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// The search bar and the search behind it: typing filters the folder at once (the model's
/// filter), and a recursive `DirectoryQuery` looks through the subfolders in the background;
/// its results stream in as it finds them. Each new text stops the search before it.
@MainActor
final class BrowserSearch {
    let bar: WidgetPointer
    let entry: WidgetPointer
    private let spinner: WidgetPointer
    private let subfolders = SubfolderSearch()
    /// Called with the text as the user types (already debounced by the entry).
    var textDidChange: ((String) -> Void)?
    /// Called when the bar opens or closes.
    var activeDidChange: ((Bool) -> Void)?

    init() {
        entry = gtk_search_entry_new()!
        gtk_widget_set_hexpand(entry, 1)
        dossier_set_string(raw(entry), "placeholder-text", tr("Search this folder and its subfolders"))
        setAccessibleName(entry, tr("Search"))
        spinner = gtk_spinner_new()!
        setAccessibleName(spinner, tr("Searching"))
        let box = makeBox(GTK_ORIENTATION_HORIZONTAL, spacing: 6, [entry, spinner])
        let clamp = adw_clamp_new()!
        adw_clamp_set_maximum_size(OpaquePointer(clamp), 520)
        adw_clamp_set_child(OpaquePointer(clamp), box)
        bar = gtk_search_bar_new()!
        gtk_search_bar_set_child(cast(bar), clamp)
        gtk_search_bar_connect_entry(cast(bar), cast(entry))
        gtk_search_bar_set_show_close_button(cast(bar), 0)
        connectSignal(raw(entry), "search-changed") { [weak self] in
            guard let self else { return }
            self.textDidChange?(self.text)
        }
        connectSignal(raw(bar), "notify::search-mode-enabled") { [weak self] (_: UnsafeMutableRawPointer?) in
            guard let self else { return }
            if !self.isActive { gtk_editable_set_text(cast(self.entry), "") }
            self.activeDidChange?(self.isActive)
        }
    }

    var text: String { borrowString(gtk_editable_get_text(cast(entry))) ?? "" }

    var isActive: Bool {
        get { gtk_search_bar_get_search_mode(cast(bar)) != 0 }
        set { gtk_search_bar_set_search_mode(cast(bar), newValue ? 1 : 0) }
    }

    /// Typing anywhere in `widget` opens the bar and types into it.
    func captureKeys(from widget: WidgetPointer) {
        gtk_search_bar_set_key_capture_widget(cast(bar), widget)
    }

    /// Searches `folder`'s subfolders for names containing `text`; `results` gets everything
    /// found so far each time more comes in, then once more with `finished` set.
    func searchSubfolders(of folder: URL, for text: String, showsHidden: Bool,
                          results: @escaping @MainActor (_ items: [BrowserItem], _ finished: Bool) -> Void) {
        gtk_spinner_stop(cast(spinner))
        guard !text.isEmpty else { return subfolders.cancel() }
        gtk_spinner_start(cast(spinner))
        subfolders.start(in: folder, for: text, showsHidden: showsHidden) { [weak self] items, finished in
            if finished, let self { gtk_spinner_stop(cast(self.spinner)) }
            results(items, finished)
        }
    }

    /// Stops the search under way, if any: nothing more of it arrives.
    func cancel() {
        subfolders.cancel()
        gtk_spinner_stop(cast(spinner))
    }

    /// Stops the search without touching the widgets (they may be gone).
    func stopWork() { subfolders.cancel() }

    /// True while a subfolder search runs.
    var isSearching: Bool { subfolders.isRunning }
}

/// A search through a folder and its subfolders for names containing a text: a recursive
/// `DirectoryQuery` in the background whose results stream in. Starting another search, or
/// cancelling, stops the one before: none of its results arrive after that.
@MainActor
final class SubfolderSearch {
    /// The running search's query (read by tests, to wait until a stopped one is done).
    private(set) var query: DirectoryQuery?
    private var generation = 0

    init() {}

    /// True while a search runs.
    var isRunning: Bool { query != nil }

    func start(in folder: URL, for text: String, showsHidden: Bool,
               results: @escaping @MainActor (_ items: [BrowserItem], _ finished: Bool) -> Void) {
        cancel()
        guard !text.isEmpty else { return }
        let generation = generation
        let query = DirectoryQuery(folder: folder, options: QueryOptions(
            showsHidden: showsHidden, recursive: true, predicate: QueryPredicate(nameContains: text), observesChanges: false))
        self.query = query
        var found: [BrowserItem] = []
        query.start(onMainActor: { [weak self] event in
            guard let self, self.generation == generation else { return }
            switch event {
            case .batch(let items):
                found += items.map { BrowserItem($0, showingFolder: true) }
                results(found, false)
            case .reload(let items, _):
                self.query = nil
                results(items.map { BrowserItem($0, showingFolder: true) }, true)
            case .failed:
                self.query = nil
                results(found, true)
            case .changes, .warning:
                break
            }
        })
    }

    func cancel() {
        generation += 1
        query?.stop()
        query = nil
    }
}
