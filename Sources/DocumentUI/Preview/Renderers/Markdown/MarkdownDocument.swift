import CGtk
import DocumentCore
import Foundation

/// A Markdown file made ready to show, off the main thread: its blocks with every inline
/// already written as Pango markup, and the local images it shows, decoded.
package struct MarkdownDocument: Sendable {
    indirect enum Block: Sendable, Equatable {
        case heading(level: Int, markup: String)
        case paragraph([MarkdownPiece])
        case code(language: String?, text: String)
        case quote([Block])
        case list(ordered: Bool, start: Int, items: [Item])
        case table(header: [String], alignments: [MarkdownAlignment], rows: [[String]])
        case rule
    }

    struct Item: Sendable, Equatable {
        var checked: Bool?
        var blocks: [Block]
    }

    var source: String
    /// The document as cmark-gfm parsed it (printing writes it as HTML).
    var tree: MarkdownNode
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
        guard let handle = FileHandle(forReadingAt: url.rawPath) else {
            throw PreviewError(tr("The file could not be read: %s", String(cString: strerror(errno))))
        }
        defer { try? handle.close() }
        let size = (try? handle.seekToEnd()).map(Int64.init) ?? 0
        try? handle.seek(toOffset: 0)
        let data = (try? handle.read(upToCount: limit)) ?? Data()
        let source = TextEncoding.decode(data, isStartOfFile: size > Int64(limit)).text
        let tree: MarkdownNode
        do { tree = try MarkdownWorkers.parse(source) } catch {
            throw PreviewError(tr("The Markdown could not be read: %s", error.description))
        }
        return MarkdownDocument(source: source, tree: tree, base: url.deletingLastPathComponent(), withPictures: withPictures,
                                truncatedSize: size > Int64(limit) ? size : nil)
    }

    /// The document of `source`, parsed as `tree`, whose relative addresses are in `base`; with
    /// its local pictures decoded unless `withPictures` is false.
    package init(source: String, tree: MarkdownNode, base: URL, withPictures: Bool, truncatedSize: Int64? = nil) {
        self.source = source
        self.tree = tree
        blocks = Self.prepare(tree.content, MarkdownMarkup(base: base))
        images = [:]
        for picture in Self.localImages(blocks).prefix(withPictures ? Self.imageLimit : 0) where images[picture] == nil {
            if let pixels = Self.decodeImage(picture.rawPath) { images[picture] = pixels }
        }
        self.truncatedSize = truncatedSize
    }

    /// The blocks the widgets show for `nodes`: inline text written as markup, raw HTML shown as
    /// the text it is.
    private static func prepare(_ nodes: [MarkdownNode], _ markup: MarkdownMarkup) -> [Block] {
        nodes.compactMap { node -> Block? in
            switch node.kind {
            case .heading: return .heading(level: node.level ?? 1, markup: markup.markup(node.content))
            case .paragraph: return .paragraph(markup.pieces(node.content))
            case .codeBlock:
                var text = node.literal ?? ""
                if text.hasSuffix("\n") { text.removeLast() }
                let language = (node.info ?? "").split(separator: " ", maxSplits: 1).first.map(String.init)
                return .code(language: language, text: text)
            case .htmlBlock:
                let text = (node.literal ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
                let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                return .paragraph([.markup(escapeMarkup(lines.joined(separator: " ")))])
            case .quote: return .quote(prepare(node.content, markup))
            case .list:
                return .list(ordered: node.ordered ?? false, start: node.start ?? 1,
                             items: node.content.map { Item(checked: $0.checked, blocks: prepare($0.content, markup)) })
            case .table:
                let columns = node.alignments ?? []
                let rows = node.content.map { row in
                    (0..<columns.count).map { $0 < row.content.count ? markup.markup(row.content[$0].content) : "" }
                }
                return .table(header: rows.first ?? [], alignments: columns.map(MarkdownAlignment.init),
                              rows: Array(rows.dropFirst()))
            case .rule: return .rule
            default: return nil
            }
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
    private static func decodeImage(_ path: FileSystemPath) -> ImagePixels? {
        switch try? ImageDecoding.decodeNow(path, type: DocumentType(fileName: path.nameForMatching), size: .width(imageWidth), still: true) {
        case .still(let image): image.pixels
        case .animation(let frames): frames.frames.first
        case nil: nil
        }
    }
}
