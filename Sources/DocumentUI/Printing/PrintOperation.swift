import CGLib
import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// One printing of an item's pages through GtkPrintOperation: GTK's print dialog (printer,
/// copies, page ranges, paper, and its preview), or no dialog, exported to a PDF file. In the
/// dialog GTK handles the page ranges, copies and order, and the pages only say how many
/// there are and draw each one. GTK's export has no page ranges: the operation applies them
/// itself, asking GTK for the chosen pages only.
@MainActor
final class PrintOperation {
    enum Destination {
        /// GTK's print dialog, above `parent`.
        case dialog(parent: UnsafeMutablePointer<GtkWindow>?)
        /// No dialog: a PDF file of the pages, `pages` only (ranges of page numbers from 0)
        /// when given.
        case export(URL, pages: [ClosedRange<Int>]?)
    }

    /// The settings of the last print, so the next dialog starts with the same printer and
    /// options (as GNOME apps keep them for the session).
    private static var lastSettings: OpaquePointer?

    private let operation: UnsafeMutablePointer<GtkPrintOperation>
    private let pages: any PrintablePages
    /// The pages to export (a range's), in order; nil: every page.
    private var chosen: [ClosedRange<Int>]?
    /// The item's page for each page GTK asks for, once the ranges are applied.
    private var pageMap: [Int]?

    /// `title` names the job in the printer's queue (the document's name).
    init(_ pages: any PrintablePages, title: String) {
        operation = gtk_print_operation_new()
        self.pages = pages
        gtk_print_operation_set_job_name(operation, title)
        gtk_print_operation_set_embed_page_setup(operation, 1)
        gtk_print_operation_set_use_full_page(operation, pages.usesFullPage ? 1 : 0)
        gtk_print_operation_set_allow_async(operation, 1)
        // The number of pages before the dialog when it is known, so the dialog's page range
        // and preview have it; otherwise from the layout on the chosen paper.
        if let count = pages.pageCount {
            gtk_print_operation_set_n_pages(operation, Int32(max(count, 1)))
        } else {
            connectPointerSignal(raw(operation), "paginate", returning: { [weak self] (context: UnsafeMutableRawPointer?) -> Bool in
                guard let self, let context, let count = self.pages.paginate(OpaquePointer(context)) else { return false }
                self.setPageCount(count)
                return true
            })
        }
        connectPointerNumberSignal(raw(operation), "draw-page") { [weak self] context, page in
            guard let self, let context else { return }
            let index = self.itemPage(Int(page)), operation = OperationReference(self.operation)
            // A page drawn later: GTK keeps the page open until it is finished, from a GLib
            // idle callback (never before this handler returns; an export waits for it in
            // GTK's own main loop, where Swift's main queue is not drained).
            if self.pages.drawLater(page: index, on: OpaquePointer(context), finish: { draw in
                MainLoopIdle.run {
                    draw()
                    gtk_print_operation_draw_page_finish(operation.pointer)
                }
            }) {
                gtk_print_operation_set_defer_drawing(self.operation)
            } else {
                self.pages.draw(page: index, on: OpaquePointer(context))
            }
        }
        // A landscape page (a slide) goes on the paper turned, as Evince prints it, rather
        // than shrunk to the width of a portrait sheet.
        connectPointerNumberPointerSignal(raw(operation), "request-page-setup") { [weak self] _, page, setup in
            guard let self, let setup, self.pages.isLandscape(page: self.itemPage(Int(page))) else { return }
            let pageSetup = OpaquePointer(setup)
            if gtk_page_setup_get_orientation(pageSetup) == GTK_PAGE_ORIENTATION_PORTRAIT {
                gtk_page_setup_set_orientation(pageSetup, GTK_PAGE_ORIENTATION_LANDSCAPE)
            }
        }
    }

    /// The item's page that GTK's page `index` is (they differ when the export has ranges).
    private func itemPage(_ index: Int) -> Int {
        guard let pageMap else { return index }
        return index < pageMap.count ? pageMap[index] : index
    }

