import Foundation

extension FileOperations {
    /// What an operation does to the items it touches, for the coordinator.
    enum Access {
        case write(URL)
        case delete(URL)
        case move(URL, to: URL)
        case copy(URL, to: URL)

        var item: URL {
            switch self {
            case .write(let url), .delete(let url), .move(let url, _), .copy(let url, _): url
            }
        }
    }

    /// Runs `body` as a coordinated access, so readers never see half an operation, writers
    /// wait their turn, and presenters (open documents, folder views) hear of it before this
    /// returns. A coordination failure (a timeout waiting for another program) is reported as
    /// the operation's failure.
    static func coordinating<T>(
        _ access: Access, _ kind: FileOperationKind, _ body: () throws(FileOperationError) -> T
    ) throws(FileOperationError) -> T {
        var result: Result<T, FileOperationError>?
        do {
            try withoutActuallyEscaping(body) { body in
                try perform(access) {
                    do throws(FileOperationError) {
                        result = .success(try body())
                    } catch {
                        result = .failure(error)
                    }
                }
            }
        } catch {
            throw .failed(kind, name: access.item.lastPathComponent, reason: "\(error)")
        }
        guard let result else { throw .failed(kind, name: access.item.lastPathComponent, reason: "") }
        return try result.get()
    }

    private static func perform(_ access: Access, _ work: () -> Void) throws {
        let coordinator = FileCoordinator()
        let timeout: Duration = .seconds(30)
        switch access {
        case .write(let url):
            try coordinator.coordinate(writingItemAt: url, timeout: timeout) { _ in work() }
        case .delete(let url):
            try coordinator.coordinate(deletingItemAt: url, timeout: timeout) { _ in work() }
        case .move(let source, let destination):
            try coordinator.coordinate(movingItemAt: source, to: destination, timeout: timeout) { _, _ in work() }
        case .copy(let source, let destination):
            try coordinator.coordinate(readingItemAt: source, writingItemAt: destination, timeout: timeout) { _, _ in work() }
        }
    }
}
