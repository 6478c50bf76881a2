import Foundation

/// An abstract group of types with no MIME type of its own (shared-mime-info has no common
/// parent for "source code" or "archive"): a type belongs when it conforms to a member.
struct DocumentTypeGroup: Sendable {
    let name: String
    let members: [String]

    var localizedName: String {
        switch name {
        case "source-code": tr("Source code")
        case "archive": tr("Archive")
        case "spreadsheet": tr("Spreadsheet")
        case "presentation": tr("Presentation")
        case "word-processing": tr("Word processing document")
        case "font": tr("Font")
        default: name
        }
    }

    func contains(_ type: DocumentType) -> Bool {
        if type.identifier == "x-dossier-group/" + name { return true }
        guard !type.isAbstract else { return false }
        return members.contains { type.conforms(to: DocumentType(uncheckedIdentifier: $0)) }
    }

    static let all: [String: DocumentTypeGroup] = Dictionary(uniqueKeysWithValues: [
        DocumentTypeGroup(name: "source-code", members: [
            "text/x-csrc", "text/x-chdr", "text/x-c++src", "text/x-c++hdr", "text/x-objcsrc",
            "text/x-swift", "text/x-python", "text/x-python3", "text/rust", "text/x-go", "text/x-java",
            "text/javascript", "application/javascript", "application/x-javascript", "text/x-csharp",
            "text/x-kotlin", "text/x-scala", "text/x-haskell", "text/x-ocaml", "text/x-lua",
            "application/x-perl", "application/x-ruby", "application/x-php", "application/x-shellscript",
            "text/x-makefile", "text/x-cmake", "text/x-meson", "text/x-sql", "text/x-vala", "text/x-pascal",
            "text/x-fortran", "text/x-tex", "text/css", "text/x-scss", "text/x-patch", "text/x-dsrc",
        ]),
        DocumentTypeGroup(name: "archive", members: [
            "application/zip", "application/x-tar", "application/x-compressed-tar", "application/x-bzip-compressed-tar",
            "application/x-xz-compressed-tar", "application/x-zstd-compressed-tar", "application/x-7z-compressed",
            "application/vnd.rar", "application/x-rar", "application/gzip", "application/x-bzip", "application/x-bzip2",
            "application/x-xz", "application/zstd", "application/x-lzma", "application/x-cpio", "application/x-archive",
            "application/vnd.debian.binary-package", "application/x-rpm", "application/x-iso9660-image",
        ]),
        DocumentTypeGroup(name: "spreadsheet", members: [
            "application/vnd.oasis.opendocument.spreadsheet", "application/vnd.ms-excel",
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "application/x-gnumeric",
            "text/csv", "text/tab-separated-values",
        ]),
        DocumentTypeGroup(name: "presentation", members: [
            "application/vnd.oasis.opendocument.presentation", "application/vnd.ms-powerpoint",
            "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        ]),
        DocumentTypeGroup(name: "word-processing", members: [
            "application/vnd.oasis.opendocument.text", "application/msword", "application/rtf",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "application/x-abiword",
        ]),
        DocumentTypeGroup(name: "font", members: [
            "font/*", "application/x-font-ttf", "application/x-font-otf", "application/x-font-type1",
            "application/vnd.ms-opentype", "application/x-font-pcf", "application/x-font-bdf",
        ]),
    ].map { ($0.name, $0) })
}

extension DocumentType {
    var group: DocumentTypeGroup? {
        guard identifier.hasPrefix("x-dossier-group/") else { return nil }
        return DocumentTypeGroup.all[String(identifier.dropFirst("x-dossier-group/".count))]
    }

    private static func family(_ media: String) -> DocumentType { DocumentType(uncheckedIdentifier: media + "/*") }
    private static func group(_ name: String) -> DocumentType { DocumentType(uncheckedIdentifier: "x-dossier-group/" + name) }

    /// Any file: `application/octet-stream`, which every non-`inode/*` type conforms to.
    public static let data = DocumentType(uncheckedIdentifier: "application/octet-stream")
    /// Any text: `text/plain`, which every `text/*` type and every declared text type conforms to.
    public static let text = DocumentType(uncheckedIdentifier: "text/plain")
    /// Plain text (the same MIME type as `text`: shared-mime-info has one root for both).
    public static let plainText = DocumentType(uncheckedIdentifier: "text/plain")
    /// Program source in any language (an abstract group).
    public static let sourceCode = group("source-code")
    /// Swift source code, `text/x-swift`.
    public static let swiftSource = DocumentType(uncheckedIdentifier: "text/x-swift")
    /// Any image: the `image/*` family.
    public static let image = family("image")
    /// A PNG image, `image/png`.
    public static let png = DocumentType(uncheckedIdentifier: "image/png")
    /// A JPEG image, `image/jpeg`.
    public static let jpeg = DocumentType(uncheckedIdentifier: "image/jpeg")
    /// A GIF image, `image/gif`.
    public static let gif = DocumentType(uncheckedIdentifier: "image/gif")
    /// An SVG drawing, `image/svg+xml`.
    public static let svg = DocumentType(uncheckedIdentifier: "image/svg+xml")
    /// A PDF document, `application/pdf`.
    public static let pdf = DocumentType(uncheckedIdentifier: "application/pdf")
    /// Any audio: the `audio/*` family.
    public static let audio = family("audio")
    /// Any video: the `video/*` family.
    public static let movie = family("video")
    /// Compressed or bundled files (an abstract group).
    public static let archive = group("archive")
    /// A ZIP archive, `application/zip`.
    public static let zip = DocumentType(uncheckedIdentifier: "application/zip")
    /// Any spreadsheet, of any office suite (an abstract group).
    public static let spreadsheet = group("spreadsheet")
    /// Any presentation, of any office suite (an abstract group).
    public static let presentation = group("presentation")
    /// Any word-processing document, of any office suite (an abstract group).
    public static let wordProcessing = group("word-processing")
    /// A folder, `inode/directory`.
    public static let folder = DocumentType(uncheckedIdentifier: "inode/directory")
    /// An HTML page, `text/html`.
    public static let html = DocumentType(uncheckedIdentifier: "text/html")
    /// A Markdown text, `text/markdown`.
    public static let markdown = DocumentType(uncheckedIdentifier: "text/markdown")
    /// Comma-separated values, `text/csv`.
    public static let csv = DocumentType(uncheckedIdentifier: "text/csv")
    /// JSON data, `application/json`.
    public static let json = DocumentType(uncheckedIdentifier: "application/json")
    /// An XML document, `application/xml`.
    public static let xml = DocumentType(uncheckedIdentifier: "application/xml")
    /// Any font file (an abstract group over `font/*` and the older `application/x-font-*`).
    public static let font = group("font")
    /// A symbolic link, `inode/symlink` (an item has this type only when its target is missing).
    public static let symbolicLink = DocumentType(uncheckedIdentifier: "inode/symlink")
    /// A named pipe, `inode/fifo`.
    public static let fifo = DocumentType(uncheckedIdentifier: "inode/fifo")
    /// A Unix domain socket, `inode/socket`.
    public static let socket = DocumentType(uncheckedIdentifier: "inode/socket")
    /// A character device, `inode/chardevice`.
    public static let characterDevice = DocumentType(uncheckedIdentifier: "inode/chardevice")
    /// A block device, `inode/blockdevice`.
    public static let blockDevice = DocumentType(uncheckedIdentifier: "inode/blockdevice")
    /// An empty regular file.
    public static let empty = DocumentType(uncheckedIdentifier: "application/x-zerosize")
    /// Dossier's own bookmark files, declared by `data/mime/io.github.dossier.Dossier.xml`.
    public static let dossierBookmark = DocumentType(uncheckedIdentifier: "application/x-dossier-bookmark")
    /// External previewer declarations (`*.previewer`), declared by Dossier's MIME package.
    public static let dossierPreviewer = DocumentType(uncheckedIdentifier: "application/x-dossier-previewer")

    /// The well-known types by the names the CLI accepts (`dossier apps image`).
    public static let wellKnown: [String: DocumentType] = [
        "data": .data, "text": .text, "plainText": .plainText, "sourceCode": .sourceCode, "image": .image,
        "pdf": .pdf, "audio": .audio, "movie": .movie, "archive": .archive, "spreadsheet": .spreadsheet,
        "presentation": .presentation, "wordProcessing": .wordProcessing, "folder": .folder, "html": .html,
        "markdown": .markdown, "csv": .csv, "font": .font, "json": .json, "xml": .xml, "zip": .zip,
    ]
}
