import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// Markdown, formatted: headings, paragraphs, lists, emphasis, code, links, images next to the
/// file, quotes, rules and tables, in a readable column. A Source button in the renderer's own
/// toolbar switches to the file's text, highlighted, in a GtkSourceView. The first megabyte is
/// parsed off the main thread; a note says when the file is longer. The page is ready once a
/// screenful of blocks is built; the rest follow in idle steps, and only the groups of blocks
/// near the visible part are in the column, laid out and drawn (`MarkdownColumn`).
@MainActor
package final class MarkdownRenderer: PreviewRenderer {
    package nonisolated static let supportedTypes: [DocumentType] = [.markdown]

    /// The widget that shows the item.
    package var view: Widget { Widget(gtkWidget: rootView) }
    /// The GtkWidget `view` wraps.
    let rootView: WidgetPointer
    /// Called with a link's address when the user clicks it. When nil, the link opens in the
    /// user's default application for it; the previewer can route links to its delegate here.
    package var linkHandler: ((URL) -> Void)?

    package func setLinkHandler(_ handler: @escaping @MainActor (URL) -> Void) { linkHandler = handler }

    private let rendered: WidgetPointer
    private let clamp: OpaquePointer
    private let sourceScrolled: WidgetPointer
    private let source: WidgetPointer
    private let toggle: WidgetPointer
    private let note: WidgetPointer
    private var title = ""
    /// The formatted blocks, built a screenful first and the rest in idle steps.
    private(set) var column: MarkdownColumn?
    /// The text the source view gets when first shown: putting a large file's highlighted
    /// Markdown into it would hold the main thread before the first frame, for a view seldom seen.
    private var pendingSource: String?

    /// Link schemes a click may open; anything else (`javascript:`, `data:`…) is ignored.
    nonisolated static let openableSchemes: Set<String> = ["http", "https", "mailto", "ftp", "file"]

    /// Makes a renderer that shows a Markdown text formatted.
    package init() {
        note = makeLabel("", classes: ["dim-label", "caption"])
        gtk_label_set_xalign(opaque(note), 0)
        gtk_widget_set_hexpand(note, 1)
        toggle = gtk_toggle_button_new_with_label(tr("Source"))
        setAccessibleName(toggle, tr("Show source"))
        gtk_widget_set_tooltip_text(toggle, tr("Show the Markdown source"))
        let toolbar = makeBox(GTK_ORIENTATION_HORIZONTAL, spacing: 6, [note, toggle])
        gtk_widget_add_css_class(toolbar, "toolbar")

        clamp = OpaquePointer(adw_clamp_new())
        adw_clamp_set_maximum_size(clamp, Int32(MarkdownWidgets.columnWidth))
        adw_clamp_set_tightening_threshold(clamp, 600)
        gtk_widget_set_margin_top(widget(clamp), 12)
        gtk_widget_set_margin_bottom(widget(clamp), 24)
        gtk_widget_set_margin_start(widget(clamp), 24)
        gtk_widget_set_margin_end(widget(clamp), 24)
        rendered = gtk_scrolled_window_new()
        gtk_scrolled_window_set_child(cast(rendered), widget(clamp))
        gtk_scrolled_window_set_policy(cast(rendered), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_widget_set_vexpand(rendered, 1)

        let buffer = gtk_source_buffer_new(nil)
        source = gtk_source_view_new_with_buffer(buffer)
        g_object_ref_sink(raw(source))  // held by the renderer too (see deinit)
        g_object_unref(raw(buffer!))
        gtk_text_view_set_editable(cast(source), 0)
        gtk_text_view_set_monospace(cast(source), 1)
        gtk_text_view_set_wrap_mode(cast(source), GTK_WRAP_WORD_CHAR)
        gtk_text_view_set_left_margin(cast(source), 8)
        gtk_text_view_set_top_margin(cast(source), 8)
        gtk_source_view_set_show_line_numbers(cast(source), 1)
        sourceScrolled = gtk_scrolled_window_new()
        gtk_scrolled_window_set_child(cast(sourceScrolled), source)
        gtk_widget_set_vexpand(sourceScrolled, 1)
        gtk_widget_set_visible(sourceScrolled, 0)

        rootView = dossier_group_box_new(GTK_ORIENTATION_VERTICAL, 0)
        for child in [toolbar, rendered, sourceScrolled] { gtk_box_append(cast(rootView), child) }
        connectSignal(raw(toggle), "toggled") { [weak self] in
            self?.showSource(gtk_toggle_button_get_active(cast(self?.toggle)) != 0)
        }
    }

    /// A source view that drew its line numbers stays alive by itself (`dossier_source_view_release`).
    isolated deinit {
        dossier_source_view_release(source)
    }

    /// The file parsed, with its pictures.
    struct Prepared: Sendable {
        let document: Result<MarkdownDocument, PreviewError>
    }

    /// Parsed on one of Dispatch's threads: its pictures wait for the decoder worker.
    package nonisolated static func prepare(_ preparation: PreviewPreparation) async -> (any Sendable)? {
        let url = preparation.url
        return Prepared(document: await blockingWork { parse(url) })
    }

    package func load(_ item: PreviewItem, type: DocumentType) async throws {
        try await load(item, type: type, prepared: nil)
    }

    package func load(_ item: PreviewItem, type: DocumentType, prepared: PreparedPreview?) async throws {
        let url = item.url
        let loaded: Result<MarkdownDocument, PreviewError>
        if let prepared = await prepared?.value as? Prepared {
            loaded = prepared.document
        } else {
            loaded = await blockingWork { Self.parse(url) }
        }
        let document = try loaded.get()
        title = item.displayTitle
        let widgets = MarkdownWidgets(document: document) { [weak self] url in self?.open(url) }
        column?.cancel()
        let column = MarkdownColumn(widgets: widgets, blocks: document.blocks)
        self.column = column
        adw_clamp_set_child(clamp, column.view)
        if let adjustment = gtk_scrolled_window_get_vadjustment(cast(rendered)) { column.follow(adjustment) }
        column.start()

        pendingSource = document.source
        if gtk_widget_get_visible(sourceScrolled) != 0 { fillSource() }
        if let size = document.truncatedSize {
            let shown = takeString(g_format_size(guint64(MarkdownDocument.limit))) ?? ""
            let total = takeString(g_format_size(guint64(size))) ?? ""
            gtk_label_set_text(opaque(note), tr("Showing the first %s of %s", shown, total))
        }
        setAccessibleName(rootView, tr("Formatted text of %s", title))
        setAccessibleName(source, tr("Source of %s", title))
    }

    /// The Markdown file at `url` parsed, with its pictures. Blocking: off the main thread.
    nonisolated static func parse(_ url: URL) -> Result<MarkdownDocument, PreviewError> {
        do throws(PreviewError) { return .success(try MarkdownDocument.load(url)) } catch { return .failure(error) }
    }

    private func fillSource() {
        guard let text = pendingSource else { return }
        pendingSource = nil
        let buffer = gtk_text_view_get_buffer(cast(source))
        if let language = gtk_source_language_manager_get_language(gtk_source_language_manager_get_default(), "markdown") {
            gtk_source_buffer_set_language(cast(buffer), language)
        }
        if let scheme = gtk_source_style_scheme_manager_get_scheme(gtk_source_style_scheme_manager_get_default(), "Adwaita") {
            gtk_source_buffer_set_style_scheme(cast(buffer), scheme)
        }
        gtk_text_buffer_set_text(buffer, text, -1)
    }

    private func showSource(_ shown: Bool) {
        if shown { fillSource() }
        gtk_widget_set_visible(sourceScrolled, shown ? 1 : 0)
        gtk_widget_set_visible(rendered, shown ? 0 : 1)
        setAccessibleName(toggle, shown ? tr("Show formatted text") : tr("Show source"))
    }

    private func open(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), Self.openableSchemes.contains(scheme) else { return }
        if let linkHandler {
            linkHandler(url)
            return
        }
        // As the previewer opens links (gtk_show_uri is deprecated from GTK 4.10).
        let uri = url.absoluteString
        Task.detached { TemporaryFiles.openInDefaultApplication(uri) }
    }

    /// The text of the source view (for tests).
    var sourceText: String {
        let buffer = gtk_text_view_get_buffer(cast(source))
        var start = GtkTextIter(), end = GtkTextIter()
        gtk_text_buffer_get_bounds(buffer, &start, &end)
        return takeString(gtk_text_buffer_get_text(buffer, &start, &end, 0)) ?? ""
    }

    /// Shows the source (true) or the formatted text, as the Source button does.
    func setSourceShown(_ shown: Bool) {
        gtk_toggle_button_set_active(cast(toggle), shown ? 1 : 0)
    }

    package func copy() -> Bool {
        if gtk_widget_get_visible(sourceScrolled) != 0 {
            let buffer = gtk_text_view_get_buffer(cast(source))
            guard gtk_text_buffer_get_has_selection(buffer) != 0 else { return false }
            gtk_text_buffer_copy_clipboard(buffer, gtk_widget_get_clipboard(rootView))
            return true
        }
        // The selection of the focused paragraph.
        guard let root = gtk_widget_get_root(rootView), let focus = gtk_root_get_focus(root),
              gtk_widget_is_ancestor(focus, rendered) != 0,
              g_type_check_instance_is_a(cast(focus), gtk_label_get_type()) != 0
        else { return false }
        var start: Int32 = 0, end: Int32 = 0
        guard gtk_label_get_selection_bounds(opaque(focus), &start, &end) != 0, end > start,
              let text = borrowString(gtk_label_get_text(opaque(focus)))
        else { return false }
        // GTK counts characters as Unicode scalars.
        let scalars = Array(text.unicodeScalars)
        var selected = String.UnicodeScalarView()
        selected.append(contentsOf: scalars[min(Int(start), scalars.count)..<min(Int(end), scalars.count)])
        gdk_clipboard_set_text(gtk_widget_get_clipboard(rootView), MarkdownWidgets.documentText(String(selected), of: focus))
        return true
    }
}
