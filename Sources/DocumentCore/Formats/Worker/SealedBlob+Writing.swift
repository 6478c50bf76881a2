import CSandbox
import Foundation

extension SealedBlob {
    /// The worker's side: a memfd holding a copy of `bytes`, sealed against any change, for a
    /// reply; nil when it cannot be made (no memory, or past the worker's file size limit).
    package static func seal(_ bytes: UnsafeRawBufferPointer, name: String) -> Int32? {
        let fd = dossier_memfd_create(name, UInt64(bytes.count))
        guard fd >= 0 else { return nil }
        var written = 0
        while written < bytes.count, let base = bytes.baseAddress {
            let count = pwrite(fd, base + written, bytes.count - written, off_t(written))
            guard count > 0 else {
                close(fd)
                return nil
            }
            written += count
        }
        guard dossier_memfd_seal(fd) == 0 else {
            close(fd)
            return nil
        }
        return fd
    }
}
