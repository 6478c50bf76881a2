import CGtk
import DocumentCore
import Foundation
import GtkSupport

/// The shared part of renderers that turn an item into another file first (an external
/// previewer's PNG, PDF, HTML or text; LibreOffice's PDF), then show that file with the
/// renderer for its kind.
@MainActor
package class ConvertedRenderer {
    /// The widget that holds the converted file's renderer.
    package var view: Widget { Widget(gtkWidget: rootView) }
    /// The GtkWidget `view` wraps.
    let rootView: WidgetPointer
    private var inner: (any PreviewRenderer)?
    private var failureHandler: (@MainActor (PreviewError) -> Void)?

    /// Makes the renderer with an empty `view`.
    package init() {
        rootView = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
    }

    /// Shows `file` as `type`, titled like the original item.
    func show(_ file: URL, as type: DocumentType, for item: PreviewItem) async throws {
        let renderer: any PreviewRenderer = switch type {
        case .pdf: PDFRenderer()
        case .html: HTMLRenderer()
        case .png: ImageRenderer()
        default: TextRenderer()
        }
        inner = renderer
        if let failureHandler { renderer.setFailureHandler(failureHandler) }
        gtk_widget_set_vexpand(renderer.view.gtkWidget, 1)
        gtk_box_append(cast(rootView), renderer.view.gtkWidget)
        try await renderer.load(PreviewItem(url: file, title: item.displayTitle), type: type)
    }

    /// Passes the zoom on to the converted file's renderer.
    package func zoom(_ change: ZoomChange) { inner?.zoom(change) }
    /// Copies through the converted file's renderer; false before it is shown.
    package func copy() -> Bool { inner?.copy() ?? false }
    /// Keeps `handler` for the converted file's renderer.
    package func setFailureHandler(_ handler: @escaping @MainActor (PreviewError) -> Void) { failureHandler = handler }
}

/// An item shown through an installed `.previewer` (see `ExternalPreviewer`).
@MainActor
package final class ExternalPreviewRenderer: ConvertedRenderer, PreviewRenderer {
    /// Chosen by the registry from the previewer's own types.
    package nonisolated static let supportedTypes: [DocumentType] = []
    var previewer: ExternalPreviewer?

    /// Makes a renderer for an installed previewer; the registry gives it the previewer.
    package required override init() { super.init() }

    package func load(_ item: PreviewItem, type: DocumentType) async throws {
        guard let previewer else { throw PreviewError(tr("No previewer was given.")) }
        let work = URL(fileURLWithPath: String(cString: g_get_user_cache_dir())).appendingPathComponent("dossier/previewer-output")
        let cancellation = CancellationFlag()
        let outcome = await withTaskCancellationHandler {
            await Task.detached { () -> Result<URL, PreviewError> in
                do throws(PreviewerError) {
                    return .success(try previewer.run(on: item.url, workFolder: work, cancellation: cancellation))
                } catch {
                    return .failure(PreviewError(error.description))
                }
            }.value
        } onCancel: {
            cancellation.cancel()
        }
        let output = try outcome.get()
        defer { try? FileManager.default.removeItem(at: output.deletingLastPathComponent()) }
        let kind: DocumentType = switch previewer.output {
        case .png: .png
        case .pdf: .pdf
        case .html: .html
        case .text: .text
        }
        setAccessibleName(rootView, tr("%s preview of %s", previewer.name, item.displayTitle))
        try await show(output, as: kind, for: item)
    }
}
