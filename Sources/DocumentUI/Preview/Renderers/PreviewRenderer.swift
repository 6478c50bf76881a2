import CGtk
import DocumentCore
import Foundation

/// Draws one kind of item in the previewer: the preview extension of Linux. A renderer is
/// made for one item, shows it in `view`, and loads it in `load(_:type:)`, doing its heavy
/// work (decoding, parsing, file I/O) off the main thread.
@MainActor
public protocol PreviewRenderer: AnyObject {
    /// The types this renderer shows. For an item, the renderer naming the nearest type in
    /// the item's conformance chain wins (a concrete type beats a family or group).
    static var supportedTypes: [DocumentType] { get }

    init()

    /// The widget that shows the item.
    var view: Widget { get }

    /// Loads `item` into `view`.
    /// - Throws: `PreviewError` with a message for the error page.
    func load(_ item: PreviewItem, type: DocumentType) async throws

    /// Zooms, for renderers that can (images, PDF); others ignore it.
    func zoom(_ change: ZoomChange)

    /// Copies the selection (or the whole item, for an image) to the clipboard; false when
    /// there is nothing to copy.
    func copy() -> Bool
}

extension PreviewRenderer {
    public func zoom(_ change: ZoomChange) {}
    public func copy() -> Bool { false }
}

public enum ZoomChange: Sendable {
    case zoomIn, zoomOut, fit, actualSize
}

/// Why an item could not be previewed, as the error page says it.
public struct PreviewError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The renderers available, built-in and registered by the app.
@MainActor
public final class PreviewRendererRegistry {
    public static let shared = PreviewRendererRegistry()

    private var renderers: [any PreviewRenderer.Type] = [
        ImageRenderer.self, PDFRenderer.self, TextRenderer.self, MarkdownRenderer.self, TableRenderer.self,
        ArchiveRenderer.self, MediaRenderer.self, FontRenderer.self,
        FolderRenderer.self, InfoRenderer.self,
    ]

    /// Adds a renderer; a later registration wins over an earlier one for the same type.
    public func register(_ renderer: any PreviewRenderer.Type) {
        renderers.insert(renderer, at: 0)
    }

    /// The renderer for `type`: the one naming the type itself, then a family or group the
    /// type belongs to (`image/*`, source code), then the nearest declared supertype; the
    /// catch-all `application/octet-stream` last of all.
    public func renderer(for type: DocumentType) -> any PreviewRenderer.Type {
        let chain = type.conformanceChain
        var best: (score: Int, renderer: any PreviewRenderer.Type)?
        for renderer in renderers {
            for supported in renderer.supportedTypes {
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
                if best == nil || score < best!.score { best = (score, renderer) }
            }
        }
        return best?.renderer ?? InfoRenderer.self
    }
}
