"""The files `make soak` shows: good ones (the committed samples, DossierFixtures' fixtures, a
few larger real files) and hostile ones (the fixtures' damaged files, and what is made here:
truncated and corrupted copies of the samples, images and PDFs that lie about their size,
archives with traversal paths and bombs, garbage under text names, unreadable files, dangling
and looping links, FIFOs, devices, sockets, URIs that are not files).

Everything is made from nothing but the standard library and the samples, with fixed seeds,
into a folder of its own (kept for the next run while what it is made from stays the same);
`Corpus.build` returns the lists of (label, URI) to show.
"""

import hashlib
import io
import json
import os
import random
import socket
import stat
import struct
import subprocess
import tarfile
import zipfile
import zlib
from pathlib import Path
from urllib.parse import quote

GIB = 1 << 30


def uri(path):
    """A file: URI as GIO writes it (every byte outside the unreserved set escaped)."""
    return "file://" + quote(os.fsencode(str(path)), safe="/-_.~!$&'()*+,;=:@")


def png(width, height, rows, colour_type=2, bit_depth=8):
    """A PNG of `width` × `height` whose image data is `rows` (filter bytes included), deflated."""
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))
    header = struct.pack(">IIBBBBB", width, height, bit_depth, colour_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")


def deflated_zeros(size, wbits=zlib.MAX_WBITS):
    """`size` zero bytes, compressed (zlib stream, or gzip/raw with another `wbits`)."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, wbits)
    block = bytes(1 << 24)
    parts = []
    left = size
    while left:
        step = min(left, len(block))
        parts.append(compressor.compress(block[:step]))
        left -= step
    parts.append(compressor.flush())
    return b"".join(parts)


def pdf(objects):
    """A PDF from its numbered objects (bodies as bytes, object 1 the catalogue), with a correct
    cross-reference table."""
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref))
    return out.getvalue()


def pdf_pages(count, text=b"Page"):
    """A real PDF of `count` pages, each with a line of text."""
    kids = b" ".join(b"%d 0 R" % (4 + 2 * n) for n in range(count))
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, count),
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    for n in range(count):
        content = b"BT /F1 24 Tf 72 720 Td (%s %d) Tj ET" % (text, n + 1)
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >>"
                       b" /Contents %d 0 R >>" % (5 + 2 * n))
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content))
    return pdf(objects)


class Corpus:
    def __init__(self, root, samples, fixtures_tool):
        self.root = Path(root)
        self.samples = Path(samples)
        self.fixtures_tool = fixtures_tool
        self.rng = random.Random(18)
        self.good = []
        self.bad = []

    # MARK: Building

    def build(self):
        """Makes the corpus, or keeps the one made last time from the same script, fixtures and
        samples; returns (good, bad): lists of (label, URI)."""
        index = self.root / "index.json"
        stamp = self.stamp()
        if index.exists():
            kept = json.loads(index.read_text())
            if kept["stamp"] == stamp:
                self.kept = True
                return [tuple(item) for item in kept["good"]], [tuple(item) for item in kept["bad"]]
        self.kept = False
        self.make()
        index.write_text(json.dumps({"stamp": stamp, "good": self.good, "bad": self.bad}))
        return self.good, self.bad

    def stamp(self):
        """What the corpus is made from: this file, the fixtures' program, the samples."""
        digest = hashlib.sha256(Path(__file__).read_bytes())
        digest.update(Path(self.fixtures_tool).read_bytes())
        for folder, _, names in sorted(os.walk(self.samples)):
            for name in sorted(names):
                info = os.stat(os.path.join(folder, name))
                digest.update(b"%s %d %d\n" % (os.fsencode(os.path.join(folder, name)), info.st_size, info.st_mtime_ns))
        return digest.hexdigest()

    def make(self):
        self.remove()
        for folder in ("fixtures", "damaged", "good", "bad"):
            (self.root / folder).mkdir(parents=True)
        subprocess.run([self.fixtures_tool, self.root / "fixtures", self.root / "damaged"], check=True,
                       stdout=subprocess.DEVNULL)
        for path in sorted(self.samples.iterdir()) + sorted((self.samples / "folder").iterdir()):
            self.good.append(("sample " + path.relative_to(self.samples).as_posix(), uri(path)))
        for path in sorted((self.root / "fixtures").iterdir()):
            self.good.append(("fixture " + path.name, uri(path)))
        self.make_good()
        for path in sorted((self.root / "damaged").iterdir()):
            self.bad.append(("damaged fixture " + path.name, uri(path)))
        self.make_damaged_copies()
        self.make_huge_images()
        self.make_hostile_pdfs()
        self.make_hostile_archives()
        self.make_hostile_text()
        self.make_hostile_media_and_fonts()
        self.make_special_files()
        self.add_uris_that_are_not_files()

    def remove(self):
        """Removes a corpus made before (its unreadable folders first made enterable again)."""
        if not self.root.exists():
            return
        for folder, subfolders, _ in os.walk(self.root):
            for name in subfolders:
                path = os.path.join(folder, name)
                if not os.path.islink(path):
                    os.chmod(path, 0o700)
        subprocess.run(["rm", "-rf", "--", str(self.root)], check=True)

    def write(self, name, data, good=False, label=None):
        path = self.root / ("good" if good else "bad") / name
        path.write_bytes(data)
        (self.good if good else self.bad).append((label or name, uri(path)))
        return path

    def add(self, label, path):
        self.bad.append((label, uri(path)))

    def make_good(self):
        """Larger real files than the samples: what a user's folders hold."""
        self.write("report-40-pages.pdf", pdf_pages(40), good=True)
        rows = b"".join(b"\x00" + bytes((x * 7 + y * 3) & 0xff for x in range(3 * 1600)) for y in range(1200))
        self.write("big-picture.png", png(1600, 1200, zlib.compress(rows, 6)), good=True)
        self.write("server.log", b"".join(b"2024-01-01T00:00:%02d host service[%d]: request %d served in %d ms\n"
                                          % (n % 60, n % 977, n, n % 431) for n in range(40_000)), good=True)
        self.write("measurements.csv", b"id,name,value\n" + b"".join(b"%d,Row %d,%d\n" % (n, n, n * 2)
                                                                    for n in range(100_000)), good=True)
        self.write("manual.md", b"".join(b"## Section %d\n\nSome *emphasis*, `code` and a [link](#s%d).\n\n"
                                         b"- one\n- two\n\n> a quote\n\n" % (n, n) for n in range(500)), good=True)

    def make_damaged_copies(self):
        """Each sample cut in half, and each with bytes flipped after its header."""
        for name in ("photo.jpg", "alpha.png", "animation.gif", "drawing.svg", "document.pdf", "archive.zip",
                     "sound.ogg", "clip.webm", "font.ttf", "page.html", "readme.md", "table.csv"):
            data = (self.samples / name).read_bytes()
            self.write("truncated-" + name, data[:len(data) // 2])
            flipped = bytearray(data)
            for offset in range(64, len(flipped), 97):
                flipped[offset] ^= self.rng.randrange(1, 256)
            self.write("corrupt-" + name, bytes(flipped))
        for name in ("photo.jpg", "document.pdf", "archive.zip", "font.ttf"):
            self.write("empty-" + name, b"")

    def make_huge_images(self):
        """Headers that claim enormous pictures, with little or (a real bomb) much data."""
        photo = bytearray((self.samples / "photo.jpg").read_bytes())
        start = photo.find(b"\xff\xc0")
        if start < 0:
            start = photo.find(b"\xff\xc2")
        photo[start + 5:start + 9] = struct.pack(">HH", 65500, 65500)
        self.write("huge-65500x65500.jpg", bytes(photo))
        gif = (b"GIF89a" + struct.pack("<HHBBB", 65535, 65535, 0xf7, 0, 0) + bytes(768)
               + b"," + struct.pack("<HHHHB", 0, 0, 65535, 65535, 0) + b"\x08\x02\x4c\x01\x00;")
        self.write("huge-65535x65535.gif", gif)
        bmp_header = struct.pack("<2sIHHIIiiHHIIiiII", b"BM", 54, 0, 0, 54, 40, 60000, 60000, 1, 32, 0, 0, 0, 0, 0, 0)
        self.write("huge-60000x60000.bmp", bmp_header)
        ifd = [(256, 4, 1, 1_000_000), (257, 4, 1, 1_000_000), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, 1),
               (273, 4, 1, 8), (277, 3, 1, 1), (278, 4, 1, 1_000_000), (279, 4, 1, 1)]
        tiff = b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", len(ifd))
        tiff += b"".join(struct.pack("<HHII", tag, kind, count, value) for tag, kind, count, value in ifd)
        self.write("huge-1000000x1000000.tiff", tiff + struct.pack("<I", 0))
        vp8x = b"VP8X" + struct.pack("<I", 10) + b"\x00\x00\x00\x00" + (0xffffff).to_bytes(3, "little") * 2
        self.write("huge-16777216x16777216.webp", b"RIFF" + struct.pack("<I", 4 + len(vp8x)) + b"WEBP" + vp8x)
        self.write("huge-1000000x1000000.svg", b'<svg xmlns="http://www.w3.org/2000/svg" width="1000000" height="1000000">'
                                                b'<rect width="1000000" height="1000000" fill="red"/></svg>\n')
        laughs = b'<?xml version="1.0"?>\n<!DOCTYPE svg [\n<!ENTITY a "lollollollollollollollollollol">\n'
        for level in range(1, 10):
            laughs += b'<!ENTITY %c "%s">\n' % (97 + level, b"&%c;" % (96 + level) * 10)
        laughs += b']>\n<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><text y="20">&j;</text></svg>\n'
        self.write("billion-laughs.svg", laughs)
        self.write("external-references.svg",
                   b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="200" height="200">'
                   b'<image xlink:href="file:///dev/zero" width="100" height="100"/>'
                   b'<image xlink:href="http://127.0.0.1:9/x.png" width="100" height="100"/>'
                   b'<use xlink:href="#loop"/><g id="loop"><use xlink:href="#loop"/></g></svg>\n')
        # A real decompression bomb: 16384 × 16384 RGB (768 MiB decoded) in about a megabyte.
        side = 16384
        compressor = zlib.compressobj(9)
        row = bytes(1 + 3 * side)
        data = b"".join(compressor.compress(row) for _ in range(side)) + compressor.flush()
        self.write("bomb-16384x16384.png", png(side, side, data))
        # 1 × 1 in its header, with megabytes of image data after it.
        self.write("tiny-header-long-data.png", png(1, 1, deflated_zeros(64 << 20)))

    def make_hostile_pdfs(self):
        catalogue = b"<< /Type /Catalog /Pages 2 0 R >>"
        self.write("pages-cycle.pdf", pdf([catalogue, b"<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>",
                                           b"<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>"]))
        self.write("million-pages-claimed.pdf", pdf([catalogue, b"<< /Type /Pages /Kids [3 0 R] /Count 1000000 >>",
                                                     b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"]))
        self.write("page-200000pt.pdf", pdf([catalogue, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                                             b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200000 200000] /Contents 4 0 R >>",
                                             b"<< /Length 24 >>\nstream\n0 0 200000 200000 re f\nendstream"]))
        stream = deflated_zeros(256 << 20)
        self.write("content-bomb.pdf", pdf([catalogue, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                                            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
                                            b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream
                                            + b"\nendstream"]))
        self.write("encrypted-bogus.pdf", pdf_pages(1).replace(b"/Root 1 0 R", b"/Root 1 0 R /Encrypt << /Filter /Standard /V 9 /R 9 >>"))
        self.write("xref-garbage.pdf", pdf_pages(3)[:-60] + b"startxref\n999999999\n%%EOF\n")
        self.write("many-pages.pdf", pdf_pages(3000))

    def make_hostile_archives(self):
        """Archives with paths that leave the archive, links out of it, and bombs."""
        def zip_bytes(entries, compression=zipfile.ZIP_DEFLATED):
            buffer = io.BytesIO()
            with zipfile.ZipFile(buffer, "w", compression) as archive:
                for entry in entries:
                    if isinstance(entry, zipfile.ZipInfo):
                        archive.writestr(entry, entry.comment)
                    else:
                        archive.writestr(entry[0], entry[1])
            return buffer.getvalue()

        link = zipfile.ZipInfo("link-to-passwd")
        link.create_system = 3
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        link.comment = b"/etc/passwd"
        self.write("traversal.zip", zip_bytes([("../../../../tmp/dossier-soak-escaped.txt", "escaped"),
                                               ("/tmp/dossier-soak-absolute.txt", "absolute"),
                                               ("a/../../escaped.txt", "up"), ("C:\\windows\\escaped.txt", "drive"),
                                               ("inside.txt", "inside"), link]))
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w", format=tarfile.GNU_FORMAT) as archive:
            def add(name, kind=tarfile.REGTYPE, data=b"", target=""):
                info = tarfile.TarInfo(name)
                info.type, info.size, info.linkname, info.mtime = kind, len(data), target, 1704067200
                archive.addfile(info, io.BytesIO(data) if data else None)
            add("../escape.txt", data=b"outside")
            add("/etc/dossier-soak-absolute.txt", data=b"absolute")
            add("link", tarfile.SYMTYPE, target="/etc/passwd")
            add("hard", tarfile.LNKTYPE, target="../../etc/passwd")
            add("device", tarfile.CHRTYPE)
            add("pipe", tarfile.FIFOTYPE)
            add("a/b/c.txt", data=b"inside")
        self.write("traversal.tar", buffer.getvalue())

        # One entry of a GiB of zeros, in about a megabyte.
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
            with archive.open("zeros.bin", "w", force_zip64=True) as entry:
                block = bytes(1 << 24)
                for _ in range(GIB // len(block)):
                    entry.write(block)
        bomb = buffer.getvalue()
        self.write("bomb-1GiB.zip", bomb)
        nested = bomb
        for level in range(8):
            nested = zip_bytes([("level-%d.zip" % level, nested)])
        self.write("nested-bombs.zip", nested)
        path = self.root / "bad" / "bomb-1GiB.tar.gz"
        with tarfile.open(path, "w:gz", compresslevel=9) as archive:
            info = tarfile.TarInfo("zeros.bin")
            info.size = GIB
            archive.addfile(info, _Zeros(GIB))
        self.add(path.name, path)
        self.write("bomb-1GiB.gz", deflated_zeros(GIB, 16 + zlib.MAX_WBITS))
        self.write("many-entries.zip", zip_bytes([("entry-%06d.txt" % n, b"") for n in range(100_000)],
                                                 zipfile.ZIP_STORED))
        self.write("long-name.zip", zip_bytes([("n" * 60_000, b"long")]))
        self.write("garbage.7z", b"7z\xbc\xaf\x27\x1c" + self.random_bytes(8192))
        self.write("garbage.docx", zip_bytes([("[Content_Types].xml", self.random_bytes(2048)),
                                              ("word/document.xml", b"<w:document><w:body>" * 2000)]))
        self.write("garbage.odt", zip_bytes([("mimetype", b"application/vnd.oasis.opendocument.text"),
                                             ("content.xml", self.random_bytes(4096))], zipfile.ZIP_STORED))

    def make_hostile_text(self):
        """Garbage under text names, text that is too long or too deep, web pages that reach out."""
        for extension in ("txt", "md", "csv", "tsv", "json", "html", "swift", "xml", "svg"):
            self.write("garbage." + extension, self.random_bytes(65536))
        self.write("nul.txt", bytes(1 << 20))
        self.write("one-line-20MB.txt", b"word " * (4 << 20))
        self.write("invalid-utf8.md", b"# \xff\xfe\xfd title\n\n" + b"\xc3\x28\xe2\x82 " * 5000)
        self.write("utf16-odd-length.txt", b"\xff\xfe" + "text".encode("utf-16-le") + b"\x00")
        self.write("deep-quotes.md", b"> " * 100_000 + b"deep\n")
        self.write("deep-list.md", b"".join(b"  " * level + b"- item\n" for level in range(3000)))
        self.write("deep-brackets.md", b"[" * 100_000 + b"x" + b"](y)" * 50_000 + b"\n")
        self.write("deep-emphasis.md", b"*_" * 100_000 + b"x\n")
        self.write("deep.json", b"[" * 100_000 + b"]" * 100_000)
        self.write("deep.html", b"<!DOCTYPE html><html><body>" + b"<div>" * 100_000 + b"deep</body></html>\n")
        self.write("wide.csv", b",".join(b"c%d" % n for n in range(100_000)) + b"\n1,2,3\n")
        self.write("unterminated-quote.csv", b'name,value\n"' + b"a,b\n" * 500_000)
        self.write("reaching-out.html",
                   b'<!DOCTYPE html><html><head><meta http-equiv="refresh" content="0; url=file:///etc/passwd">'
                   b'<link rel="stylesheet" href="http://127.0.0.1:9/s.css"><style>@import url("http://127.0.0.1:9/i.css");'
                   b'body { background: url("file:///dev/zero"); }</style></head><body>'
                   b'<script>while (true) {}</script><iframe src="file:///etc/passwd"></iframe>'
                   b'<img src="file:///dev/urandom"><form action="http://127.0.0.1:9/" method="post"></form>'
                   b'<a href="http://127.0.0.1:9/">link</a></body></html>\n')
        # Sparse files: a GiB that takes no disk; readers must not take it all in.
        for extension in ("txt", "csv", "md", "html", "json", "pdf", "png"):
            path = self.root / "bad" / ("sparse-1GiB." + extension)
            with open(path, "wb") as file:
                if extension == "pdf":
                    file.write(b"%PDF-1.4\n")
                elif extension == "png":
                    file.write(png(8000, 8000, b"")[:33])
                file.truncate(GIB)
            self.add(path.name, path)

    def make_hostile_media_and_fonts(self):
        self.write("huge-moov.mp4", struct.pack(">I", 24) + b"ftypmp42\x00\x00\x00\x00mp42isom"
                   + struct.pack(">I", 0xffffffff) + b"moov" + self.random_bytes(4096))
        self.write("endless.wav", b"RIFF" + struct.pack("<I", 0xffffffff) + b"WAVEfmt " + struct.pack("<IHHIIHH", 16, 1, 2, 44100, 176400, 4, 16)
                   + b"data" + struct.pack("<I", 0xffffffff) + self.random_bytes(8192))
        self.write("garbage.mp3", b"ID3\x04\x00\x00\x7f\x7f\x7f\x7f" + self.random_bytes(16384))
        self.write("garbage.mkv", b"\x1a\x45\xdf\xa3" + self.random_bytes(16384))
        self.write("many-tables.ttf", struct.pack(">IHHHH", 0x00010000, 65535, 0, 0, 0)
                   + b"".join(struct.pack(">4sIII", b"glyf", 0, 0xfffffff0, 0xffff) for _ in range(200)))
        self.write("garbage.otf", b"OTTO" + self.random_bytes(8192))
        self.write("garbage.woff2", b"wOF2" + self.random_bytes(8192))

    def make_special_files(self):
        """What is not a regular file one may read: FIFOs, a socket, devices, links that lead
        nowhere or in a loop, unreadable files and folders, a folder with a file's name."""
        bad = self.root / "bad"
        for name in ("fifo.png", "fifo.pdf", "fifo.md", "fifo.zip"):
            os.mkfifo(bad / name)
            self.add(name, bad / name)
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(str(bad / "socket.txt"))
        server.close()
        self.add("socket.txt", bad / "socket.txt")
        for name, target in (("zero.png", "/dev/zero"), ("urandom.txt", "/dev/urandom"), ("null.pdf", "/dev/null"),
                             ("dangling.png", "no-such-file.png"), ("dangling.txt", "/nonexistent/folder/file.txt"),
                             ("loop.txt", "loop.txt"), ("link-to-fifo.md", "fifo.md"),
                             ("link-to-folder.pdf", "/usr/share")):
            os.symlink(target, bad / name)
            self.add(name, bad / name)
        for name in ("unreadable.png", "unreadable.pdf", "unreadable.txt", "unreadable.zip", "unreadable.html"):
            source = {"png": "alpha.png", "pdf": "document.pdf", "txt": "notes.txt", "zip": "archive.zip",
                      "html": "page.html"}[name.rsplit(".", 1)[1]]
            path = self.write(name, (self.samples / source).read_bytes())
            os.chmod(path, 0)
        closed = bad / "unreadable-folder"
        closed.mkdir()
        (closed / "inside.txt").write_bytes(b"hidden\n")
        os.chmod(closed, 0)
        self.add("unreadable-folder", closed)
        self.add("unreadable-folder/inside.txt", closed / "inside.txt")
        (bad / "folder-named.pdf").mkdir()
        self.add("folder-named.pdf", bad / "folder-named.pdf")
        self.add("missing.png", bad / "missing.png")
        for name in ("spaces & ünïcödé %20 #hash?.txt", "new\nline.txt", "n" * 250 + ".md", "-dash.pdf",
                     "\udcff\udcfe-not-utf8.txt"):
            self.write(name, b"named oddly\n")

    def add_uris_that_are_not_files(self):
        for label, text in (("empty URI", ""), ("not a URI", "not a uri"), ("http URI", "http://127.0.0.1:9/x.png"),
                            ("file URI on another host", "file://remotehost/etc/hostname"),
                            ("escaped dots", "file:///%2e%2e/%2e%2e/etc/passwd"), ("NUL escaped", "file:///tmp/a%00b.txt"),
                            ("trash URI", "trash:///"), ("100 KB URI", "file:///" + "a/" * 50_000 + "x.txt"),
                            ("relative URI", "file:notes.txt"), ("query and fragment", uri(self.samples / "notes.txt") + "?q=1#f")):
            self.bad.append((label, text))

    def random_bytes(self, count):
        return self.rng.randbytes(count)


class _Zeros(io.RawIOBase):
    """A file object of `size` zero bytes, for tarfile to read from without holding them."""

    def __init__(self, size):
        self.left = size

    def readable(self):
        return True

    def readinto(self, buffer):
        count = min(len(buffer), self.left)
        buffer[:count] = bytes(count)
        self.left -= count
        return count
