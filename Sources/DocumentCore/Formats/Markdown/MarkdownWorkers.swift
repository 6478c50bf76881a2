import CGLib
import CSandbox
import DecoderWire
import Foundation

/// Markdown is parsed in decoder workers, by cmark-gfm: the previewer's process sends the text
/// (UTF-8, in a sealed memfd) and gets back the document's tree (`MarkdownNode`'s bytes in a
/// sealed memfd), which it checks as untrusted. cmark-gfm is never called in that process.
package enum MarkdownWorkers {
    /// The tree of `text`, as a worker parsed it, after it was checked.
    package static func parse(_ text: String, workers: DecoderWorkerPool = PreviewWorkers.current,
                              cancellation: Cancellation? = nil) throws(MarkdownError) -> MarkdownNode {
        let bytes = Array(text.utf8)
        guard let fd = bytes.withUnsafeBytes({ SealedBlob.seal($0, name: "dossier-markdown-text") }) else {
            throw MarkdownError(String(cString: strerror(errno)))
        }
        defer { close(fd) }
        let output = try workers.perform(.markdown, input: fd, cancellation: cancellation) { failure -> MarkdownError in
            switch failure {
            case .refused(let message): MarkdownError(message)
            case .stopped(let how): MarkdownError(tr("the decoder stopped: %s", how))
            case .timedOut(let seconds): MarkdownError(tr("the decoder took longer than %s seconds and was stopped", String(seconds)))
            case .unavailable(let why): MarkdownError(why)
            case .cancelled: MarkdownError(tr("the operation was cancelled"))
            }
        }
        guard let blob = output.blob,
              let tree = blob.withUnsafeBytes({ MarkdownNode(decoding: $0) }),
              tree.kind == .document, tree.isWellFormed
        else {
            throw MarkdownError(tr("the decoder's answer could not be read"))
        }
        return tree
    }

    /// The most text a worker parses, in bytes: the previewer shows no more.
    package static let textLimit = 1 << 20

    /// The GitHub extensions a document is parsed with.
    package static let extensions = ["table", "strikethrough", "autolink", "tagfilter", "tasklist"]
}
