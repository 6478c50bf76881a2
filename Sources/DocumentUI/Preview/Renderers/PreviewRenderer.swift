import CGtk
import DocumentCore
import Foundation
import GtkSupport

/// Draws one kind of item in the previewer: the preview extension of Linux. A renderer is
/// made for one item, shows it in `view`, and loads it in `load(_:type:)`, doing its heavy
/// work (decoding, parsing, file I/O) off the main thread.
@MainActor
public protocol PreviewRenderer: AnyObject {
    /// The types this renderer shows. For an item, the renderer naming the nearest type in
    /// the item's conformance chain wins (a concrete type beats a family or group).
    nonisolated static var supportedTypes: [DocumentType] { get }

    /// Whether this renderer can show items of `type`, one of the types `supportedTypes` covers
    /// (a renderer of `image/*` that reads only some pictures says no to the others, which then go
    /// to the next renderer, or the information page). Asked on any thread. The default is true.
    nonisolated static func canShow(_ type: DocumentType) -> Bool

    /// Makes the renderer and its empty `view`; the registry makes one per item shown.
    init()

    /// The widget that shows the item.
    var view: Widget { get }

    /// Loads `item` into `view`.
    /// - Throws: `PreviewError` with a message for the error page.
    func load(_ item: PreviewItem, type: DocumentType) async throws

    /// Begins work on an item that can start before its page exists, when only its type and
    /// the window's size are known (the previewer service's first item, while GTK starts):
    /// decoding, reading or parsing off the main thread. The value returned reaches the
    /// renderer made for that item once, through `load(_:type:prepared:)`; one no page takes
    /// is given to `discard(prepared:)`. The default prepares nothing.
    nonisolated static func prepare(_ preparation: PreviewPreparation) async -> (any Sendable)?

    /// Lets go of a value `prepare(_:)` returned that no page took (a stream, a drawing held).
    /// The default does nothing.
    static func discard(prepared: any Sendable)

    /// Loads `item` into `view`, with the work `prepare(_:)` began for it when the previewer
    /// began it before the page existed (nil otherwise): read what the value depends on (the
    /// window's size) first, then await `prepared.value`. The default ignores it and calls
    /// `load(_:type:)`.
    /// - Throws: `PreviewError` with a message for the error page.
    func load(_ item: PreviewItem, type: DocumentType, prepared: PreparedPreview?) async throws

    /// Zooms, for renderers that can (images, PDF); others ignore it.
    func zoom(_ change: ZoomChange)

    /// Copies the selection (or the whole item, for an image) to the clipboard; false when
    /// there is nothing to copy.
    func copy() -> Bool

    /// Where the renderer sends links the user activates in the item (PDF, HTML, Markdown):
    /// the controller asks its delegate, then opens them in the default application.
    func setLinkHandler(_ handler: @escaping @MainActor (URL) -> Void)

    /// Where the renderer reports that the item can no longer be shown after it loaded (the
    /// decoder worker drawing a PDF's pages stopped): the page then shows its error page.
    func setFailureHandler(_ handler: @escaping @MainActor (PreviewError) -> Void)
}

extension PreviewRenderer {
    public nonisolated static func canShow(_ type: DocumentType) -> Bool { true }
    public nonisolated static func prepare(_ preparation: PreviewPreparation) async -> (any Sendable)? { nil }
    public static func discard(prepared: any Sendable) {}
    public func load(_ item: PreviewItem, type: DocumentType, prepared: PreparedPreview?) async throws {
        try await load(item, type: type)
    }
    public func zoom(_ change: ZoomChange) {}
    public func copy() -> Bool { false }
    public func setLinkHandler(_ handler: @escaping @MainActor (URL) -> Void) {}
    public func setFailureHandler(_ handler: @escaping @MainActor (PreviewError) -> Void) {}
}

/// A zoom the previewer asks of its renderer (the `+`, `-`, `0` and `1` keys, and pinching).
public enum ZoomChange: Sendable {
    /// Larger by one step, smaller by one step, the whole item fitted in the window (`0`), or its
    /// actual size (`1`).
    case zoomIn, zoomOut, fit, actualSize
}

