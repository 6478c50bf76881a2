import Foundation
import XCTest

@testable import DocumentUI

/// The window state keyfile (`state.ini`): what Dossier writes reads back the same, and damaged
/// or odd values give the defaults, never another folder.
final class BrowserStateTests: XCTestCase {
    private func read(_ text: String) -> BrowserState { BrowserState(keyfile: Data(text.utf8)) }

    func testStateReadsBackWhatItWrote() {
        var state = BrowserState()
        state.width = 1200
        state.height = 800
        state.maximized = true
        state.location = .folder(URL(fileURLWithPath: "/home/ann/Documents with spaces", isDirectory: true))
        state.viewMode = .list
        state.sort = BrowserSort(key: .modified, reversed: true)
        state.showsHidden = true
        state.zoomLevel = 3
        XCTAssertEqual(read(state.keyfileText), state)
        for location: BrowserLocation in [.recents, .trash, .tag("rot, grün\nzwei"), .folder(URL(string: "sftp://host/srv/")!)] {
            state.location = location
            XCTAssertEqual(read(state.keyfileText), state, "\(location)")
        }
    }

    func testDamagedValuesGiveTheDefaults() {
        let state = read("[window]\nwidth=10\nheight=abc\nmaximized=perhaps\n[browser]\nview-mode=cards\nsort={\n")
        XCTAssertEqual(state, BrowserState())
        XCTAssertEqual(read("not a keyfile \u{0}\u{1}"), BrowserState())
    }

    /// `file:Documents` is not restored: it would name a folder relative to wherever Dossier
    /// was started, and read back differently every time it is written.
    func testRelativeFileLocationIsNotRestored() {
        XCTAssertNil(read("[browser]\nlocation=file:ow-hidden=true\n").location)
        XCTAssertNil(read("[browser]\nlocation=file:Documents\n").location)
        XCTAssertEqual(read("[browser]\nlocation=file:///home/ann/./Documents/\n").location,
                       .folder(URL(fileURLWithPath: "/home/ann/Documents", isDirectory: true)))
    }
}
