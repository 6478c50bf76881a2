/// A Markdown document as cmark-gfm parses it (CommonMark with GitHub's tables,
/// strikethrough, autolinks and task lists): the nodes a renderer draws, each with the facts
/// it needs. A decoder worker makes it (`MarkdownWorkers`) and sends it as bytes
/// (`encoded()`); the previewer's process reads them back, checking them
/// (`init(decoding:)`, `isWellFormed`), and draws it.
package struct MarkdownNode: Sendable, Equatable {
    package enum Kind: String, Sendable, CaseIterable {
        // Blocks.
        case document, quote, list, item, codeBlock, htmlBlock, paragraph, heading, rule, table, tableRow, tableCell
        // Inlines.
        case text, softBreak, lineBreak, code, htmlInline, emphasis, strong, strikethrough, link, image
    }

    /// How a table column's cells are aligned.
    package enum Alignment: String, Sendable, CaseIterable {
        case none, left, center, right
    }

    package var kind: Kind
    /// The text of a text, code or HTML node, and of a code block.
    package var literal: String?
    /// A link's or image's destination, as written (entities and escapes resolved).
    package var url: String?
    package var title: String?
    /// A heading's level, 1 to 6.
    package var level: Int?
    /// A fenced code block's info string (its language first).
    package var info: String?
    /// A list's kind, first number and whether its items are tight (no blank lines between).
    package var ordered: Bool?
    package var start: Int?
    package var tight: Bool?
    /// A task list item's box: nil for an ordinary item.
    package var checked: Bool?
    /// A table row of the header.
    package var isHeader: Bool?
    /// A table's columns.
    package var alignments: [Alignment]?
    package var children: [MarkdownNode]?

    package init(_ kind: Kind, literal: String? = nil, children: [MarkdownNode]? = nil) {
        self.kind = kind
        self.literal = literal
        self.children = children
    }

    /// The node's children (none for a leaf).
    package var content: [MarkdownNode] { children ?? [] }

    /// Containers nested deeper than this are flattened to their text by the worker, so that
    /// neither side recurses far on a file of 10,000 `>`.
    package static let depthLimit = 32

    /// Whether the tree keeps to what a worker makes: no deeper than `depthLimit` and its
    /// flattened text, headings of level 1 to 6, at most `nodeLimit` nodes. The previewer's process checks a worker's answer with it before use.
    package var isWellFormed: Bool {
        var count = 0
        return isWellFormed(depth: 0, count: &count)
    }

    /// The most nodes a document has: one per byte of the largest file shown, and then some.
    package static let nodeLimit = 4 << 20

    private func isWellFormed(depth: Int, count: inout Int) -> Bool {
        count += 1
        guard depth <= Self.depthLimit + 1, count <= Self.nodeLimit else { return false }
        if kind == .heading, !(1...6).contains(level ?? 0) { return false }
        return content.allSatisfy { $0.isWellFormed(depth: depth + 1, count: &count) }
    }

    /// The text of the node and its descendants, without markup: soft and hard breaks as spaces.
    package var plainText: String {
        switch kind {
        case .softBreak, .lineBreak: " "
        case .text, .code, .htmlInline: literal ?? ""
        default: content.map(\.plainText).joined()
        }
    }
}

/// Why Markdown could not be parsed: the worker's own reason, or how the request ended.
package struct MarkdownError: Error, Codable, Sendable, Equatable, CustomStringConvertible {
    package var description: String

    package init(_ description: String) { self.description = description }
}
