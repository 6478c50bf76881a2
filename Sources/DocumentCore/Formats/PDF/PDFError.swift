import Foundation

/// Why a PDF, or one of its pages, could not be shown, as the previewer's error page says it.
package enum PDFError: Error, Equatable, Sendable, Codable, CustomStringConvertible {
    /// poppler-glib could not be loaded in the worker, with the loader's reason.
    case libraryMissing(String)
    /// The document needs a password.
    case encrypted
    /// poppler could not read the document, with its message (or the system's, for the file).
    case unreadable(String)
    /// It is a folder, a device, a FIFO or a socket.
    case notRegularFile
    /// The document has no pages.
    case noPages
    /// The page could not be drawn (no such page, no area, or too large to draw).
    case pageNotDrawn(Int)
    /// The worker stopped while reading the document: a crash, or one of its limits.
    case decoderStopped(String)
    /// The worker took longer than this many seconds and was stopped.
    case timedOut(seconds: Int)
    /// No worker could be started.
    case decoderUnavailable(String)
    /// The worker's answer did not hold together (a count or a size out of bounds).
    case badAnswer

    package var description: String {
        switch self {
        case .libraryMissing(let reason): tr("PDF documents cannot be shown: poppler could not be loaded (%s).", reason)
        case .encrypted: tr("The document is protected by a password.")
        case .unreadable(let reason): tr("The PDF could not be read: %s", reason)
        case .notRegularFile: tr("The PDF could not be read: %s", tr("it is not a regular file"))
        case .noPages: tr("The document has no pages.")
        case .pageNotDrawn(let index): tr("Page %s could not be drawn.", String(index + 1))
        case .decoderStopped(let how):
            tr("The PDF could not be shown: its decoder stopped (%s). The file may be damaged.", how)
        case .timedOut(let seconds): tr("The PDF took longer than %s seconds to draw.", String(seconds))
        case .decoderUnavailable(let why): tr("PDF documents cannot be shown: the decoder could not be started (%s).", why)
        case .badAnswer: tr("The PDF could not be shown: the decoder's answer could not be read.")
        }
    }

    /// True when the document as a whole can no longer be shown (the worker that held it went,
    /// or none can be started), rather than one page being bad.
    package var endsTheDocument: Bool {
        switch self {
        case .decoderStopped, .timedOut, .decoderUnavailable, .badAnswer, .libraryMissing: true
        default: false
        }
    }
}
