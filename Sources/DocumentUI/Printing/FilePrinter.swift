import CGLib
import CGtk
import Foundation
import GObjectSupport

/// GTK's "Print to File" printer (its file print backend), which writes PDF: WebKit prints a
/// page to a file through it.
@MainActor
enum FilePrinter {
    /// The printer's name (translated by GTK: "Print to File" in English), found once.
    private static var foundName: String?

    /// The file printer's name, or nil when GTK has no file backend. The first call lists
    /// GTK's printers, waiting for its backends in a nested main loop (as WebKit does).
    static func name() -> String? {
        if let foundName { return foundName }
        final class Search { var name: String? }
        let search = Search()
        gtk_enumerate_printers({ printer, data in
            guard let printer, let data else { return 0 }
            let search = Unmanaged<Search>.fromOpaque(data).takeUnretainedValue()
            // The file backend's type, as WebKit finds it: its printer has no fixed name.
            let backend = gtk_printer_get_backend(printer)
            let typeName = backend.flatMap { borrowString(g_type_name_from_instance(UnsafeMutableRawPointer($0).assumingMemoryBound(to: GTypeInstance.self))) }
            guard typeName == "GtkPrintBackendFile" else { return 0 }
            search.name = borrowString(gtk_printer_get_name(printer))
            return 1
        }, Unmanaged.passUnretained(search).toOpaque(), nil, 1)
        foundName = search.name
        return search.name
    }

    /// Settings that print to the PDF file `url` on the file printer; the caller owns them.
    static func settings(writingTo url: URL) throws(PrintError) -> OpaquePointer {
        guard let printer = name() else { throw .noFilePrinter }
        let settings = gtk_print_settings_new()!
        gtk_print_settings_set_printer(settings, printer)
        gtk_print_settings_set(settings, GTK_PRINT_SETTINGS_OUTPUT_FILE_FORMAT, "pdf")
        gtk_print_settings_set(settings, GTK_PRINT_SETTINGS_OUTPUT_URI, url.absoluteString)
        return settings
    }
}
