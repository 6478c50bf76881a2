import DocumentCore
import Foundation

extension HTMLRenderer: PrintableRenderer {
    static func printablePages(for item: PreviewItem, type: DocumentType) async throws -> any PrintablePages {
        let path = item.url.rawPath
        let html = try await Task.detached { () -> Result<String, PreviewError> in
            guard let handle = FileHandle(forReadingAt: path) else {
                return .failure(PreviewError(tr("The file could not be read: %s", String(cString: strerror(errno)))))
            }
            defer { try? handle.close() }
            let data = (try? handle.read(upToCount: HTMLRenderer.limit)) ?? Data()
            return .success(String(decoding: data, as: UTF8.self))
        }.value.get()
        return try await WebPagePDF.pages(of: html, base: item.url)
    }
}
