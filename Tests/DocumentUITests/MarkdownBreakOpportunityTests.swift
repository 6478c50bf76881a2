import Foundation
import XCTest

@testable import DocumentUI

/// Long Markdown blocks get a line-break opportunity (a zero-width space) every few hundred
/// characters, so that Pango never meets a run it cannot break (which it wraps in quadratic
/// time); the markup itself and short blocks stay as they are.
final class MarkdownBreakOpportunityTests: XCTestCase {
    private let space = "\u{200B}"

    /// The longest stretch of text between two zero-width spaces.
    private func longestRun(_ text: String) -> Int {
        text.components(separatedBy: space).map(\.count).max() ?? 0
    }

    func testShortMarkupIsLeftAsItIs() {
        let markup = "<b>short</b> " + String(repeating: "a", count: 1500)
        XCTAssertEqual(MarkdownWidgets.withBreakOpportunities(markup), markup)
    }

    func testARunWithoutSpacesIsBrokenEveryFewHundredCharacters() {
        let run = String(repeating: "a", count: 25_000)
        let broken = MarkdownWidgets.withBreakOpportunities(run)
        XCTAssertEqual(broken.replacingOccurrences(of: space, with: ""), run, "only zero-width spaces are added")
        XCTAssertLessThanOrEqual(longestRun(broken), 2 * MarkdownWidgets.breakEvery)
    }

    func testProseIsBrokenAfterItsSpacesOnly() {
        let prose = String(repeating: "Ã(â‚ words of a paragraph ", count: 400)
        let broken = MarkdownWidgets.withBreakOpportunities(prose)
        XCTAssertLessThanOrEqual(longestRun(broken), 2 * MarkdownWidgets.breakEvery)
        for piece in broken.components(separatedBy: space).dropLast() {
            XCTAssertTrue(piece.hasSuffix(" "), "a break goes after a space, never inside a word")
        }
    }

    func testTagsAndEntitiesStayWhole() {
        let link = "<a href=\"https://example.com/" + String(repeating: "x", count: 600) + "\">link</a>"
        let markup = String(repeating: "&amp;&lt;", count: 300) + link + String(repeating: "<i>b</i>", count: 300)
        let broken = MarkdownWidgets.withBreakOpportunities(markup)
        XCTAssertTrue(broken.contains(link), "the link's address is untouched")
        XCTAssertFalse(broken.contains("&amp\(space)") || broken.contains("<\(space)") || broken.contains("<i\(space)"))
        XCTAssertEqual(broken.replacingOccurrences(of: space, with: ""), markup)
    }
}
