/// What the session asks a decoder worker: one operation on one input file, which travels beside
/// the request as an open, read-only `FileDescriptor`. One case per operation, its fields typed;
/// the worker checks their bounds again, as it checks everything it is sent.
public enum DecoderRequest: Codable, Sendable, Equatable {
    /// The input's size and the worker's CPU priority: the least a worker does.
    case probe
    /// A picture decoded at a size (`DecodedImage` in the reply's memfd).
    case image(ImageOptions)
    /// What GStreamer's discoverer finds in a media file, and its cover art.
    case media
    /// A thumbnail made by one of the built-in thumbnailers, or an external thumbnailer's PNG read.
    case thumbnail(ThumbnailOptions)
    /// The pixels of a thumbnail PNG read back from the cache, or a picture fitted for one.
    case thumbnailPicture(ThumbnailPictureOptions)
    /// A font file's specimen lines, drawn for an appearance.
    case fontSpecimen(FontAppearance)
    /// Readies the worker's font libraries on a file, drawing nothing the caller keeps.
    case fontWarm
    /// An archive's entries.
    case archiveList(ArchiveListOptions)
    /// One archive entry's bytes.
    case archiveExtract(ArchiveEntryOptions)
    /// Opens a PDF and keeps it in the worker under `session`.
    case pdfOpen(session: String)
    /// One page of a PDF opened under a session, drawn.
    case pdfPage(PDFPageOptions)
    /// Lets go of the PDF opened under `session`.
    case pdfClose(session: String)
    /// A Markdown document's tree (`MarkdownNode`'s bytes in the reply's memfd); the input is its
    /// text, UTF-8.
    case markdown
    /// A test's misbehaviour: answered only by the test decoder, refused by `dossier-decoder`.
    case misbehave(Misbehaviour)

    /// The operation's name, for traces and messages.
    public var name: String {
        switch self {
        case .probe: "probe"
        case .image: "image"
        case .media: "media"
        case .thumbnail: "thumbnail"
        case .thumbnailPicture: "thumbnail.picture"
        case .fontSpecimen: "font.specimen"
        case .fontWarm: "font.warm"
        case .archiveList: "archive.list"
        case .archiveExtract: "archive.extract"
        case .pdfOpen: "pdf.open"
        case .pdfPage: "pdf.page"
        case .pdfClose: "pdf.close"
        case .markdown: "markdown"
        case .misbehave(let misbehaviour): misbehaviour.name
        }
    }
}

/// How a picture is decoded.
public struct ImageOptions: Codable, Sendable, Equatable {
    /// The long side wanted; nil: the image's own size (bounded by the worker).
    public var edge: Int32?
    /// Decoded no wider than this; takes the place of `edge`.
    public var width: Int32?
    /// An SVG drawn at `edge` even when that is larger than its own size (zoomed in).
    public var enlarge: Bool
    /// Only the first frame of an animation.
    public var still: Bool
    /// A raster image with more pixels than this is refused before it is decoded.
    public var pixelLimit: Int
    /// JPEG through libjpeg rather than GdkPixbuf.
    public var jpegThroughLibjpeg: Bool

    /// Options with every field given.
    public init(edge: Int32?, width: Int32?, enlarge: Bool, still: Bool, pixelLimit: Int, jpegThroughLibjpeg: Bool) {
        self.edge = edge
        self.width = width
        self.enlarge = enlarge
        self.still = still
        self.pixelLimit = pixelLimit
        self.jpegThroughLibjpeg = jpegThroughLibjpeg
    }
}

/// Which thumbnailer makes a thumbnail, and at what size.
public struct ThumbnailOptions: Codable, Sendable, Equatable {
    /// The built-in thumbnailers, and reading an external thumbnailer's output.
    public enum Kind: String, Codable, Sendable {
        case image, pdf, text, external
        /// "Aa" in the font, as Files' font thumbnailer draws it.
        case font
        /// The picture an OpenDocument or Office Open XML file keeps of itself.
        case office
        /// An audio file's cover art.
        case audio
    }

