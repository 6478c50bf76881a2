import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// Archives as a listing: each entry's name (indented under its folder), size and date, read
/// by libarchive in a decoder worker (`ArchiveListing`, DocumentCore). Entries whose path is
/// absolute or climbs with `..` are listed first, flagged, and never extracted.
///
/// Activating a file (double click, Enter) previews it in place: the entry alone is extracted
/// by the worker, written into a private folder in the cache (`ArchiveExtraction`) and shown by
/// a nested preview page, with a Back button (or Backspace) to the listing. In place rather
/// than in a second previewer window: the window's arrows, Open With and Escape keep meaning
/// the archive the user chose, and the extracted copy is deleted when the user goes back or
/// the page goes away.
@MainActor
package final class ArchiveRenderer: PreviewRenderer {
    package nonisolated static let supportedTypes: [DocumentType] = [.archive]

    /// The widget that shows the item.
    package var view: Widget { Widget(gtkWidget: rootView) }
    /// The GtkWidget `view` wraps.
    let rootView: WidgetPointer
    private let listingPage: WidgetPointer
    private let entryPage: WidgetPointer
    private let entryTitle: WidgetPointer
    private let entryContent: WidgetPointer
    private let note: WidgetPointer
    private var listing: ArchiveListing?
    private var virtualTable: VirtualTable?
    private var archivePath: FileSystemPath = ""
    private var isRaw = false
    private var title = ""
    private var nested: PreviewPage?
    private var extraction: Task<Void, Never>?
    private var extractedFolders: [URL] = []

    /// Types that are one compressed file rather than a bundle of entries.
    nonisolated static let compressedFileTypes: Set<String> = [
        "application/gzip", "application/x-bzip", "application/x-bzip2", "application/x-xz", "application/zstd",
        "application/x-lzma", "application/x-lzip", "application/x-compress",
    ]

    /// Makes a renderer that lists an archive's contents.
    package init() {
        note = makeLabel("", classes: ["dim-label", "caption"])
        gtk_label_set_xalign(opaque(note), 0)
        gtk_label_set_wrap(opaque(note), 1)
        gtk_widget_set_margin_start(note, 12)
        gtk_widget_set_margin_end(note, 12)
        gtk_widget_set_margin_top(note, 6)
        gtk_widget_set_margin_bottom(note, 6)
        listingPage = makeBox(GTK_ORIENTATION_VERTICAL, [note])

        let back = gtk_button_new_from_icon_name("go-previous-symbolic")!
        setAccessibleName(back, tr("Back to the archive"))
        gtk_widget_set_tooltip_text(back, tr("Back to the archive"))
        entryTitle = makeLabel("", classes: ["heading"])
        gtk_label_set_ellipsize(opaque(entryTitle), PANGO_ELLIPSIZE_MIDDLE)
        gtk_label_set_xalign(opaque(entryTitle), 0)
        gtk_widget_set_hexpand(entryTitle, 1)
        let toolbar = makeBox(GTK_ORIENTATION_HORIZONTAL, spacing: 8, [back, entryTitle])
        gtk_widget_add_css_class(toolbar, "toolbar")
        entryContent = makeBox(GTK_ORIENTATION_VERTICAL, [])
        gtk_widget_set_vexpand(entryContent, 1)
        entryPage = makeBox(GTK_ORIENTATION_VERTICAL, [toolbar, gtk_separator_new(GTK_ORIENTATION_HORIZONTAL), entryContent])
        gtk_widget_set_visible(entryPage, 0)

        // Pages are shown and hidden rather than stacked, so the accessibility tree holds only
        // the one on screen.
        rootView = dossier_group_box_new(GTK_ORIENTATION_VERTICAL, 0)
        gtk_box_append(cast(rootView), listingPage)
        gtk_box_append(cast(rootView), entryPage)

        connectSignal(raw(back), "clicked") { [weak self] in self?.showListing() }
        let keys = gtk_event_controller_key_new()!
        connectKeyPressed(raw(keys)) { [weak self] key, _ in
            guard let self, key == UInt32(GDK_KEY_BackSpace), gtk_widget_get_visible(self.entryPage) != 0 else { return false }
            self.showListing()
            return true
        }
        gtk_widget_add_controller(rootView, keys)
    }

    isolated deinit {
        extraction?.cancel()
        nested?.cancel()
        for folder in extractedFolders { ArchiveExtraction.remove(folder) }
    }

    /// The archive's entries, listed by a decoder worker.
    struct Prepared: Sendable {
        let listing: Result<ArchiveListing, PreviewError>
    }

    package nonisolated static func prepare(_ preparation: PreviewPreparation) async -> (any Sendable)? {
        let path = preparation.url.rawPath, type = preparation.type
        return Prepared(listing: await blockingWork { read(path, type: type) })
    }

    package func load(_ item: PreviewItem, type: DocumentType) async throws {
        try await load(item, type: type, prepared: nil)
    }

    package func load(_ item: PreviewItem, type: DocumentType, prepared: PreparedPreview?) async throws {
        archivePath = item.url.rawPath
        title = item.displayTitle
        isRaw = Self.compressedFileTypes.contains(type.identifier)
        let read: Result<ArchiveListing, PreviewError>
        if let prepared = await prepared?.value as? Prepared {
            read = prepared.listing
        } else {
            let path = archivePath, raw = isRaw
            read = await blockingWork { ArchiveListing.read(path, raw: raw, cancellation: $0) }.mapError { PreviewError($0.description) }
        }
        let listing = try read.get()
        self.listing = listing
        show(listing)
        setAccessibleName(rootView, tr("Contents of %s", title))
    }

    /// The listing of the archive at `path`, by a decoder worker. Blocking: off the main thread.
    nonisolated static func read(_ path: FileSystemPath, type: DocumentType) -> Result<ArchiveListing, PreviewError> {
        ArchiveListing.read(path, raw: compressedFileTypes.contains(type.identifier)).mapError { PreviewError($0.description) }
    }

    /// True for documents stored as zips (OpenDocument, OOXML), which the office renderer shows.
    nonisolated static func isOfficeDocument(_ type: DocumentType) -> Bool {
        type.conforms(to: .wordProcessing) || type.conforms(to: .spreadsheet) || type.conforms(to: .presentation)
    }

    // MARK: The listing

    private static let dateFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateStyle = .medium
        formatter.timeStyle = .short
        return formatter
    }()

    /// Rows in the listing's model before its first frame: those that fit in `height` pixels
    /// (the window's), at the smallest height a row has, and one more. GTK 4.8's list views
    /// make and bind rows for up to 200 items whatever fits on screen
    /// (`GTK_LIST_VIEW_MAX_LIST_ITEMS`), and a large archive's first showing would wait for all
    /// those rows. The other entries join the model at the second frame.
    static func firstRows(height: Int32) -> Int {
        let smallestRow: Int32 = 24
        return Int(max(height, 240) / smallestRow) + 1
    }

    private func show(_ listing: ArchiveListing) {
        let entries = listing.entries
        let root = gtk_widget_get_root(rootView).map { gtk_widget_get_height(widget($0)) } ?? 0
        let firstRows = Self.firstRows(height: root > 0 ? root : PreviewWindow.defaultSize.height)
        let table = VirtualTable(count: min(entries.count, firstRows))
        virtualTable = table
        table.addColumn(title: tr("Name"), expand: true, setup: {
            let icon = gtk_image_new()!
            let label = makeCellLabel()
            return makeBox(GTK_ORIENTATION_HORIZONTAL, spacing: 8, [icon, label])
        }, bind: { row, position in
            let entry = entries[position]
            let icon = gtk_widget_get_first_child(row)!, label = gtk_widget_get_last_child(row)!
            gtk_widget_set_margin_start(row, Int32(min(entry.depth, 30) * 20))
            gtk_label_set_text(opaque(label), entry.name)
            Self.setIcon(icon, for: entry)
            if entry.isUnsafe {
                gtk_widget_add_css_class(label, "error")
                let warning = tr("Unsafe path, not extracted: %s", entry.path)
                gtk_widget_set_tooltip_text(row, warning)
                setAccessibleName(label, warning)
            } else {
                gtk_widget_remove_css_class(label, "error")
                gtk_widget_set_tooltip_text(row, entry.depth > 0 ? entry.path : nil)
                setAccessibleName(label, entry.name)
            }
        })
        table.addColumn(title: tr("Size"), width: 100, setup: { makeCellLabel(alignment: 1, classes: ["numeric"]) },
                        bind: { label, position in
            let entry = entries[position]
            let text = entry.kind == .file ? entry.size.map(formattedSize) ?? "" : ""
            gtk_label_set_text(opaque(label), text)
        })
        table.addColumn(title: tr("Modified"), width: 180, setup: { makeCellLabel(classes: ["dim-label"]) },
                        bind: { label, position in
            gtk_label_set_text(opaque(label), entries[position].modified.map(Self.dateFormatter.string(from:)) ?? "")
        })
        table.onActivate { [weak self] position in self?.open(position) }
        setAccessibleName(table.columnView, tr("Entries of %s", title))
        gtk_box_prepend(cast(listingPage), table.scrolled)
        if entries.count > firstRows {
            // The first frame's tick comes before its layout: the rest wait for the next one.
            onNextFrame(of: table.columnView) { [weak table] in
                guard let table else { return }
                onNextFrame(of: table.columnView) { [weak table] in table?.positions.grow(to: entries.count) }
            }
        }

        let files = entries.filter { $0.kind != .folder }.count
        var parts = [trn("%d item", "%d items", files)]
        let unsafe = entries.filter(\.isUnsafe).count
        if unsafe > 0 { parts.append(trn("%d entry with an unsafe path is not extracted", "%d entries with unsafe paths are not extracted", unsafe)) }
        if listing.isTruncated { parts.append(tr("only the first %s entries are listed", String(entries.count))) }
        if let damage = listing.damage { parts.append(tr("the archive is damaged: %s", damage)) }
        gtk_label_set_text(opaque(note), parts.joined(separator: " · "))
    }

    /// Entries in the listing's model so far (for tests).
    var listedCount: Int { virtualTable?.positions.count ?? 0 }

    private static func setIcon(_ icon: WidgetPointer, for entry: ArchiveEntry) {
        let image = OpaquePointer(icon)
        if entry.isUnsafe {
            gtk_image_set_from_icon_name(image, "dialog-warning-symbolic")
            return
        }
        switch entry.kind {
        case .folder: gtk_image_set_from_icon_name(image, "folder-symbolic")
        case .link: gtk_image_set_from_icon_name(image, "emblem-symbolic-link-symbolic")
        case .other: gtk_image_set_from_icon_name(image, "text-x-generic-symbolic")
        case .file:
            let type = g_content_type_guess(entry.name, nil, 0, nil)
            let gicon = g_content_type_get_symbolic_icon(type)
            g_free(type)
            gtk_image_set_from_gicon(image, gicon)
            if let gicon { g_object_unref(raw(gicon)) }
        }
    }

    // MARK: Previewing an entry

    private func open(_ position: Int) {
        guard let entries = listing?.entries, position < entries.count else { return }
        let entry = entries[position]
        if entry.kind == .folder { return }
        showEntryPage(entry)
        let spinner = gtk_spinner_new()!
        gtk_spinner_start(cast(spinner))
        gtk_widget_set_size_request(spinner, 32, 32)
        gtk_widget_set_valign(spinner, GTK_ALIGN_CENTER)
        gtk_widget_set_vexpand(spinner, 1)
        setAccessibleName(spinner, tr("Extracting"))
        setEntryContent(spinner)
        let path = archivePath, raw = isRaw
        extraction?.cancel()
        extraction = Task { @MainActor [weak self] in
            let task = Task.detached { () -> Result<URL, ArchiveError> in
                do throws(ArchiveError) { return .success(try ArchiveExtraction.extract(entry, from: path, raw: raw)) } catch {
                    return .failure(error)
                }
            }
            let result = await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
            guard let self else {
                if case .success(let file) = result { ArchiveExtraction.remove(file.deletingLastPathComponent()) }
                return
            }
            if Task.isCancelled {
                if case .success(let file) = result { ArchiveExtraction.remove(file.deletingLastPathComponent()) }
                return
            }
            switch result {
            case .success(let file):
                self.extractedFolders.append(file.deletingLastPathComponent())
                let page = PreviewPage(item: PreviewItem(url: file, title: entry.name))
                self.nested = page
                self.setEntryContent(page.view)
                page.start()
            case .failure(let error):
                self.showRefusal(entry, reason: error.description)
            }
        }
    }

    private func showEntryPage(_ entry: ArchiveEntry) {
        gtk_label_set_text(opaque(entryTitle), entry.path)
        gtk_widget_set_visible(listingPage, 0)
        gtk_widget_set_visible(entryPage, 1)
    }

    private func setEntryContent(_ content: WidgetPointer) {
        while let child = gtk_widget_get_first_child(entryContent) { gtk_box_remove(cast(entryContent), child) }
        gtk_widget_set_vexpand(content, 1)
        gtk_box_append(cast(entryContent), content)
    }

    private func showRefusal(_ entry: ArchiveEntry, reason: String) {
        let page = dossier_status_page_new()!
        adw_status_page_set_icon_name(OpaquePointer(page), entry.isUnsafe ? "dialog-warning-symbolic" : "action-unavailable-symbolic")
        adw_status_page_set_title(OpaquePointer(page), tr("“%s” is not shown", entry.name))
        adw_status_page_set_description(OpaquePointer(page), reason)
        setAccessibleName(page, tr("Not extracted: %s", reason))
        setEntryContent(page)
    }

    private func showListing() {
        extraction?.cancel()
        extraction = nil
        nested?.cancel()
        nested = nil
        setEntryContent(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))
        for folder in extractedFolders { ArchiveExtraction.remove(folder) }
        extractedFolders.removeAll()
        gtk_widget_set_visible(entryPage, 0)
        gtk_widget_set_visible(listingPage, 1)
        if let columnView = virtualTable?.columnView { gtk_widget_grab_focus(columnView) }
    }

    package func copy() -> Bool {
        if let renderer = nested?.renderer, gtk_widget_get_visible(entryPage) != 0 { return renderer.copy() }
        guard let position = virtualTable?.selectedPosition, let entry = listing?.entries[position] else { return false }
        gdk_clipboard_set_text(gtk_widget_get_clipboard(rootView), entry.path)
        return true
    }

    package func zoom(_ change: ZoomChange) {
        if gtk_widget_get_visible(entryPage) != 0 { nested?.renderer?.zoom(change) }
    }
}
