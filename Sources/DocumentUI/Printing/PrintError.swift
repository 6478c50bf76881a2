import DocumentCore
import Foundation

/// Why a document was not printed.
public enum PrintError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// Nothing that shows the document's type can print it (a video, an archive).
    case notPrintable(name: String, type: String)
    /// The document could not be read or laid out: the message says why.
    case unreadable(name: String, reason: String)
    /// GTK's file printer is not there to print to a file (GTK's print backends are missing).
    case noFilePrinter
    /// The printing system (GTK, its printer backend, WebKit) reported a failure.
    case failed(String)

    public var description: String {
        switch self {
        case .notPrintable(let name, let type): tr("“%s” cannot be printed: Dossier does not print %s documents.", name, type)
        case .unreadable(let name, let reason): tr("“%s” could not be printed: %s", name, reason)
        case .noFilePrinter: tr("There is no printer that writes to a file (GTK’s print backends are not installed).")
        case .failed(let message): tr("Printing failed: %s", message)
        }
    }

    public var errorDescription: String? { description }
}
