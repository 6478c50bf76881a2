import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// Builds the widgets for a prepared Markdown document: a label with Pango markup per block of
/// text (selectable, wrapping, links clickable), a GtkSourceView per code block, pictures for
/// images, nested boxes for quotes and lists, a grid for tables, separators for rules.
@MainActor
struct MarkdownWidgets {
    let document: MarkdownDocument
    /// Called with a link's address when the user clicks it.
    let openLink: (URL) -> Void

    /// The widget of one top-level block (`MarkdownColumn` appends them to the column).
    func widget(for block: MarkdownDocument.Block) -> WidgetPointer {
        Self.installStyles()
        return blockWidget(block)
    }

    private func blockWidget(_ block: MarkdownDocument.Block) -> WidgetPointer {
        switch block {
        case .heading(let level, let markup):
            let label = textLabel(markup)
            let classes = [1: "title-1", 2: "title-2", 3: "title-3", 4: "title-4"]
            gtk_widget_add_css_class(label, classes[level] ?? "heading")
            gtk_widget_set_margin_top(label, level <= 2 ? 12 : 6)
            return label
        case .paragraph(let pieces):
            let widgets = pieces.map { piece -> WidgetPointer in
                switch piece {
                case .markup(let markup): textLabel(markup)
                case .image(let image): picture(image)
                }
            }
            return widgets.count == 1 ? widgets[0] : makeBox(GTK_ORIENTATION_VERTICAL, spacing: 6, widgets)
        case .code(let language, let text):
            return codeBlock(text, language: language)
        case .quote(let blocks):
            let box = makeBox(GTK_ORIENTATION_VERTICAL, spacing: 8, blocks.map(blockWidget))
            gtk_widget_add_css_class(box, "dossier-markdown-quote")
            return box
        case .list(let ordered, let start, let items):
            let rows = items.enumerated().map { offset, item -> WidgetPointer in
                let marker: String
                switch item.checked {
                case .some(true): marker = "☑"
                case .some(false): marker = "☐"
                case nil: marker = ordered ? "\(start + offset)." : "•"
                }
                let markerLabel = makeLabel(marker, classes: ordered ? ["dim-label", "numeric"] : ["dim-label"])
                gtk_label_set_xalign(opaque(markerLabel), 1)
                gtk_widget_set_valign(markerLabel, GTK_ALIGN_START)
                gtk_widget_set_halign(markerLabel, GTK_ALIGN_START)
                gtk_widget_set_size_request(markerLabel, 24, -1)
                let content = makeBox(GTK_ORIENTATION_VERTICAL, spacing: 6, item.blocks.map(blockWidget))
                gtk_widget_set_margin_start(content, 24 + 8)
                // The marker over the content's margin, not beside it in a row: a row of boxes
                // shares its width between them, and measuring that again at every level of
                // nesting grows as 2^levels, so a small item a few lists deep holds the main thread.
                let row = gtk_overlay_new()!
                gtk_overlay_set_child(cast(row), content)
                gtk_overlay_add_overlay(cast(row), markerLabel)
                return row
            }
            return makeBox(GTK_ORIENTATION_VERTICAL, spacing: 4, rows)
        case .table(let header, let alignments, let rows):
            return table(header: header, alignments: alignments, rows: rows)
        case .rule:
            let separator = gtk_separator_new(GTK_ORIENTATION_HORIZONTAL)!
            gtk_widget_set_margin_top(separator, 6)
            gtk_widget_set_margin_bottom(separator, 6)
            return separator
        }
    }

    /// A wrapping, selectable label showing `markup`, whose links call `openLink`.
    private func textLabel(_ markup: String) -> WidgetPointer {
        let label = gtk_label_new(nil)!
        let breakable = Self.withBreakOpportunities(markup)
        gtk_label_set_markup(opaque(label), breakable)
        if breakable.utf8.count != markup.utf8.count { g_object_set_data(cast(label), Self.addedBreaksKey, UnsafeMutableRawPointer(bitPattern: 1)) }
        gtk_label_set_wrap(opaque(label), 1)
        gtk_label_set_wrap_mode(opaque(label), PANGO_WRAP_WORD_CHAR)
        // A wrapping label's minimum width is measured on a layout `width-chars` wide: unset,
        // GTK lays the whole text out with every possible break taken, which for a long
        // paragraph holds the main thread for seconds.
        gtk_label_set_width_chars(opaque(label), 20)
        gtk_label_set_xalign(opaque(label), 0)
        gtk_label_set_selectable(opaque(label), 1)
        gtk_widget_set_halign(label, GTK_ALIGN_FILL)
        let openLink = openLink
        connectStringSignal(raw(label), "activate-link") { uri in
            guard let uri, let url = URL(string: uri) else { return true }
            openLink(url)
            return true  // handled: GTK's own handler would open it a second time
        }
        return label
    }

