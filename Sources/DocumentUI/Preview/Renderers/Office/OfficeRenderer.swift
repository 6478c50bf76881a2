import CGLib
import CGtk
import DocumentCore
import Foundation
import GObjectSupport
import GtkSupport

/// Office documents (word processing, spreadsheets, presentations), converted to PDF by
/// LibreOffice in headless mode, sandboxed and timed like a thumbnailer, and cached by the
/// file's URI and modification time. Without LibreOffice, a page that says so; the window's
/// Open With button is right above it.
@MainActor
package final class OfficeRenderer: ConvertedRenderer, PreviewRenderer {
    package nonisolated static let supportedTypes: [DocumentType] = [.wordProcessing, .spreadsheet, .presentation]
    nonisolated static let timeout: Duration = .seconds(60)

    /// Makes a renderer that shows an office document converted to PDF by LibreOffice.
    package required override init() { super.init() }

    package func load(_ item: PreviewItem, type: DocumentType) async throws {
        // Stopped with the page: LibreOffice takes a few hundred MB, and arrows held down in
        // a folder of documents started one after another, all running to the end.
        let cancellation = CancellationFlag()
        let converted = await withTaskCancellationHandler {
            await Task.detached { Self.convert(item.url, cancellation: cancellation) }.value
        } onCancel: {
            cancellation.cancel()
        }
        let pdf = try converted.get()
        setAccessibleName(rootView, tr("Document %s", item.displayTitle))
        try await show(pdf, as: .pdf, for: item)
    }

    nonisolated static func convert(_ url: URL, cancellation: CancellationFlag? = nil) -> Result<URL, PreviewError> {
        guard let office = takeString(g_find_program_in_path("soffice")) ?? takeString(g_find_program_in_path("libreoffice")) else {
            return .failure(PreviewError(tr("LibreOffice is not installed, so this document cannot be shown here. Open it with an application instead.")))
        }
        let input: Int32
        do { input = try WorkerInput.open(url.rawPath) } catch { return .failure(PreviewError(error.reason)) }
        defer { close(input) }
        var status = stat()
        guard fstat(input, &status) == 0 else { return .failure(PreviewError(String(cString: strerror(errno)))) }
        let cache = URL(fileURLWithPath: String(cString: g_get_user_cache_dir())).appendingPathComponent("dossier/office-previews")
        let key = (takeString(g_compute_checksum_for_string(G_CHECKSUM_MD5, url.absoluteString, -1)) ?? "document")
            + "-\(status.st_mtim.tv_sec).pdf"
        let cached = cache.appendingPathComponent(key)
        if FileManager.default.fileExists(atPath: cached.path) { return .success(cached) }

        let work = cache.appendingPathComponent("run-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        do {
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            return .failure(PreviewError(error.localizedDescription))
        }
        defer { try? FileManager.default.removeItem(at: work) }
        let paths = Sandbox.paths(input: url.rawPath, outputFolder: work.path, outputName: "converted.pdf")
        let outputFolder = (paths.output as NSString).deletingLastPathComponent
        let command = [office, "--headless", "--norestore", "--nolockcheck", "-env:UserInstallation=file:///tmp/dossier-office-profile",
                       "--convert-to", "pdf", "--outdir", outputFolder, paths.input]
        switch SandboxedProcess(arguments: Sandbox.wrap(command, outputFolder: work.path, paths: paths, readOnly: ["/etc/libreoffice"]),
                                input: input).run(timeout: timeout, cancellation: cancellation) {
        case .cancelled:
            return .failure(PreviewError(tr("Cancelled")))
        case .timedOut:
            return .failure(PreviewError(tr("LibreOffice took longer than %s seconds to convert the document.", String(timeout.components.seconds))))
        case .signalled(let signal):
            return .failure(PreviewError(tr("LibreOffice crashed converting the document (signal %s).", String(signal))))
        case .exited(let code, _) where code != 0:
            return .failure(PreviewError(tr("LibreOffice could not convert the document (status %s).", String(code))))
        case .exited:
            break
        }
        let produced = ((try? FileManager.default.contentsOfDirectory(atPath: work.path)) ?? []).first { $0.hasSuffix(".pdf") }
        guard let produced else { return .failure(PreviewError(tr("LibreOffice could not convert the document."))) }
        do {
            try? FileManager.default.removeItem(at: cached)
            try FileManager.default.moveItem(at: work.appendingPathComponent(produced), to: cached)
        } catch {
            return .failure(PreviewError(error.localizedDescription))
        }
        return .success(cached)
    }
}
