import DocumentCore
import Foundation
import XCTest

@testable import DocumentUI

/// The interaction controller's description of its documents and what it offers, without a
/// display (menus and windows are tested through the real app in DossierTests).
final class DocumentInteractionControllerTests: XCTestCase {
    func testNameTypeAndIconsComeFromTheFileUntilSet() throws {
        try MainActor.assumeIsolated {
            let controller = DocumentInteractionController(url: URL(fileURLWithPath: "/tmp/report.pdf"))
            XCTAssertEqual(controller.name, "report.pdf")
            XCTAssertEqual(controller.documentType, DocumentType(mimeType: "application/pdf"))
            XCTAssertEqual(controller.iconNames, DocumentType(mimeType: "application/pdf").iconNames)

            controller.name = "Quarterly figures.txt"
            XCTAssertEqual(controller.name, "Quarterly figures.txt")
            XCTAssertEqual(controller.documentType, DocumentType(mimeType: "application/pdf"), "a new name keeps the type")

            controller.documentType = DocumentType(mimeType: "text/markdown")
            XCTAssertEqual(controller.iconNames, DocumentType(mimeType: "text/markdown").iconNames, "icons follow the set type")
            controller.iconNames = ["starred"]
            XCTAssertEqual(controller.iconNames, ["starred"])
            let first = try XCTUnwrap(controller.iconNames.first)
            XCTAssertEqual(first, "starred")
        }
    }

    func testSeveralDocumentsAreNamedByTheirCountAndOfferOnlyWhatAppliesToMany() {
        MainActor.assumeIsolated {
            let controller = DocumentInteractionController(urls: [URL(fileURLWithPath: "/tmp/a.png"), URL(fileURLWithPath: "/tmp/b.txt")])
            XCTAssertEqual(controller.name, "2 items")
            XCTAssertEqual(controller.url, URL(fileURLWithPath: "/tmp/a.png"))
            XCTAssertTrue(controller.canPerformByDefault(.open))
            XCTAssertTrue(controller.canPerformByDefault(.moveToTrash))
            XCTAssertFalse(controller.canPerformByDefault(.properties), "properties describe one document")
            XCTAssertFalse(controller.canPerformByDefault(.rename), "renaming is the host's, inline")
        }
    }

    func testHostOnlyActionsNeedTheDelegateAndCustomActionsTheirHandler() {
        MainActor.assumeIsolated {
            let controller = DocumentInteractionController(url: URL(fileURLWithPath: "/tmp/a.png"))
            XCTAssertTrue(controller.canPerformByDefault(.print), "Dossier prints pictures itself")
            XCTAssertFalse(DocumentInteractionController(url: URL(fileURLWithPath: "/tmp/a.zip")).canPerformByDefault(.print),
                           "but not archives")
            XCTAssertFalse(controller.canPerform(.rename))
            let host = Host()
            controller.delegate = host
            XCTAssertTrue(controller.canPerform(.rename), "the delegate offers it")
            controller.customActions = [
                DocumentBrowserAction(identifier: "send", title: "Send", handler: { _ in }),
                DocumentBrowserAction(identifier: "ask", title: "Ask"),
            ]
            XCTAssertTrue(controller.canPerformByDefault(.custom("send")))
            XCTAssertFalse(controller.canPerformByDefault(.custom("ask")), "no handler: only the delegate can run it")
            controller.perform(.rename)
            XCTAssertEqual(host.performed, [.rename])
        }
    }

    func testBrowserActionsApplyToTheirTypesAndCounts() {
        let images = DocumentBrowserAction(identifier: "rotate", title: "Rotate", supportedTypes: [DocumentType(mimeType: "image/*")],
                                           supportsMultipleItems: true)
        let png = DocumentType(mimeType: "image/png"), text = DocumentType(mimeType: "text/plain")
        XCTAssertTrue(images.applies(to: [png]))
        XCTAssertTrue(images.applies(to: [png, png]))
        XCTAssertFalse(images.applies(to: [png, text]))
        let single = DocumentBrowserAction(identifier: "sign", title: "Sign")
        XCTAssertTrue(single.applies(to: [text]), "no types: any type")
        XCTAssertFalse(single.applies(to: [text, text]), "one item only")
        XCTAssertFalse(single.applies(to: []))
    }
}

@MainActor
private final class Host: DocumentInteractionDelegate {
    var performed: [DocumentAction] = []

    func documentInteractionController(_ controller: DocumentInteractionController, canPerform action: DocumentAction) -> Bool {
        action == .rename || controller.canPerformByDefault(action)
    }

    func documentInteractionController(_ controller: DocumentInteractionController, perform action: DocumentAction) -> Bool {
        performed.append(action)
        return true
    }
}
