import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// Prints documents through GTK's printing: PDF pages at full resolution, images fitted to
/// the page, text and source code highlighted with line numbers, Markdown and HTML laid out
/// by WebKit. The interaction controller's Print… (its options menu, the previewer's menu and
/// Ctrl+P, the browser's Ctrl+P) comes here; a type whose renderer cannot print is not offered.
@MainActor
public enum DocumentPrinter {
    /// Whether documents of `type` can be printed.
    public static func canPrint(_ type: DocumentType) -> Bool {
        PreviewRendererRegistry.shared.printableRenderer(for: type) != nil
    }

    /// Reads the document at `url` (off the main thread), then shows GTK's print dialog for it
    /// above `parent`, with its preview. True when it was sent to the printer, false when the
    /// dialog was cancelled; returns once GTK is done with the job.
    /// - Parameters:
    ///   - url: the document to print.
    ///   - type: the document's type; read from its contents when nil.
    ///   - title: the name the dialog and the printer's queue show (the file's name when nil).
    ///   - parent: the window the dialog stays above; nil for none.
    @discardableResult
    public static func presentPrintDialog(for url: URL, type: DocumentType? = nil, title: String? = nil,
                                          transientFor parent: WindowWidget?) async throws(PrintError) -> Bool {
        let item = PreviewItem(url: url, title: title)
        let pages = try await layOut(item, type: type)
        // The window may have closed while the document was read: the dialog is then on its own.
        let window = parent.flatMap { gtk_widget_get_mapped($0.gtkWidget) != 0 ? $0.gtkWindow : nil }
        return try await PrintOperation(pages, title: item.displayTitle).run(.dialog(parent: window))
    }

    /// Prints the document at `url` to the PDF file `pdfURL` with no dialog (GTK's export): the
    /// pages a printer would get, on the locale's default paper, `pages` only (ranges of page
    /// numbers from 0) when given. Returns once the file is written.
    public static func print(_ url: URL, type: DocumentType? = nil, to pdfURL: URL,
                             pages: [ClosedRange<Int>]? = nil) async throws(PrintError) {
        let item = PreviewItem(url: url)
        let laidOut = try await layOut(item, type: type)
        _ = try await PrintOperation(laidOut, title: item.displayTitle).run(.export(pdfURL, pages: pages))
    }

    /// The item's pages, from the renderer that prints its type.
    private static func layOut(_ item: PreviewItem, type: DocumentType?) async throws(PrintError) -> any PrintablePages {
        let url = item.url
        let detected: DocumentType
        if let type {
            detected = type
        } else {
            detected = await Task.detached { (try? DocumentType(contentsOf: url.path)) ?? DocumentType(fileName: url.lastPathComponent) }.value
        }
        guard let renderer = PreviewRendererRegistry.shared.printableRenderer(for: detected) else {
            throw .notPrintable(name: item.displayTitle, type: detected.localizedDescription)
        }
        do {
            return try await renderer.printablePages(for: item, type: detected)
        } catch let error as PrintError {
            throw error
        } catch {
            throw .unreadable(name: item.displayTitle, reason: "\(error)")
        }
    }
}