    private func picture(_ image: MarkdownImage) -> WidgetPointer {
        guard let source = image.source, let pixels = document.images[source], let texture = makeTexture(of: pixels) else {
            // Remote images are not fetched (a preview makes no network requests).
            // Outside the interpolation, so that xgettext finds the message.
            let caption = tr("Image: %s", image.alternative)
            let markup = "<i>" + escapeMarkup(caption) + "</i>"
            let label = textLabel(markup)
            gtk_widget_add_css_class(label, "dim-label")
            return label
        }
        let picture = gtk_picture_new_for_paintable(texture)!
        // A picture that can shrink asks for no height at all, and a scrolled column gives its
        // children only what they ask for: reserve the height of the image at the column's width.
        let width = Double(gdk_texture_get_width(texture)), height = Double(gdk_texture_get_height(texture))
        gtk_widget_set_size_request(picture, -1, Int32(height * min(1, Self.columnWidth / max(width, 1))))
        g_object_unref(raw(texture))
        gtk_picture_set_can_shrink(cast(picture), 1)
        gtk_picture_set_content_fit(cast(picture), GTK_CONTENT_FIT_SCALE_DOWN)
        gtk_picture_set_alternative_text(cast(picture), image.alternative)
        gtk_widget_set_halign(picture, GTK_ALIGN_START)
        setAccessibleName(picture, image.alternative.isEmpty ? source.lastPathComponent : image.alternative)
        return picture
    }

    private func codeBlock(_ text: String, language: String?) -> WidgetPointer {
        let buffer = gtk_source_buffer_new(nil)!
        if let language, let found = gtk_source_language_manager_get_language(gtk_source_language_manager_get_default(),
                                                                                 language.lowercased()) {
            gtk_source_buffer_set_language(buffer, found)
        }
        if let scheme = gtk_source_style_scheme_manager_get_scheme(gtk_source_style_scheme_manager_get_default(), "Adwaita") {
            gtk_source_buffer_set_style_scheme(buffer, scheme)
        }
        // The cursor is at the end, unseen: its bracket would be drawn matched once the
        // highlighting reaches it, a change on screen well after the page showed.
        gtk_source_buffer_set_highlight_matching_brackets(buffer, 0)
        gtk_text_buffer_set_text(cast(buffer), text, -1)
        let view = gtk_source_view_new_with_buffer(buffer)!
        g_object_unref(raw(buffer))
        gtk_text_view_set_editable(cast(view), 0)
        gtk_text_view_set_monospace(cast(view), 1)
        gtk_text_view_set_left_margin(cast(view), 10)
        gtk_text_view_set_right_margin(cast(view), 10)
        gtk_text_view_set_top_margin(cast(view), 8)
        gtk_text_view_set_bottom_margin(cast(view), 8)
        // Long lines scroll sideways instead of widening the whole page.
        let scrolled = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(cast(scrolled), view)
        // As tall as its lines, counted here rather than asked of the view: a text view's
        // height changes while it lays its lines out, in idle steps, and inside a list item's
        // boxes each change would have everything measured again, which holds the main thread
        // for seconds on a long block, and longer the deeper its lists are nested.
        gtk_scrolled_window_set_policy(cast(scrolled), GTK_POLICY_AUTOMATIC, GTK_POLICY_EXTERNAL)
        let lines = text.utf8.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        let line = gtk_widget_create_pango_layout(view, "X")!
        var lineWidth: Int32 = 0, lineHeight: Int32 = 0
        pango_layout_get_pixel_size(line, &lineWidth, &lineHeight)
        g_object_unref(raw(line))
        gtk_widget_set_size_request(scrolled, -1, Int32(min(lines, 100_000)) * lineHeight + 8 + 8)
        gtk_widget_add_css_class(scrolled, "card")
        gtk_widget_set_overflow(scrolled, GTK_OVERFLOW_HIDDEN)
        setAccessibleName(view, language.map { tr("Code in %s", $0) } ?? tr("Code"))
        return scrolled
    }