    /// Tells GTK how many pages to print: all of the item's, or those of the chosen ranges.
    private func setPageCount(_ count: Int) {
        if let chosen {
            let map = chosen.flatMap { Array($0) }.filter { $0 >= 0 && $0 < count }
            pageMap = map
            gtk_print_operation_set_n_pages(operation, Int32(max(map.count, 1)))
        } else {
            gtk_print_operation_set_n_pages(operation, Int32(max(count, 1)))
        }
    }

    isolated deinit {
        g_object_unref(raw(operation))
    }

    /// Prints; true when the pages went to the printer, false when the dialog was cancelled.
    /// Returns once GTK is done with the job (the pages drawn and handed to the printer).
    func run(_ destination: Destination) async throws(PrintError) -> Bool {
        let action: GtkPrintOperationAction
        var parent: UnsafeMutablePointer<GtkWindow>?
        switch destination {
        case .dialog(let window):
            action = GTK_PRINT_OPERATION_ACTION_PRINT_DIALOG
            parent = window
            if let settings = Self.lastSettings { gtk_print_operation_set_print_settings(operation, settings) }
        case .export(let url, let ranges):
            action = GTK_PRINT_OPERATION_ACTION_EXPORT
            gtk_print_operation_set_export_filename(operation, url.path)
            chosen = ranges
            if let count = pages.pageCount { setPageCount(count) }
        }
        let result: GtkPrintOperationResult = await withCheckedContinuation { continuation in
            var resumed = false
            let finish = { (result: GtkPrintOperationResult) in
                guard !resumed else { return }
                resumed = true
                continuation.resume(returning: result)
            }
            // "done" comes when an asynchronous run ends (after the pages were sent). A preview
            // (the dialog's Preview button, shown by GTK's external previewer) ends with no
            // "done": its status says it is finished.
            connectNumberSignal(raw(operation), "done") { result in
                finish(GtkPrintOperationResult(rawValue: result))
            }
            connectSignal(raw(operation), "status-changed") { [operation] () -> Void in
                guard gtk_print_operation_is_finished(operation) != 0 else { return }
                // "done" follows at once when there is one: let it give the result first.
                let aborted = gtk_print_operation_get_status(operation) == GTK_PRINT_STATUS_FINISHED_ABORTED
                MainLoopIdle.run {
                    finish(aborted ? GTK_PRINT_OPERATION_RESULT_CANCEL : GTK_PRINT_OPERATION_RESULT_APPLY)
                }
            }
            var error: UnsafeMutablePointer<GError>?
            let started = gtk_print_operation_run(operation, action, parent, &error)
            if let error { g_error_free(error) }  // also in gtk_print_operation_get_error
            if started != GTK_PRINT_OPERATION_RESULT_IN_PROGRESS { finish(started) }
        }
        switch result {
        case GTK_PRINT_OPERATION_RESULT_APPLY:
            if case .dialog = destination, let settings = gtk_print_operation_get_print_settings(operation) {
                if let old = Self.lastSettings { g_object_unref(raw(old)) }
                Self.lastSettings = OpaquePointer(g_object_ref(raw(settings)))
            }
            return true
        case GTK_PRINT_OPERATION_RESULT_CANCEL:
            return false
        default:
            var message = tr("The printing system reported an error.")
            var error: UnsafeMutablePointer<GError>?
            gtk_print_operation_get_error(operation, &error)
            if let error {
                message = String(cString: error.pointee.message)
                g_error_free(error)
            }
            throw .failed(message)
        }
    }
}

/// The operation, for the idle callback that finishes a page drawn later (GTK keeps it while it
/// waits for the page).
private struct OperationReference: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<GtkPrintOperation>
    init(_ pointer: UnsafeMutablePointer<GtkPrintOperation>) { self.pointer = pointer }
}
