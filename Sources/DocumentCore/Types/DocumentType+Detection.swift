import CGLib
import Foundation
import GObjectSupport

/// How a type was decided, for `dossier info` and for callers that want to know how sure it is.
public enum TypeEvidence: String, Sendable, Codable {
    /// The name's glob alone (the content was not read, or added nothing).
    case name
    /// The first bytes of the content (magic), possibly confirmed by the name.
    case content
    /// The kind of file system object: a folder, FIFO, socket, device or broken link.
    case fileKind
}

extension DocumentType {
    /// How many leading bytes are read to recognise content. Enough for every common magic
    /// rule (tar's at 257, ISO 9660's does not matter for documents); never the whole file.
    public static let sniffLength = 16 * 1024

    /// The type the name alone suggests (shared-mime-info globs: case-insensitive unless
    /// declared case-sensitive, longest pattern wins), or `application/octet-stream`.
    public init(fileName: String) {
        var uncertain: gboolean = 0
        let guessed = takeString(g_content_type_guess(fileName, nil, 0, &uncertain)) ?? "application/octet-stream"
        self.init(mimeType: guessed)
    }

    /// The type a file extension (without the dot) maps to, or nil when nothing claims it.
    public init?(filenameExtension: String) {
        let type = DocumentType(fileName: "file." + filenameExtension)
        guard !type.isUnknown else { return nil }
        self = type
    }

    /// The type of some content, with its file name when known.
    ///
    /// The magic of the first bytes decides when it names a binary format the name does not
    /// already imply (a PNG called `notes.txt` is a PNG; a `.docx`, whose magic says zip, stays
    /// a Word document). Otherwise GIO's own rules combine the name and the content.
    public init(content: UnsafeRawBufferPointer, fileName: String?) {
        self = DocumentType.detect(content: content, fileName: fileName).type
    }

    /// `init(content:fileName:)` over an array of bytes.
    public init(content: [UInt8], fileName: String?) {
        self = content.withUnsafeBytes { DocumentType(content: $0, fileName: fileName) }
    }

    /// Content types whose magic other formats share, so that the name is the better
    /// evidence: an OLE compound file is also every `.xls`, `.ppt` and `.msi`; an ELF file is
    /// also every shared library; "StartFont" also begins every Adobe font metrics file.
    static let sharedMagic: Set<String> = [
        "application/x-ole-storage", "application/x-executable", "application/x-font-sunos-news",
    ]

    static func detect(content: UnsafeRawBufferPointer, fileName: String?) -> (type: DocumentType, evidence: TypeEvidence) {
        let bytes = UnsafeRawBufferPointer(rebasing: content.prefix(sniffLength))
        let byName = fileName.map(DocumentType.init(fileName:))
        if bytes.isEmpty {
            if let byName, !byName.isUnknown { return (byName, .name) }
            return (.empty, .content)
        }
        var uncertain: gboolean = 0
        let start = bytes.baseAddress?.assumingMemoryBound(to: guchar.self)
        let sniffed = takeString(g_content_type_guess(nil, start, gsize(bytes.count), &uncertain))
        let byContent = DocumentType(mimeType: sniffed ?? "application/octet-stream")
        let contentIsSpecific = byContent != DocumentType.text && !byContent.isUnknown
        // Binary formats have strong magic; text magic ("//", "#!", "<html") is weak evidence.
        let contentIsBinaryFormat = contentIsSpecific && !byContent.conforms(to: .text)
        guard let byName, !byName.isUnknown else {
            return (byContent, .content)
        }
        if contentIsBinaryFormat {
            if byName == byContent { return (byName, .content) }
            // A .docx is a zip by magic: the name names the more specific type.
            if byName.conforms(to: byContent) { return (byName, .name) }
            // A name whose glob holds the compression (`*.pcf.gz`, a font FreeType reads
            // gzipped) names what the compressed content is.
            if byContent.identifier == "application/gzip", let fileName, fileName.lowercased().hasSuffix(".gz") {
                return (byName, .name)
            }
            // Some magic is shared by many formats: GIO then lets the name decide, as Files does.
            if sharedMagic.contains(byContent.identifier) {
                let combined = takeString(g_content_type_guess(fileName, start, gsize(bytes.count), &uncertain))
                return (DocumentType(mimeType: combined ?? byContent.identifier), .content)
            }
            return (byContent, .content)
        }
        let combined = takeString(g_content_type_guess(fileName, start, gsize(bytes.count), &uncertain))
        let type = DocumentType(mimeType: combined ?? byName.identifier)
        return (type, type == byName && !contentIsSpecific ? .name : .content)
    }
}