    private func table(header: [String], alignments: [MarkdownAlignment], rows: [[String]]) -> WidgetPointer {
        let grid = gtk_grid_new()!
        gtk_grid_set_column_spacing(cast(grid), 18)
        gtk_grid_set_row_spacing(cast(grid), 6)
        for (rowIndex, row) in ([header] + rows).enumerated() {
            for (column, markup) in row.enumerated() {
                let label = textLabel(rowIndex == 0 ? "<b>\(markup)</b>" : markup)
                let alignment = column < alignments.count ? alignments[column] : .leading
                gtk_label_set_xalign(opaque(label), alignment == .leading ? 0 : alignment == .center ? 0.5 : 1)
                gtk_grid_attach(cast(grid), label, Int32(column), Int32(rowIndex), 1, 1)
            }
        }
        gtk_widget_add_css_class(grid, "dossier-markdown-table")
        gtk_widget_set_halign(grid, GTK_ALIGN_START)
        // Wide tables scroll sideways.
        let scrolled = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(cast(scrolled), grid)
        gtk_scrolled_window_set_policy(cast(scrolled), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER)
        gtk_scrolled_window_set_propagate_natural_height(cast(scrolled), 1)
        return scrolled
    }

    /// The widest the text column gets (the renderer clamps it to this).
    static let columnWidth = 860.0

    /// Markup longer than this (in bytes) gets break opportunities (`withBreakOpportunities`).
    nonisolated static let breakableLimit = 2000
    /// Characters between two break opportunities added to long markup.
    nonisolated static let breakEvery = 200
    /// Set on a label whose text has zero-width spaces of `withBreakOpportunities`.
    static let addedBreaksKey = "dossier-added-breaks"

    /// The text of `label` as the document has it (without added zero-width spaces).
    static func documentText(_ text: String, of label: WidgetPointer) -> String {
        guard g_object_get_data(cast(label), addedBreaksKey) != nil else { return text }
        return text.replacingOccurrences(of: "\u{200B}", with: "")
    }

    /// `markup`, when longer than `breakableLimit`, with a zero-width space after a space at
    /// least every `breakEvery` characters of its text, or inside a run of twice that with no
    /// space. Pango 1.50 wraps in time quadratic in the length of a run it finds no line break
    /// in (a long run holds the main thread for seconds, and far longer when the minimum width
    /// is measured; spaces that UAX #14 does not break at count as no break, as in `Ã(â‚ Ã(â‚`),
    /// and a zero-width space always allows one. Tags and entities are left whole; short markup
    /// is returned as it is (a URL in it copies without the invisible characters).
    nonisolated static func withBreakOpportunities(_ markup: String) -> String {
        guard markup.utf8.count > breakableLimit else { return markup }
        var result = ""
        result.reserveCapacity(markup.utf8.count + markup.utf8.count / breakEvery * 3)
        var inTag = false, inEntity = false
        var count = 0
        for character in markup {
            result.append(character)
            if inTag {
                inTag = character != ">"
                continue
            }
            if inEntity {
                inEntity = character != ";"
                if inEntity { continue }
            } else if character == "<" {
                inTag = true
                continue
            } else if character == "&" {
                inEntity = true
                continue
            }
            count += 1
            if count >= breakEvery && (character == " " || count >= 2 * breakEvery) {
                result.append("\u{200B}")
                count = 0
            }
        }
        return result
    }

    private static var stylesInstalled = false

    private static func installStyles() {
        guard !stylesInstalled else { return }
        stylesInstalled = true
        dossier_add_css("""
            .dossier-markdown-quote { border-left: 4px solid alpha(currentColor, 0.25); padding-left: 12px; }
            .dossier-markdown-table { border: 1px solid alpha(currentColor, 0.15); border-radius: 6px; padding: 8px 12px; }
            """)
    }
}
