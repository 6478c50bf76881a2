import CSandbox
import DecoderWire
import Foundation

/// Archives are read in decoder workers: the previewer's process sends the open archive and
/// gets back a listing (`ArchiveListingCoding`, in a sealed memfd) or one entry's bytes (a
/// sealed memfd), and checks both as untrusted. libarchive is never called in that process.
///
/// The previewer's own workers (`PreviewWorkers`), not the thumbnailers': a folder's thumbnails
/// keep every worker of that pool busy, and Space on an archive would wait behind them. Their
/// limits fit a listing: it stops itself after `ArchiveListing.timeLimit` (6 s) of reading,
/// inside a request's CPU budget and wall clock (15 s each, when the page gives up), which stop
/// what the listing's own check cannot see (one entry whose data never ends: reading the next
/// header skips it) and an extraction.
package enum ArchiveWorkers {
    /// The entries of the archive at `path`, in the archive's order, as a worker read them and
    /// after they were checked (`ArchiveListingCoding.decode`).
    static func list(_ path: FileSystemPath, raw: Bool, workers: DecoderWorkerPool = PreviewWorkers.current,
                     cancellation: Cancellation? = nil) throws(ArchiveError) -> ArchiveListing {
        let name = (path.nameForMatching as NSString).deletingPathExtension
        let output = try perform(.archiveList(ArchiveListOptions(raw: raw, name: name)), on: path,
                                 workers: workers, cancellation: cancellation, unreadable: ArchiveError.unreadable)
        guard let blob = output.blob, let listing = blob.withUnsafeBytes({ ArchiveListingCoding.decode($0) }) else {
            throw .unreadable(tr("the decoder's answer could not be read"))
        }
        return listing
    }

    /// The bytes of the entry at `headerIndex`, whose stored path is `path`, of the archive at
    /// `archivePath`, decompressed by a worker.
    static func extract(headerIndex: Int, path: String, from archivePath: FileSystemPath, raw: Bool) throws(ArchiveError) -> SealedBlob {
        let options = ArchiveEntryOptions(raw: raw, index: headerIndex, pathDigest: digest(path))
        let output = try perform(.archiveExtract(options), on: archivePath, workers: PreviewWorkers.current,
                                 unreadable: ArchiveError.cannotExtract)
        guard let blob = output.blob else { throw .cannotExtract(tr("the decoder's answer could not be read")) }
        return blob
    }

    /// Sends the archive at `path`, opened here, to a worker. A worker's own refusal comes back
    /// as it was (an `ArchiveError`); its end (a crash, a limit, the timeout) as `unreadable`
    /// with how it ended.
    private static func perform(_ request: DecoderRequest, on path: FileSystemPath, workers: DecoderWorkerPool,
                                cancellation: Cancellation? = nil,
                                unreadable: (String) -> ArchiveError) throws(ArchiveError) -> DecoderWorker.Output {
        let fd: Int32
        do { fd = try WorkerInput.open(path) } catch {
            switch error {
            case .unreadable(let reason): throw .unreadable(reason)
            case .notRegularFile: throw .notRegularFile
            }
        }
        defer { close(fd) }
        return try workers.perform(request, input: fd, cancellation: cancellation) { failure -> ArchiveError in
            switch failure {
            case .refused(let message): unreadable(message)
            case .stopped(let how): unreadable(tr("the decoder stopped: %s", how))
            case .timedOut(let seconds): unreadable(tr("the decoder took longer than %s seconds and was stopped", String(seconds)))
            case .unavailable(let why): unreadable(why)
            case .cancelled: .cancelled
            }
        }
    }

    /// A short fingerprint of a stored path (64-bit FNV-1a, in hex): the extraction request
    /// carries it rather than the path, which may be longer than a request.
    package static func digest(_ path: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in path.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }
}
