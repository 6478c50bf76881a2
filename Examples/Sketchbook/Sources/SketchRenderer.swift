import DocumentCore
import DocumentUI
import Foundation

/// How the previewer draws a sketch in this app: Space in Sketchbook's browser, and
/// `sketchbook --show`. The file is read off the main thread; when the previewer begins an item
/// before its window exists (a `PreviewPrefetch`), the reading begins then, in `prepare`, and
/// the page takes what it read.
@MainActor
final class SketchRenderer: PreviewRenderer {
    nonisolated static var supportedTypes: [DocumentType] { [Sketch.type] }

    private let area = DrawingArea()
    var view: Widget { area }
    private var sketch = Sketch()

    init() {
        area.expandsHorizontally = true
        area.expandsVertically = true
        area.setAccessibleName(tr("Drawing"))
        area.onDraw { [weak self] cairo, width, height in
            guard let self else { return }
            SketchDrawing.draw(self.sketch, in: cairo, width: width, height: height)
        }
    }

    /// What a reading gave: the drawing, or why there is none.
    private typealias Reading = Result<Sketch, SketchError>

    /// Reads the file while the window is made.
    nonisolated static func prepare(_ preparation: PreviewPreparation) async -> (any Sendable)? {
        Reading { () throws(SketchError) in try SketchFile.read(preparation.url) }
    }

    func load(_ item: PreviewItem, type: DocumentType) async throws {
        try await load(item, type: type, prepared: nil)
    }

    func load(_ item: PreviewItem, type: DocumentType, prepared: PreparedPreview?) async throws {
        let reading: Reading
        if let taken = await prepared?.value as? Reading {
            reading = taken
        } else {
            let url = item.url
            reading = await Task.detached { Reading { () throws(SketchError) in try SketchFile.read(url) } }.value
        }
        switch reading {
        case .success(let read):
            sketch = read
            area.redraw()
        case .failure(let error):
            throw PreviewError(error.description)
        }
    }
}
