import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

extension TextRenderer: PrintableRenderer {
    /// Printed at most: about 1,500 pages of code. The previewer shows less (`limit`).
    nonisolated static let printLimit = 4 << 20

    static func printablePages(for item: PreviewItem, type: DocumentType) async throws -> any PrintablePages {
        let url = item.url
        let (text, _, language) = try await Task.detached { read(url, type: type, limit: printLimit) }.value.get().parts
        return TextPages(text: text, language: language, title: item.displayTitle)
    }
}

/// Text and source code on paper through GtkSourcePrintCompositor: highlighted as the
/// previewer shows it, with line numbers, long lines wrapped, the file's name at the top of
/// each page and "Page 2 of 7" at the bottom. Pages are laid out once the paper is known, a
/// few at a time (GTK asks again until all are).
@MainActor
final class TextPages: PrintablePages {
    private let compositor: UnsafeMutablePointer<GtkSourcePrintCompositor>
    let pageCount: Int? = nil
    let usesFullPage = false

    init(text: String, language: ObjectReference?, title: String) {
        let buffer = gtk_source_buffer_new(nil)!
        if let language { gtk_source_buffer_set_language(buffer, OpaquePointer(language.pointer)) }
        // A scheme with a white page: the user's dark style is for the screen.
        let schemes = gtk_source_style_scheme_manager_get_default()
        if let scheme = gtk_source_style_scheme_manager_get_scheme(schemes, "classic") {
            gtk_source_buffer_set_style_scheme(buffer, scheme)
        }
        gtk_text_buffer_set_text(cast(buffer), text, -1)
        compositor = gtk_source_print_compositor_new(buffer)!
        g_object_unref(raw(buffer))
        gtk_source_print_compositor_set_print_line_numbers(compositor, 1)
        gtk_source_print_compositor_set_highlight_syntax(compositor, 1)
        gtk_source_print_compositor_set_wrap_mode(compositor, GTK_WRAP_WORD_CHAR)
        gtk_source_print_compositor_set_body_font_name(compositor, "Monospace 9")
        gtk_source_print_compositor_set_print_header(compositor, 1)
        // The formats are strftime's: a % in the name is written twice.
        gtk_source_print_compositor_set_header_format(compositor, 1, title.replacingOccurrences(of: "%", with: "%%"), nil, nil)
        gtk_source_print_compositor_set_print_footer(compositor, 1)
        // %N and %Q are the compositor's: the page's number and the number of pages.
        gtk_source_print_compositor_set_footer_format(compositor, 0, nil, tr("Page %N of %Q"), nil)
    }

    isolated deinit { g_object_unref(raw(compositor)) }

    func paginate(_ context: OpaquePointer) -> Int? {
        guard gtk_source_print_compositor_paginate(compositor, context) != 0 else { return nil }
        return Int(gtk_source_print_compositor_get_n_pages(compositor))
    }

    func draw(page index: Int, on context: OpaquePointer) {
        gtk_source_print_compositor_draw_page(compositor, context, Int32(index))
    }
}
