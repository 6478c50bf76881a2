import CGtk
import DocumentCore
import Foundation
import GtkSupport

/// A document kept compressed (`paper.pdf.gz`, `figure.eps.bz2`, `manual.dvi.xz`) shown as the
/// document it holds: a decoder worker decompresses it (`ArchiveExtraction`, with its size
/// limit against bombs) into a private folder in the cache, named without the compression's
/// extension, and a nested preview page shows that file with its own renderer (a PDF with its
/// pages, sidebar and zoom). The copy is deleted when the page goes.
@MainActor
package final class CompressedDocumentRenderer: PreviewRenderer {
    /// The compressed forms of documents that shared-mime-info names, each a subtype of its
    /// compression's type.
    nonisolated static let compressedDocumentTypes: Set<String> = [
        "application/x-gzpdf", "application/x-bzpdf", "application/x-xzpdf", "application/x-lzpdf",
        "application/x-gzpostscript", "application/x-bzpostscript", "image/x-gzeps", "image/x-bzeps",
        "application/x-gzdvi", "application/x-bzdvi", "application/x-gz-font-linux-psf",
    ]

    package nonisolated static let supportedTypes: [DocumentType] =
        compressedDocumentTypes.sorted().map { DocumentType(mimeType: $0) }

    /// The widget that shows the item.
    package var view: Widget { Widget(gtkWidget: rootView) }
    private let rootView: WidgetPointer
    private var nested: PreviewPage?
    private var extractedFolder: URL?
    private var linkHandler: (@MainActor (URL) -> Void)?

    /// Makes a renderer with an empty view.
    package init() {
        rootView = dossier_group_box_new(GTK_ORIENTATION_VERTICAL, 0)
    }

    isolated deinit {
        nested?.cancel()
        if let extractedFolder { ArchiveExtraction.remove(extractedFolder) }
    }

    package func load(_ item: PreviewItem, type: DocumentType) async throws {
        let path = item.url.rawPath
        let task = Task.detached { () -> Result<URL, ArchiveError> in
            do throws(ArchiveError) {
                let listing = try ArchiveListing.read(path, raw: true).get()
                // Data libarchive reads as an empty archive (zeros are an empty tar) holds nothing.
                guard let entry = listing.entries.first(where: { $0.kind == .file }) else {
                    throw .unreadable(tr("it holds no document"))
                }
                return .success(try ArchiveExtraction.extract(entry, from: path, raw: true))
            } catch {
                return .failure(error)
            }
        }
        let result = await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
        let file: URL
        switch result {
        case .success(let extracted): file = extracted
        case .failure(let error): throw PreviewError(error.description)
        }
        extractedFolder = file.deletingLastPathComponent()
        if Task.isCancelled { return }
        let page = PreviewPage(item: PreviewItem(url: file, title: item.displayTitle))
        nested = page
        gtk_widget_set_vexpand(page.view, 1)
        gtk_box_append(cast(rootView), page.view)
        page.start()
    }
}
