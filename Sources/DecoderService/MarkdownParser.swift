import CGLib
import CMarkdown
import CSandbox
import DecoderWire
import DocumentCore
import Foundation

/// The worker's side of Markdown (`MarkdownWorkers` is the caller's): cmark-gfm parses the
/// UTF-8 text open at the request's input, and the tree goes back as `MarkdownNode`'s bytes in
/// a sealed memfd.
package enum MarkdownParser {
    /// Loads cmark-gfm; called before the worker's lock-down. A library that cannot be loaded
    /// is reported by each Markdown request, and the worker still serves the other formats.
    static func prepare() {
        _ = dossier_markdown_load(nil)
    }

    /// Parses the UTF-8 text open at `input`.
    static func perform(input: Int32) -> (DecoderReply, Int32?) {
        do throws(MarkdownError) {
            var text: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while text.count <= MarkdownWorkers.textLimit {
                let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                guard count >= 0 else { throw MarkdownError(String(cString: strerror(errno))) }
                if count == 0 { break }
                text += chunk[..<count]
            }
            guard text.count <= MarkdownWorkers.textLimit else { throw MarkdownError("the text is longer than the previewer shows") }
            let tree = try parse(text)
            guard let fd = tree.encoded().withUnsafeBytes({ SealedBlob.seal($0, name: "dossier-markdown-tree") })
            else {
                throw MarkdownError("no memory for the document")
            }
            return (DecoderReply(), fd)
        } catch {
            return (DecoderReply(failure: error), nil)
        }
    }

    /// The tree of the UTF-8 `text`, by cmark-gfm (the worker's side; the fuzzer calls it too).
    package static func parse(_ text: [UInt8]) throws(MarkdownError) -> MarkdownNode {
        var failure: UnsafeMutablePointer<CChar>?
        guard dossier_markdown_load(&failure) != 0 else {
            defer { g_free(failure) }
            throw MarkdownError(tr("cmark-gfm could not be loaded: %s", failure.map { String(cString: $0) } ?? "?"))
        }
        cmark_gfm_core_extensions_ensure_registered()
        guard let parser = cmark_parser_new(CMARK_OPT_VALIDATE_UTF8) else { throw MarkdownError("no memory for the parser") }
        defer { cmark_parser_free(parser) }
        for name in MarkdownWorkers.extensions {
            if let syntax = cmark_find_syntax_extension(name) { _ = cmark_parser_attach_syntax_extension(parser, syntax) }
        }
        text.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { cmark_parser_feed(parser, $0.baseAddress, $0.count) }
        }
        guard let document = cmark_parser_finish(parser) else { throw MarkdownError("no memory for the document") }
        defer { cmark_node_free(document) }
        return node(document, depth: 0)
    }

    /// `pointer`'s node with its children; a container past `MarkdownNode.depthLimit` is kept
    /// as its text only (a paragraph for a block, a text for an inline).
    private static func node(_ pointer: OpaquePointer, depth: Int) -> MarkdownNode {
        let type = cmark_node_get_type(pointer)
        // The extensions' nodes and task items are told by their type's name (only theirs is read).
        var name: String { cmark_node_get_type_string(pointer).map { String(cString: $0) } ?? "" }
        let isInline = type.rawValue & UInt32(CMARK_NODE_TYPE_MASK) == UInt32(CMARK_NODE_TYPE_INLINE)
        var node = MarkdownNode(.paragraph)
        switch type {
        case CMARK_NODE_DOCUMENT: node.kind = .document
        case CMARK_NODE_BLOCK_QUOTE: node.kind = .quote
        case CMARK_NODE_LIST:
            node.kind = .list
            node.ordered = cmark_node_get_list_type(pointer) == CMARK_ORDERED_LIST
            node.start = Int(cmark_node_get_list_start(pointer))
            node.tight = cmark_node_get_list_tight(pointer) != 0
        case CMARK_NODE_ITEM:
            node.kind = .item
            if name == "tasklist" { node.checked = cmark_gfm_extensions_get_tasklist_item_checked(pointer) }
        case CMARK_NODE_CODE_BLOCK:
            node.kind = .codeBlock
            node.literal = text(cmark_node_get_literal(pointer))
            node.info = text(cmark_node_get_fence_info(pointer))
        case CMARK_NODE_HTML_BLOCK:
            node.kind = .htmlBlock
            node.literal = text(cmark_node_get_literal(pointer))
        case CMARK_NODE_PARAGRAPH: node.kind = .paragraph
        case CMARK_NODE_HEADING:
            node.kind = .heading
            node.level = Int(cmark_node_get_heading_level(pointer))
        case CMARK_NODE_THEMATIC_BREAK: node.kind = .rule
        case CMARK_NODE_TEXT: node = MarkdownNode(.text, literal: text(cmark_node_get_literal(pointer)))
        case CMARK_NODE_SOFTBREAK: node.kind = .softBreak
        case CMARK_NODE_LINEBREAK: node.kind = .lineBreak
        case CMARK_NODE_CODE: node = MarkdownNode(.code, literal: text(cmark_node_get_literal(pointer)))
        case CMARK_NODE_HTML_INLINE: node = MarkdownNode(.htmlInline, literal: text(cmark_node_get_literal(pointer)))
        case CMARK_NODE_EMPH: node.kind = .emphasis
        case CMARK_NODE_STRONG: node.kind = .strong
        case CMARK_NODE_LINK, CMARK_NODE_IMAGE:
            node.kind = type == CMARK_NODE_LINK ? .link : .image
            node.url = text(cmark_node_get_url(pointer))
            node.title = text(cmark_node_get_title(pointer))
        default:
            switch name {
            case "table":
                node.kind = .table
                let columns = Int(cmark_gfm_extensions_get_table_columns(pointer))
                let alignments = cmark_gfm_extensions_get_table_alignments(pointer)
                node.alignments = (0..<columns).map { column in
                    switch alignments?[column] {
                    case UInt8(ascii: "l"): .left
                    case UInt8(ascii: "c"): .center
                    case UInt8(ascii: "r"): .right
                    default: MarkdownNode.Alignment.none
                    }
                }
            case "table_header", "table_row":
                node.kind = .tableRow
                node.isHeader = cmark_gfm_extensions_get_table_row_is_header(pointer) != 0
            case "table_cell": node.kind = .tableCell
            case "strikethrough": node.kind = .strikethrough
            default:
                // A node of no kind shown here: its text, in the place it has.
                return flattened(pointer, isInline: isInline)
            }
        }
        guard var child = cmark_node_first_child(pointer) else { return node }
        guard depth < MarkdownNode.depthLimit else { return flattened(pointer, isInline: isInline) }
        var children: [MarkdownNode] = [self.node(child, depth: depth + 1)]
        while let next = cmark_node_next(child) {
            children.append(self.node(next, depth: depth + 1))
            child = next
        }
        node.children = children
        return node
    }

    /// `pointer`'s node as its text alone: a text node for an inline, a paragraph for a block.
    private static func flattened(_ pointer: OpaquePointer, isInline: Bool) -> MarkdownNode {
        let text = MarkdownNode(.text, literal: plainText(pointer))
        return isInline ? text : MarkdownNode(.paragraph, children: [text])
    }

    /// The text of `pointer`'s node and all below it, walked without recursion.
    private static func plainText(_ pointer: OpaquePointer) -> String {
        guard let iterator = cmark_iter_new(pointer) else { return "" }
        defer { cmark_iter_free(iterator) }
        var result = ""
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            switch cmark_node_get_type(node) {
            case CMARK_NODE_TEXT, CMARK_NODE_CODE, CMARK_NODE_CODE_BLOCK, CMARK_NODE_HTML_INLINE, CMARK_NODE_HTML_BLOCK:
                result += text(cmark_node_get_literal(node)) ?? ""
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK, CMARK_NODE_PARAGRAPH, CMARK_NODE_HEADING, CMARK_NODE_ITEM:
                if !result.isEmpty, result.last != " " { result += " " }
            default: break
            }
        }
        return result
    }

    private static func text(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
