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
enum ArchiveWorkers {
    // MARK: The caller's side

    /// The entries of the archive at `path`, in the archive's order, as a worker read them and
    /// after they were checked (`ArchiveListingCoding.decode`).
    static func list(_ path: String, raw: Bool, workers: DecoderWorkerPool = PreviewWorkers.current,
                     cancellation: Cancellation? = nil) throws(ArchiveError) -> ArchiveListing {
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let output = try perform(.archiveList(ArchiveListOptions(raw: raw, name: name)), on: path,
                                 workers: workers, cancellation: cancellation, unreadable: ArchiveError.unreadable)
        guard let blob = output.blob, let listing = blob.withUnsafeBytes({ ArchiveListingCoding.decode($0) }) else {
            throw .unreadable(tr("the decoder's answer could not be read"))
        }
        return listing
    }

    /// The bytes of the entry at `headerIndex`, whose stored path is `path`, of the archive at
    /// `archivePath`, decompressed by a worker.
    static func extract(headerIndex: Int, path: String, from archivePath: String, raw: Bool) throws(ArchiveError) -> SealedBlob {
        let options = ArchiveEntryOptions(raw: raw, index: headerIndex, pathDigest: ArchiveReader.digest(path))
        let output = try perform(.archiveExtract(options), on: archivePath, workers: PreviewWorkers.current,
                                 unreadable: ArchiveError.cannotExtract)
        guard let blob = output.blob else { throw .cannotExtract(tr("the decoder's answer could not be read")) }
        return blob
    }

    /// Sends the archive at `path`, opened here, to a worker. A worker's own refusal comes back
    /// as it was (an `ArchiveError`); its end (a crash, a limit, the timeout) as `unreadable`
    /// with how it ended.
    private static func perform(_ request: DecoderRequest, on path: String, workers: DecoderWorkerPool,
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

    // MARK: The worker's side

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
