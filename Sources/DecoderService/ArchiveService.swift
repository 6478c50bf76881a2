import CSandbox
import DecoderWire
import DocumentCore
import Foundation

/// The worker's side of archives (`ArchiveWorkers` is the caller's): libarchive reads the
/// archive open at the request's input, and the listing or the entry's bytes go back in a
/// sealed memfd.
enum ArchiveService {
    /// Loads libarchive; called before the worker's lock-down. A library that cannot be loaded
    /// is reported by each archive request, and the worker still serves the other formats.
    static func prepare() {
        _ = ArchiveReader.load()
    }

    /// Lists the archive open at `input`.
    static func list(input: Int32, options: ArchiveListOptions) -> (DecoderReply, Int32?) {
        do throws(ArchiveError) {
            let listing = try ArchiveReader.list(input, raw: options.raw, name: options.name)
            return try reply(ArchiveListingCoding.encode(listing))
        } catch {
            return (DecoderReply(failure: error), nil)
        }
    }

    /// Takes one entry of the archive open at `input` out.
    static func extract(input: Int32, options: ArchiveEntryOptions) -> (DecoderReply, Int32?) {
        do throws(ArchiveError) {
            guard options.index >= 0, options.index < ArchiveListing.entryLimit else {
                throw .cannotExtract("a request without the entry")
            }
            let bytes = try ArchiveReader.extract(input, raw: options.raw, headerIndex: options.index, pathDigest: options.pathDigest)
            return (DecoderReply(), bytes)
        } catch {
            return (DecoderReply(failure: error), nil)
        }
    }

    /// `bytes` in a sealed memfd.
    private static func reply(_ bytes: [UInt8]) throws(ArchiveError) -> (DecoderReply, Int32?) {
        let fd = dossier_memfd_create("dossier-archive-listing", UInt64(bytes.count))
        guard fd >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress! + written, $0.count - written, off_t(written)) }
            guard count > 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw .unreadable(reason)
            }
            written += count
        }
        guard dossier_memfd_seal(fd) == 0 else {
            close(fd)
            throw .unreadable("cannot seal the listing")
        }
        return (DecoderReply(), fd)
    }
}
