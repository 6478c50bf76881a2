import CGtk
import DocumentCore
import Foundation

/// An item laid out for paper: what a printable renderer makes of it, and what a
/// `PrintOperation` draws on the print context's cairo, page by page.
@MainActor
protocol PrintablePages: AnyObject {
    /// The number of pages when it is known before the paper is (a PDF's pages, an image's
    /// one); nil when the pages come from laying the item out on the chosen paper (text).
    var pageCount: Int? { get }
    /// True when pages are drawn on the whole sheet (a PDF brings its own margins), false
    /// when inside the printer's margins.
    var usesFullPage: Bool { get }
    /// Lays out some more of the item on `context`'s paper; the number of pages once all of
    /// it is, nil while there is more to do (GTK calls again: long texts take several calls).
    func paginate(_ context: OpaquePointer) -> Int?
    /// Draws page `index` (from 0) on `context`.
    func draw(page index: Int, on context: OpaquePointer)
    /// Starts drawing page `index` on `context` without holding the main thread (its picture
    /// comes from a decoder worker): once ready, from any thread, it hands `finish` the drawing
    /// to do on the main thread, after which the page is done; GTK waits for it before it takes
    /// the next page. True when it does so; false (the default) when the page is drawn at once,
    /// by `draw(page:on:)`.
    func drawLater(page index: Int, on context: OpaquePointer, finish: @escaping PageFinish) -> Bool
    /// Whether page `index` is wider than it is high, and so goes on the paper turned.
    func isLandscape(page index: Int) -> Bool
}

extension PrintablePages {
    func paginate(_ context: OpaquePointer) -> Int? { pageCount ?? 0 }
    func isLandscape(page index: Int) -> Bool { false }
    func drawLater(page index: Int, on context: OpaquePointer, finish: @escaping PageFinish) -> Bool { false }
}

/// How a page drawn later is finished: called from any thread with the drawing to do on the
/// main thread (from GLib's main loop, which also runs while GTK waits in a loop of its own).
typealias PageFinish = @Sendable (_ draw: @escaping @MainActor () -> Void) -> Void

/// A renderer whose items can be printed: Print… (and Ctrl+P in the previewer) is offered for
/// the types it shows. Printing reads the file again, off the main thread, rather than taking
/// the renderer's view of it: the previewer shows only the start of a long text, and draws a
/// PDF on threads of its own; the browser prints with no previewer at all.
@MainActor
protocol PrintableRenderer: PreviewRenderer {
    /// Reads `item` for printing (its I/O and decoding off the main thread) and lays it out.
    /// - Throws: `PreviewError` saying why it cannot be read.
    static func printablePages(for item: PreviewItem, type: DocumentType) async throws -> any PrintablePages
}

extension PreviewRendererRegistry {
    /// The renderer that prints items of `type`, when the one that shows them can print.
    func printableRenderer(for type: DocumentType) -> (any PrintableRenderer.Type)? {
        rendererType(for: type) as? any PrintableRenderer.Type
    }
}
