import DocumentCore
import DocumentUI
import Foundation

/// The window the app starts in: DocumentUI's `DocumentBrowser` on a folder, showing only
/// sketches (and folders), with New ▸ Sketch from the app's template, Import…, and the app's
/// own action, Export as PNG. Opening a sketch opens it in an editor window of this app.
@MainActor
final class BrowserWindow {
    let window: WindowWidget
    let browser: DocumentBrowser

    init(application: AppInstance, folder: URL, template: URL?, open: @escaping ([URL]) -> Void) {
        browser = DocumentBrowser(location: .folder(folder))
        browser.contentTypes = [Sketch.type]
        browser.templates = template.map { [$0] } ?? []
        browser.documentOpener = open
        browser.actions = [Self.exportAction(showing: browser)]

        window = WindowWidget(application: application)
        window.title = tr("Sketchbook")
        window.setDefaultSize(width: 960, height: 640)
        let header = HeaderBar()
        header.setTitle(browser.pathBar)
        header.addAtEnd(browser.headerControls)
        window.setContent(Box(.vertical, [header, browser.widget]))
        window.present()
    }

    /// "Export as PNG": the sketch drawn into a picture beside it, as the previewer shows it.
    private static func exportAction(showing browser: DocumentBrowser) -> DocumentBrowserAction {
        DocumentBrowserAction(identifier: "io.github.dossier.Sketchbook.export", title: tr("Export as PNG"),
                              iconName: "image-x-generic-symbolic", supportedTypes: [Sketch.type],
                              availability: [.menu, .header]) { [weak browser] urls in
            guard let url = urls.first else { return }
            Task { @MainActor in
                let outcome = await Task.detached { () -> String in
                    let picture = url.deletingPathExtension().appendingPathExtension("png")
                    do {
                        try SketchFile.exportPNG(url, to: picture, edge: 1024)
                        return tr("Exported “%s”", picture.lastPathComponent)
                    } catch {
                        return "\(error)"
                    }
                }.value
                browser?.showToast(outcome)
            }
        }
    }
}
