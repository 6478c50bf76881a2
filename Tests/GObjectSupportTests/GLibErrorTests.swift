import CGLib
import Dispatch
import Foundation
import GObjectSupport
import XCTest

final class GLibErrorTests: XCTestCase {
    func testGErrorBecomesASwiftError() {
        let file = g_file_new_for_path("/nonexistent/dossier-test")
        defer { unref(file) }
        var contents: UnsafeMutablePointer<CChar>?
        XCTAssertThrowsError(try withGError { g_file_load_contents(file, nil, &contents, nil, nil, $0) }) { error in
            let glibError = error as? GLibError
            XCTAssertNotNil(glibError)
            XCTAssertTrue(glibError?.isIOError(G_IO_ERROR_NOT_FOUND) ?? false)
            XCTAssertTrue(glibError?.message.contains("No such file") ?? false, glibError?.message ?? "")
        }
    }
}

