import CGtk
import DocumentUI
import Foundation
import XCTest

final class DisplayTests: XCTestCase {
    func testDisplayOpensUnderXvfbAndLibadwaitaIsReady() throws {
        try MainActor.assumeIsolated {
            guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
                throw XCTSkip("no DISPLAY: UI tests run under `make test`, which starts Xvfb")
            }
            XCTAssertTrue(TestDisplay.initialize())
            XCTAssertTrue(Display.initialize(), "a second call answers the same without initializing again")
            XCTAssertNotNil(gdk_display_get_default())
            XCTAssertTrue(adw_is_initialized() != 0)
        }
    }
}
