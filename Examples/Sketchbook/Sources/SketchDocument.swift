import DocumentCore
import Foundation

/// A sketch file open for editing: DocumentCore's `Document` does the coordinated reading and
/// writing, the atomic saves, autosave, and following the file; this class only turns the
/// drawing into bytes and back, and keeps the undo history of strokes.
///
/// The drawing is read by the document's queue (saving) and changed from the main thread
/// (drawing): a lock holds it. Nothing here waits on the disk.
final class SketchDocument: Document, @unchecked Sendable {
    // @unchecked: `drawing` and `undone` are touched only under `lock`.
    private let lock = NSLock()
    private var drawing = Sketch()
    private var undone: [Sketch.Stroke] = []

    /// Called on the main thread after the file was read again (another program changed it,
    /// or the user chose its version): the canvas redraws.
    var didReload: (@MainActor @Sendable () -> Void)?
    private var hasLoaded = false

    /// The drawing now.
    var sketch: Sketch { lock.withLock { drawing } }

    override func contents() throws -> Data {
        try lock.withLock { drawing }.encoded()
    }

    override func load(fromContents contents: Data, ofType type: DocumentType) throws {
        let read = try Sketch(reading: contents, name: fileURL.lastPathComponent)
        let reload = lock.withLock {
            drawing = read
            undone = []
            defer { hasLoaded = true }
            return hasLoaded
        }
        guard reload, let didReload else { return }
        DispatchQueue.main.async { didReload() }
    }

    // MARK: Edits (main thread); each is recorded off it, for autosave

    func add(_ stroke: Sketch.Stroke) {
        lock.withLock {
            drawing.strokes.append(stroke)
            undone = []
        }
        recordEdit()
    }

    /// Takes the last stroke back; false when there is none.
    @discardableResult
    func undo() -> Bool {
        let changed = lock.withLock { () -> Bool in
            guard let last = drawing.strokes.popLast() else { return false }
            undone.append(last)
            return true
        }
        if changed { recordEdit() }
        return changed
    }

    /// Puts back the last stroke taken back; false when there is none.
    @discardableResult
    func redo() -> Bool {
        let changed = lock.withLock { () -> Bool in
            guard let stroke = undone.popLast() else { return false }
            drawing.strokes.append(stroke)
            return true
        }
        if changed { recordEdit() }
        return changed
    }

    /// Called on the main thread once an edit is recorded: from then on the document has unsaved
    /// changes (an outside change asks instead of reloading) and autosaves.
    var editRecorded: (@MainActor @Sendable () -> Void)?

    /// `updateChangeCount` waits for the document's queue, which may be saving: not on the main thread.
    private func recordEdit() {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            updateChangeCount()
            guard let editRecorded else { return }
            DispatchQueue.main.async { editRecorded() }
        }
    }
}
