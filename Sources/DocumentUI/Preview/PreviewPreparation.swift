import CGtk
import DocumentCore
import Foundation

extension PreviewController {
    /// Starts loading, off the main thread, what showing a first item needs and what takes
    /// long the first time in a process: the file type database (to detect the item's type),
    /// the image loaders, and the headers of the text languages (~150 files, read to pick
    /// the highlighting). A service started for its first item calls it as it starts: this runs
    /// on another core while the main thread sets up GTK, the application and the window.
    public nonisolated static func prepareInBackground() {
        Task.detached(priority: .userInitiated) {
            _ = DocumentType(mimeType: "text/plain").isDeclared
            _ = TextRenderer.guessLanguage("preview.txt", "text/plain")
            g_slist_free(gdk_pixbuf_get_formats())
        }
    }
}
