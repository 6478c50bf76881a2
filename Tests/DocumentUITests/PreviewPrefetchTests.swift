import CGtk
import DocumentCore
import DossierFixtures
import Foundation
import GtkSupport
import XCTest

@testable import DocumentUI

/// A renderer an app registers takes part in the prefetch through the same protocol as the
/// built-in ones: its work begins before the page exists, and the page gives it the result once.
final class PreviewPrefetchTests: XCTestCase {
    override func setUp() async throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            throw XCTSkip("no DISPLAY: UI tests run under `make test`, which starts Xvfb")
        }
    }

    /// An app's renderer for text that reads the file in `prepare` and shows what it was given.
    @MainActor
    final class PreparingRenderer: PreviewRenderer {
        nonisolated static let supportedTypes: [DocumentType] = [.text]
        let label = gtk_label_new(nil)!
        var view: Widget { Widget(gtkWidget: label) }
        private(set) var preparedText: String?

        nonisolated static func prepare(_ preparation: PreviewPreparation) async -> (any Sendable)? {
            "prepared: " + ((try? String(contentsOf: preparation.url, encoding: .utf8)) ?? "")
        }

        func load(_ item: PreviewItem, type: DocumentType) async throws {
            try await load(item, type: type, prepared: nil)
        }

        func load(_ item: PreviewItem, type: DocumentType, prepared: PreparedPreview?) async throws {
            preparedText = await prepared?.value as? String
            gtk_label_set_text(OpaquePointer(label), preparedText ?? "read by the page")
        }
    }

    func testAnAppsRendererPreparesAFirstItemAndItsPageTakesItOnce() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("note.txt", "a note\n")
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let registry = PreviewRendererRegistry(externalPreviewers: [])
            registry.register(PreparingRenderer.self)
            let prefetch = PreviewPrefetch(registry: registry)
            prefetch.start(file)
            var ahead: (any Sendable)??
            Task { @MainActor in ahead = .some(await prefetch.peekPrepared(for: file)) }
            XCTAssertTrue(spin { ahead != nil })
            XCTAssertEqual(ahead.flatMap { $0 } as? String, "prepared: a note\n", "prepared before any page exists")

            let page = PreviewPage(item: PreviewItem(url: file), prefetch: prefetch)
            page.start()
            XCTAssertTrue(spin { page.state == .ready })
            let renderer = try XCTUnwrap(page.renderer as? PreparingRenderer)
            XCTAssertEqual(renderer.preparedText, "prepared: a note\n", "the page gave the renderer its prepared value")

            let again = PreviewPage(item: PreviewItem(url: file), prefetch: prefetch)
            again.start()
            XCTAssertTrue(spin { again.state == .ready })
            XCTAssertNil(try XCTUnwrap(again.renderer as? PreparingRenderer).preparedText, "taken once")
        }
    }

    func testAValuePreparedForAnotherRendererIsLetGoAndThePageLoadsItsOwn() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("note.txt", "a note\n")
        try MainActor.assumeIsolated {
            XCTAssertTrue(TestDisplay.initialize())
            let prefetch = PreviewPrefetch(registry: PreviewRendererRegistry(externalPreviewers: []))
            prefetch.start(file)  // prepared by the built-in text renderer
            var taken: (any Sendable)??
            Task { @MainActor in taken = .some(await prefetch.takePrepared(for: file, by: PreparingRenderer.self)?.value) }
            XCTAssertTrue(spin { taken != nil })
            XCTAssertNil(taken.flatMap { $0 }, "another renderer's value is not given")
        }
    }
}
