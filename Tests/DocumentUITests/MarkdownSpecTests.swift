import DocumentCore
import Foundation
import XCTest

@testable import DocumentUI

/// The examples of the GitHub Flavored Markdown spec (cmark-gfm's `test/spec.txt`), through the
/// path the previewer and printing take: the text to a decoder worker, where cmark-gfm parses
/// it, the tree back, and Dossier's HTML writer. Every example that needs no raw HTML (which
/// Dossier writes as text, never as markup) gives the spec's HTML exactly, but where GitHub's
/// extensions, which the previewer always parses with, change it: the spec gives a plain
/// example's HTML without them. There the oracle is Debian's `cmark-gfm` with the same
/// extensions.
final class MarkdownSpecTests: XCTestCase {
    /// One example: its number in the spec, the section, the Markdown and the HTML it gives.
    struct Example {
        var number: Int
        var section: String
        var markdown: String
        var html: String
        var isDisabled: Bool
    }

    static func examples() throws -> [Example] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/gfm-spec/spec.txt").standardized
        let fence = String(repeating: "`", count: 32)
        var examples: [Example] = []
        var section = ""
        var current: (markdown: [Substring], html: [Substring], inHTML: Bool, disabled: Bool)?
        for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
            if var example = current {
                if line == fence {
                    // The spec writes a tab as →.
                    func text(_ lines: [Substring]) -> String {
                        lines.map { $0 + "\n" }.joined().replacingOccurrences(of: "→", with: "\t")
                    }
                    examples.append(Example(number: examples.count + 1, section: section, markdown: text(example.markdown),
                                            html: text(example.html), isDisabled: example.disabled))
                    current = nil
                } else if line == ".", !example.inHTML {
                    example.inHTML = true
                    current = example
                } else {
                    if example.inHTML { example.html.append(line) } else { example.markdown.append(line) }
                    current = example
                }
            } else if line.hasPrefix(fence + " example") {
                current = ([], [], false, line.hasSuffix("disabled"))
            } else if line.hasPrefix("#") {
                section = line.drop { $0 == "#" || $0 == " " }.description
            }
        }
        return examples
    }

    /// `markdown` as Debian's cmark-gfm writes it with the previewer's extensions.
    private static func cmark(_ markdown: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/cmark-gfm")
        process.arguments = MarkdownWorkers.extensions.flatMap { ["--extension", $0] }
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(markdown.utf8))
        try input.fileHandleForWriting.close()
        let html = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: html, as: UTF8.self)
    }

    private static func hasRawHTML(_ node: MarkdownNode) -> Bool {
        node.kind == .htmlBlock || node.kind == .htmlInline || node.content.contains(where: hasRawHTML)
    }

    func testTheSpecsExamplesGiveTheSpecsHTML() throws {
        let examples = try Self.examples()
        XCTAssertGreaterThan(examples.count, 650, "the spec was read")
        var compared = 0, rawHTML = 0, oracle = 0
        var failures: [String] = []
        for example in examples where !example.isDisabled {
            let tree = try MarkdownWorkers.parse(example.markdown)
            if Self.hasRawHTML(tree) {
                rawHTML += 1
                continue
            }
            compared += 1
            let html = MarkdownDocument.html(tree)
            guard html != example.html else { continue }
            oracle += 1
            if html != (try Self.cmark(example.markdown)) {
                failures.append("example \(example.number) (\(example.section)):\n\(example.markdown)--- expected:\n\(example.html)--- got:\n\(html)")
            }
        }
        print("MarkdownSpecTests: \(compared) examples compared, \(rawHTML) with raw HTML left out, \(failures.count) differ")
        XCTAssertEqual(oracle, 5, "the plain examples GitHub's bare links change: 610, 614, 616, 619 and 620")
        XCTAssertEqual(failures, [], "\(failures.count) of \(compared) examples differ")
        XCTAssertGreaterThan(compared, 550)
    }
}
