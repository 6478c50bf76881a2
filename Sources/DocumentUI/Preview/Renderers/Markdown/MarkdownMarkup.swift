import DocumentCore
import Foundation

/// A run of a block's text as the widgets show it: Pango markup, or an image of its own.
enum MarkdownPiece: Sendable, Equatable {
    case markup(String)
    case image(MarkdownImage)
}

struct MarkdownImage: Sendable, Equatable {
    /// The image's address, resolved against the document's folder.
    var source: URL?
    var alternative: String
}

/// Writes a block's inline nodes (`MarkdownNode`, as cmark-gfm parsed them) as Pango markup.
/// Every piece of the file's text is escaped with `g_markup_escape_text`, so nothing in the
/// file becomes markup; raw HTML is shown as the text it is.
struct MarkdownMarkup: Sendable {
    /// The document's folder: relative links and images are resolved against it.
    let base: URL

    /// The inlines as markup with images given separately (top-level images only: an image
    /// inside a link or emphasis shows its alternative text).
    func pieces(_ inlines: [MarkdownNode]) -> [MarkdownPiece] {
        var pieces: [MarkdownPiece] = []
        var markup = ""
        func flush() {
            let trimmed = markup.trimmingCharacters(in: Self.spaces)
            if !trimmed.isEmpty { pieces.append(.markup(trimmed)) }
            markup = ""
        }
        for node in inlines {
            if node.kind == .image {
                flush()
                pieces.append(.image(MarkdownImage(source: resolve(node.url ?? ""), alternative: node.plainText)))
            } else {
                markup += render(node)
            }
        }
        flush()
        return pieces
    }

    /// The inlines as markup, images shown by their alternative text.
    func markup(_ inlines: [MarkdownNode]) -> String {
        inlines.map(render).joined()
    }

    private static let spaces = CharacterSet(charactersIn: " \t")

    /// How a code span starts in the markup.
    static let codeSpanOpening = "<span font_family=\"monospace\" bgcolor=\"#808080\" bgalpha=\"20%\">"

    private func render(_ node: MarkdownNode) -> String {
        switch node.kind {
        case .text, .htmlInline: escapeMarkup(node.literal ?? "")
        case .softBreak: " "  // the label reflows it
        case .lineBreak: "\n"
        case .code: Self.codeSpanOpening + escapeMarkup(node.literal ?? "") + "</span>"
        case .emphasis: "<i>\(markup(node.content))</i>"
        case .strong: "<b>\(markup(node.content))</b>"
        case .strikethrough: "<s>\(markup(node.content))</s>"
        case .image: "<i>\(escapeMarkup(node.plainText))</i>"
        case .link:
            "<a href=\"\(escapeMarkup(resolve(node.url ?? "")?.absoluteString ?? ""))\""
                + (node.title.map { $0.isEmpty ? "" : " title=\"\(escapeMarkup($0))\"" } ?? "")
                + ">" + markup(node.content) + "</a>"
        default: escapeMarkup(node.plainText)
        }
    }

    /// A link or image address: absolute as written, or relative to the document's folder.
    func resolve(_ destination: String) -> URL? {
        // A link to a heading in the same document: nothing to open.
        guard !destination.isEmpty, !destination.hasPrefix("#") else { return nil }
        if let colon = destination.firstIndex(of: ":"), Self.isScheme(destination[..<colon]) {
            return URL(string: destination)
        }
        let encoded = destination.addingPercentEncoding(withAllowedCharacters: .urlFragmentAllowed.union(CharacterSet(charactersIn: "%#"))) ?? destination
        return URL(string: encoded, relativeTo: base)?.absoluteURL
    }

    private static func isScheme(_ text: Substring) -> Bool {
        guard (2...32).contains(text.count), let first = text.first, first.isASCII, first.isLetter else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "." || $0 == "-") }
    }
}

/// How a table column's cells are aligned.
enum MarkdownAlignment: Sendable, Equatable {
    case leading, center, trailing

    init(_ alignment: MarkdownNode.Alignment) {
        switch alignment {
        case .center: self = .center
        case .right: self = .trailing
        case .left, .none: self = .leading
        }
    }
}