/// Why an item could not be previewed, as the error page says it.
public struct PreviewError: Error, Sendable, CustomStringConvertible {
    /// What the error page says, already translated.
    public let message: String
    /// Makes an error with a message a person can act on, already translated.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The renderers available: built-in, registered by the app, and the installed external
/// previewers (`.previewer` files). Renderers are made on the main thread; the choice of one
/// for a type may be made on any (the previewer's prefetch).
public final class PreviewRendererRegistry: Sendable {
    /// The registry the previewer uses.
    public static let shared = PreviewRendererRegistry()

    private enum Entry: Sendable {
        case renderer(any PreviewRenderer.Type)
        case external(ExternalPreviewer)

        var supportedTypes: [DocumentType] {
            switch self {
            case .renderer(let type): type.supportedTypes
            case .external(let previewer): previewer.types
            }
        }
    }

    private let entries: Locked<[Entry]>

    init(externalPreviewers: [ExternalPreviewer] = ExternalPreviewer.installed()) {
        // Installed previewers come before the built-in renderers: for the same type they win.
        // On a tie (a .docx is both a word-processing document and a zip), earlier wins.
        entries = Locked(externalPreviewers.map(Entry.external) + [
            .renderer(ImageRenderer.self), .renderer(PDFRenderer.self), .renderer(HTMLRenderer.self),
            .renderer(OfficeRenderer.self), .renderer(MarkdownRenderer.self), .renderer(TableRenderer.self),
            .renderer(TextRenderer.self), .renderer(CompressedDocumentRenderer.self), .renderer(ArchiveRenderer.self),
            .renderer(MediaRenderer.self),
            .renderer(FontRenderer.self), .renderer(FolderRenderer.self), .renderer(InfoRenderer.self),
        ])
    }

    /// Adds a renderer; a later registration wins over an earlier one for the same type.
    public func register(_ renderer: any PreviewRenderer.Type) {
        entries.withLock { $0.insert(.renderer(renderer), at: 0) }
    }

    /// A renderer for `type`: the one naming the type itself, then a family or group the
    /// type belongs to (`image/*`, source code), then the nearest declared supertype; the
    /// catch-all `application/octet-stream` last of all.
    @MainActor
    public func makeRenderer(for type: DocumentType) -> any PreviewRenderer {
        switch bestEntry(for: type) {
        case .external(let previewer):
            let renderer = ExternalPreviewRenderer()
            renderer.previewer = previewer
            return renderer
        case .renderer(let rendererType):
            return rendererType.init()
        case nil:
            return InfoRenderer()
        }
    }

    /// True when something besides the info page shows `type`.
    public func hasContentRenderer(for type: DocumentType) -> Bool {
        if case .renderer(let rendererType) = bestEntry(for: type), rendererType == InfoRenderer.self { return false }
        return bestEntry(for: type) != nil
    }

    /// The built-in (or registered) renderer type that shows `type`; nil when an installed
    /// external previewer does, or nothing does.
    func rendererType(for type: DocumentType) -> (any PreviewRenderer.Type)? {
        if case .renderer(let rendererType) = bestEntry(for: type) { return rendererType }
        return nil
    }

    private func bestEntry(for type: DocumentType) -> Entry? {
        let chain = type.conformanceChain
        var best: (score: Int, entry: Entry)?
        for entry in entries.withLock({ $0 }) {
            if case .renderer(let renderer) = entry, !renderer.canShow(type) { continue }
            for supported in entry.supportedTypes {
                let score: Int
                if supported == .data {
                    score = 10_000
                } else if let index = chain.firstIndex(of: supported) {
                    score = index * 2
                } else if supported.isAbstract && type.conforms(to: supported) {
                    score = 1
                } else {
                    continue
                }
                if best == nil || score < best!.score { best = (score, entry) }
            }
        }
        return best?.entry
    }
}
