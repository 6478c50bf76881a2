import DocumentCore
import DossierFixtures
import Foundation
import XCTest

/// Opening documents through the one launch path, with apps read from desktop entries in a
/// temporary folder (not installed, so the tests do not depend on the machine's apps).
final class DocumentLauncherTests: XCTestCase {
    private var folder: TemporaryFolder!
    private let registry = ApplicationRegistry()

    override func setUpWithError() throws {
        folder = try TemporaryFolder("dossier-launcher")
        // Each start appends a line: the annotation it saw, then its arguments.
        try folder.write("bin/record", """
            #!/bin/sh
            line="annotation=${DOSSIER_ANNOTATION:-none}"
            for argument in "$@"; do line="$line\t$argument"; done
            printf '%s\\n' "$line" >> "\(folder.url.path)/launches.log"

            """, mode: 0o755)
    }

    override func tearDown() {
        folder = nil
    }

    private func app(_ id: String, types: [String] = ["image/png"]) throws -> Application {
        let file = try folder.write("apps/\(id).desktop", """
            [Desktop Entry]
            Type=Application
            Name=\(id.capitalized)
            Exec=\(folder.url.path)/bin/record %F
            MimeType=\(types.map { $0 + ";" }.joined())

            """)
        return try XCTUnwrap(registry.application(desktopFile: file.path), "\(id) is read from its desktop entry")
    }

    private func launches(waitingFor count: Int) -> [[String]] {
        let log = folder.url.appendingPathComponent("launches.log")
        var lines: [[String]] = []
        let deadline = Date().addingTimeInterval(10)
        repeat {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            lines = text.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
            if lines.count >= count { break }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return lines
    }

    func testCommonApplicationsKeepTheFirstListsOrder() throws {
        let (a, b, c, d) = (try app("alpha"), try app("bravo"), try app("charlie"), try app("delta"))
        let ids = { (apps: [Application]) in apps.map(\.id) }
        XCTAssertEqual(ids(ApplicationRegistry.common([[c, a, b], [a, c], [d, a, c]])), [c.id, a.id])
        XCTAssertEqual(ids(ApplicationRegistry.common([[b, a]])), [b.id, a.id], "one list is itself")
        XCTAssertEqual(ids(ApplicationRegistry.common([[a, b], [c, d]])), [], "nothing opens both")
        XCTAssertEqual(ids(ApplicationRegistry.common([])), [])
    }

    func testAnAppGetsTheFilesTogetherAndTheAnnotationInItsEnvironment() throws {
        let viewer = try app("viewer")
        let first = try folder.write("docs/first photo.png", bytes: SampleFiles.png)
        let second = try folder.write("docs/second.png", bytes: SampleFiles.png)
        let launcher = DocumentLauncher(registry: registry, recents: nil)
        let outcome = launcher.open([first.path, second.path], with: viewer, annotation: "from a test")
        XCTAssertEqual(outcome.problems, [])
        XCTAssertEqual(outcome.launched.map(\.application.id), [viewer.id])
        XCTAssertEqual(launches(waitingFor: 1), [["annotation=from a test", first.path, second.path]])
    }

    func testWithoutAnAnnotationNothingIsSet() throws {
        let viewer = try app("viewer")
        let file = try folder.write("a.png", bytes: SampleFiles.png)
        let outcome = DocumentLauncher(registry: registry, recents: nil).open([file.path], with: viewer)
        XCTAssertEqual(outcome.problems, [])
        XCTAssertEqual(launches(waitingFor: 1), [["annotation=none", file.path]])
    }

    func testAMissingFileIsAProblemAndTheOthersStillOpen() throws {
        let viewer = try app("viewer")
        let file = try folder.write("a.png", bytes: SampleFiles.png)
        let missing = folder.url.appendingPathComponent("gone.png").path
        let outcome = DocumentLauncher(registry: registry, recents: nil).open([missing, file.path], with: viewer)
        XCTAssertEqual(outcome.problems, [.item(.notFound(name: "gone.png"))])
        XCTAssertEqual(outcome.launched.first?.items.map(\.path), [file.path])
        XCTAssertEqual(launches(waitingFor: 1), [["annotation=none", file.path]])
    }

    func testOpenedItemsAreRecordedInRecents() throws {
        let viewer = try app("viewer")
        let file = try folder.write("a.png", bytes: SampleFiles.png)
        let home = folder.url.appendingPathComponent("home")
        let recents = RecentDocuments(directories: UserDirectories(home: home, configHome: home, dataHome: home))
        let outcome = DocumentLauncher(registry: registry, recents: recents).open([file.path], with: viewer)
        XCTAssertNil(outcome.recentsProblem)
        XCTAssertEqual(try recents.items().map(\.uri), [file.absoluteString])
    }
}
