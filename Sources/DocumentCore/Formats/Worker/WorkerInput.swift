import Foundation

/// The file a decoder worker or a helper program is given: opened read-only without blocking (a
/// FIFO put where a file was, or named by a Markdown picture, must not hold the opener) and
/// given only when it is a regular file (a device or a FIFO would tie up a worker until its
/// timeout).
package enum WorkerInput {
    package enum Refusal: Error {
        /// It could not be opened, with the system's reason.
        case unreadable(String)
        /// It is a folder, a device, a FIFO or a socket.
        case notRegularFile

        /// Why, in words, for the messages that do not tell the two apart.
        package var reason: String {
            switch self {
            case .unreadable(let reason): reason
            case .notRegularFile: tr("it is not a regular file")
            }
        }
    }

    /// The open descriptor of the regular file at `path`; the caller closes it.
    package static func open(_ path: String) throws(Refusal) -> Int32 {
        try open(FileSystemPath(path))
    }

    /// The open descriptor of the regular file at `path`, whose bytes need not be UTF-8.
    package static func open(_ path: FileSystemPath) throws(Refusal) -> Int32 {
        let fd = path.withCString { Foundation.open($0, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK) }
        guard fd >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw .notRegularFile
        }
        return fd
    }
}
