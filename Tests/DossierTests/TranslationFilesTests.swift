import Foundation
import XCTest

/// The translation template is what translators get: it must list every source file with a
/// translatable string, and hold every such string as the sources say it.
final class TranslationFilesTests: XCTestCase {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized

    /// The Swift files under Sources and Examples that call `tr(` or `trn(`.
    private func filesWithStrings() throws -> [String] {
        var found: [String] = []
        for top in ["Sources", "Examples"] {
            let folder = root.appendingPathComponent(top)
            let walker = try XCTUnwrap(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
            for case let url as URL in walker where url.pathExtension == "swift" {
                let text = try String(contentsOf: url, encoding: .utf8)
                if text.range(of: #"\btrn?\(""#, options: .regularExpression) != nil {
                    found.append(String(url.standardized.path.dropFirst(root.path.count + 1)))
                }
            }
        }
        return found.sorted()
    }

    func testPOTFILESListsEveryFileWithTranslatableStrings() throws {
        let listed = try String(contentsOf: root.appendingPathComponent("po/POTFILES"), encoding: .utf8)
            .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }.sorted()
        XCTAssertEqual(listed, try filesWithStrings(), "po/POTFILES is the list of files calling tr(): update it, then make pot")
    }

    /// The msgids of a .pot or .po file.
    private func messages(_ text: String) -> Set<String> {
        var ids = Set<String>()
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("msgid \"") {
                current = String(line.dropFirst(7).dropLast())
            } else if line.hasPrefix("\""), let partial = current {
                current = partial + line.dropFirst().dropLast()
            } else {
                if let id = current, !id.isEmpty { ids.insert(id) }
                current = nil
            }
        }
        if let id = current, !id.isEmpty { ids.insert(id) }
        return ids
    }

    func testTheTemplateHoldsEveryStringTheSourcesHave() throws {
        let fresh = FileManager.default.temporaryDirectory.appendingPathComponent("dossier-\(UUID().uuidString).pot")
        defer { try? FileManager.default.removeItem(at: fresh) }
        let xgettext = Process()
        xgettext.executableURL = URL(fileURLWithPath: "/usr/bin/xgettext")
        xgettext.currentDirectoryURL = root
        xgettext.arguments = ["--language=C", "--from-code=UTF-8", "--keyword=tr", "--keyword=trn:1,2",
                              "--files-from=po/POTFILES", "--output=\(fresh.path)"]
        try xgettext.run()
        xgettext.waitUntilExit()
        XCTAssertEqual(xgettext.terminationStatus, 0)
        let sources = messages(try String(contentsOf: fresh, encoding: .utf8))
        let template = messages(try String(contentsOf: root.appendingPathComponent("po/dossier.pot"), encoding: .utf8))
        XCTAssertGreaterThan(sources.count, 500)
        XCTAssertEqual(sources.subtracting(template).sorted(), [], "strings the template lacks: run make pot")
        XCTAssertEqual(template.subtracting(sources).sorted(), [], "strings no source has any more: run make pot")
    }
}
