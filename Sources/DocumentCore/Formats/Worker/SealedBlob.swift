import CSandbox
import Foundation

/// Bytes a decoder worker produced (pixels), in a memfd sealed against any change and mapped
/// read-only: the worker can no longer touch them, and nothing is copied on the way.
package final class SealedBlob: @unchecked Sendable {
    // @unchecked: immutable after init; the mapping is read-only and sealed.
    private let fd: Int32
    private let mapping: UnsafeRawPointer?
    /// The number of bytes.
    package let count: Int

    /// Takes `fd`, which must be a sealed memfd; nil (and `fd` closed) when it is not, or when
    /// it cannot be mapped.
    package init?(adopting fd: Int32) {
        var status = stat()
        guard dossier_memfd_is_sealed(fd) != 0, fstat(fd, &status) == 0, status.st_size >= 0 else {
            close(fd)
            return nil
        }
        count = Int(status.st_size)
        if count == 0 {
            mapping = nil
        } else {
            let mapped = mmap(nil, count, PROT_READ, MAP_SHARED, fd, 0)
            guard let mapped, mapped != MAP_FAILED else {
                close(fd)
                return nil
            }
            mapping = UnsafeRawPointer(mapped)
        }
        self.fd = fd
    }

    deinit {
        if let mapping { munmap(UnsafeMutableRawPointer(mutating: mapping), count) }
        close(fd)
    }

    /// The first byte (nil when empty), valid as long as this blob lives: for a consumer that
    /// keeps the blob itself (a GBytes that holds a reference to it, under a texture).
    package var baseAddress: UnsafeRawPointer? { mapping }

    /// Calls `body` with the bytes, valid only during the call.
    package func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: mapping, count: count))
    }
}
