import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// Print…: GTK's print dialog for the document, through `DocumentPrinter`.
extension DocumentInteractionController {
    /// Reads the document off the main thread and shows GTK's print dialog for it, with its
    /// preview, above `parent` (by default the window the action came from, else the host's).
    /// The end reaches the delegate's `didPerform` (a failure is shown; a cancelled dialog is
    /// not one); a type Dossier does not print ends in a `.print(.notPrintable)` failure.
    public func presentPrintDialog(transientFor parent: WindowWidget? = nil) {
        guard urls.count == 1 else { return }
        let window = parent ?? actionWindow().map { WindowWidget(gtkWindow: $0) }
        let key = "print-\(UUID().uuidString)"
        keptAlive[key] = self
        Task { @MainActor in
            defer { keptAlive[key] = nil }
            let type = await resolvedTypes()[0]
            do throws(PrintError) {
                try await DocumentPrinter.presentPrintDialog(for: url, type: type, title: nameOverride, transientFor: window)
                finish(.print, .success([]))
            } catch {
                finish(.print, .failure(.print(error)))
            }
        }
    }

    /// Prints the document to the PDF file `pdfURL` with no dialog (GTK's export): the pages a
    /// printer would get (`pages` only, ranges of page numbers from 0, when given).
    public func print(to pdfURL: URL, pages: [ClosedRange<Int>]? = nil) async throws(PrintError) {
        let type = await resolvedTypes()[0]
        try await DocumentPrinter.print(url, type: type, to: pdfURL, pages: pages)
    }

    /// The window an action came from: the one the `doc.` actions are installed in while it is
    /// shown (the previewer's, for its menu), else the host's.
    func actionWindow() -> UnsafeMutablePointer<GtkWindow>? {
        if let widget = actionsWidget?.widget, gtk_widget_get_mapped(widget) != 0, let root = gtk_widget_get_root(widget) {
            let object = UnsafeMutableRawPointer(root)
            if g_type_check_instance_is_a(object.assumingMemoryBound(to: GTypeInstance.self), gtk_window_get_type()) != 0 {
                return object.assumingMemoryBound(to: GtkWindow.self)
            }
        }
        return hostWindow()
    }
}