    public var kind: Kind
    /// The long side, in pixels.
    public var edge: Int
    /// The file's name, for messages and for a type the name implies.
    public var name: String
    /// The file's MIME type, when the caller knows it.
    public var type: String?
    /// The external thumbnailer whose output is read, for messages.
    public var thumbnailer: String?

    /// Options with every field given.
    public init(kind: Kind, edge: Int, name: String, type: String? = nil, thumbnailer: String? = nil) {
        self.kind = kind
        self.edge = edge
        self.name = name
        self.type = type
        self.thumbnailer = thumbnailer
    }
}

/// A thumbnail's pixels wanted from a file made elsewhere.
public struct ThumbnailPictureOptions: Codable, Sendable, Equatable {
    /// Where the picture comes from: a PNG of the shared thumbnail cache, or a photo's own EXIF
    /// thumbnail.
    public enum Source: String, Codable, Sendable {
        case png, exif
    }

    public var source: Source
    /// The long side, in pixels.
    public var edge: Int

    /// Options with every field given.
    public init(source: Source, edge: Int) {
        self.source = source
        self.edge = edge
    }
}

/// How a font's specimen is drawn: the column's width, the display's scale and resolution, and
/// the font settings GTK would draw with.
public struct FontAppearance: Codable, Sendable, Equatable {
    public var width: Int
    public var scale: Int
    public var dpi: Double
    public var antialias: Int32
    public var hintStyle: Int32
    public var hintMetrics: Int32
    public var roundsGlyphPositions: Bool

    /// An appearance with every field given.
    public init(width: Int, scale: Int, dpi: Double, antialias: Int32, hintStyle: Int32, hintMetrics: Int32,
                roundsGlyphPositions: Bool) {
        self.width = width
        self.scale = scale
        self.dpi = dpi
        self.antialias = antialias
        self.hintStyle = hintStyle
        self.hintMetrics = hintMetrics
        self.roundsGlyphPositions = roundsGlyphPositions
    }
}

/// How an archive is listed.
public struct ArchiveListOptions: Codable, Sendable, Equatable {
    /// A lone compressed file (`.gz`), one entry, rather than an archive of entries.
    public var raw: Bool
    /// The archive's name, for a lone compressed file's entry.
    public var name: String

    /// Options with every field given.
    public init(raw: Bool, name: String) {
        self.raw = raw
        self.name = name
    }
}

/// Which archive entry is extracted.
public struct ArchiveEntryOptions: Codable, Sendable, Equatable {
    public var raw: Bool
    /// The entry's place among the archive's headers.
    public var index: Int
    /// The digest of the entry's path, which must match the header at `index`.
    public var pathDigest: String

    /// Options with every field given.
    public init(raw: Bool, index: Int, pathDigest: String) {
        self.raw = raw
        self.index = index
        self.pathDigest = pathDigest
    }
}

/// Which page of a PDF is drawn, and how.
public struct PDFPageOptions: Codable, Sendable, Equatable {
    public var session: String
    public var page: Int
    /// The page's width, in pixels.
    public var width: Int
    /// The page's text and its boxes too.
    public var text: Bool
    /// Drawn for printing (annotations meant for print).
    public var forPrinting: Bool

    /// Options with every field given.
    public init(session: String, page: Int, width: Int, text: Bool, forPrinting: Bool) {
        self.session = session
        self.page = page
        self.width = width
        self.text = text
        self.forPrinting = forPrinting
    }
}

/// A misbehaviour a test asks of the test decoder (`test.crash`, `test.connect`), with its options.
public struct Misbehaviour: Codable, Sendable, Equatable {
    public var name: String
    public var options: [String: String]

    /// A misbehaviour with its options.
    public init(name: String, options: [String: String] = [:]) {
        self.name = name
        self.options = options
    }
}
