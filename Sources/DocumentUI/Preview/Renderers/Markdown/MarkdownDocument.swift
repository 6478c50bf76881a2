import CGtk
import DocumentCore
import Foundation

/// A Markdown file made ready to show, off the main thread: its blocks with every inline
/// already written as Pango markup, and the local images it shows, decoded.
package struct MarkdownDocument: Sendable {
    indirect enum Block: Sendable {
        case heading(level: Int, markup: String)
        case paragraph([MarkdownPiece])
        case code(language: String?, text: String)
        case quote([Block])
        case list(ordered: Bool, start: Int, items: [Item])
        case table(header: [String], alignments: [MarkdownAlignment], rows: [[String]])
        case rule
    }

    struct Item: Sendable {
        var checked: Bool?
        var blocks: [Block]
    }

    var source: String
    var blocks: [Block]
    /// The decoded local images, by address (decoded in a decoder worker).
    var images: [URL: ImagePixels]
    /// The file's size when only its start was read.
    var truncatedSize: Int64?

    /// Read and rendered at most; the source view shows the same part.
    static let limit = 1 << 20
    /// Images decoded per document at most, and the widest an image is decoded at.
    static let imageLimit = 64
    static let imageWidth: Int32 = 1600

    /// Reads, parses and prepares the file at `url`, with its local pictures decoded unless
    /// `withPictures` is false (printing: WebKit draws them from the file).
    package static func load(_ url: URL, withPictures: Bool = true) throws(PreviewError) -> MarkdownDocument {
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw PreviewError(tr("The file could not be read: %s", String(cString: strerror(errno))))
        }
        defer { try? handle.close() }
        let size = (try? handle.seekToEnd()).map(Int64.init) ?? 0
        try? handle.seek(toOffset: 0)
        let data = (try? handle.read(upToCount: limit)) ?? Data()
        let source = TextEncoding.decode(data, isStartOfFile: size > Int64(limit)).text
        var parser = MarkdownBlockParser()
        let parsed = parser.parse(source)
        let inlines = MarkdownInlines(references: parser.references, base: url.deletingLastPathComponent())
        let blocks = parsed.map { prepare($0, inlines) }
        var images: [URL: ImagePixels] = [:]
        for source in localImages(blocks).prefix(withPictures ? imageLimit : 0) where images[source] == nil {
            if let pixels = decodeImage(source.path) { images[source] = pixels }
        }
        return MarkdownDocument(source: source, blocks: blocks, images: images,
                                truncatedSize: size > Int64(limit) ? size : nil)
    }

    private static func prepare(_ block: MarkdownBlock, _ inlines: MarkdownInlines) -> Block {
        switch block {
        case .heading(let level, let text): .heading(level: level, markup: inlines.markup(text))
        case .paragraph(let text): .paragraph(inlines.pieces(text))
        case .code(let language, let text): .code(language: language, text: text)
        case .quote(let blocks): .quote(blocks.map { prepare($0, inlines) })
        case .list(let ordered, let start, let items):
            .list(ordered: ordered, start: start,
                  items: items.map { Item(checked: $0.checked, blocks: $0.blocks.map { prepare($0, inlines) }) })
        case .table(let header, let alignments, let rows):
            .table(header: header.map(inlines.markup), alignments: alignments, rows: rows.map { $0.map(inlines.markup) })
        case .rule: .rule
        }
    }

    /// The file addresses of the images the blocks show, in order.
    private static func localImages(_ blocks: [Block]) -> [URL] {
        blocks.flatMap { block -> [URL] in
            switch block {
            case .paragraph(let pieces):
                pieces.compactMap { piece in
                    guard case .image(let image) = piece, let source = image.source, source.isFileURL else { return nil }
                    return source
                }
            case .quote(let inner): localImages(inner)
            case .list(_, _, let items): items.flatMap { localImages($0.blocks) }
            default: []
            }
        }
    }

    /// An image decoded no wider than `imageWidth` (its first frame), in a decoder worker; nil
    /// when it is not an image, is a decompression bomb, or cannot be decoded.
    private static func decodeImage(_ path: String) -> ImagePixels? {
        switch try? ImageDecoding.decodeNow(path, type: DocumentType(fileName: path), size: .width(imageWidth), still: true) {
        case .still(let image): image.pixels
        case .animation(let frames): frames.frames.first
        case nil: nil
        }
    }
}
