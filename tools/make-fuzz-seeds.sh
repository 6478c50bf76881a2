#!/bin/bash
# make-fuzz-seeds.sh — write the seed corpus of every fuzz target (Tests/Fuzz/<target>/).
#
# Usage:  tools/make-fuzz-seeds.sh [OUTPUT_DIR]      (default: Tests/Fuzz)
#
# The seeds are committed; this script documents how each was made, from Dossier's own
# fixtures: data/samples (tools/make-samples.sh), Sources/DossierFixtures (compiled here with
# a few lines that print its files), the files Dossier's CLI writes (bookmarks, recents,
# trash), the test suites' key files, and D-Bus messages built by GLib (python3-gi). Inputs
# on which the fuzzer finds a crash, a hang or a leak are added by hand, named `crash-…`,
# `hang-…` or `leak-…`, and kept as regression seeds: this script never removes a file.
#
# Needs a built Dossier (`make build`): the CLI writes the bookmark, recents and trash seeds.
set -euo pipefail

export LC_ALL=C.UTF-8 TZ=UTC
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$here/Tests/Fuzz}"
dossier="${DOSSIER_BINARY:-$here/.build/debug/dossier}"
# A fixed folder, so that the paths inside the seeds stay the same from run to run.
work="${TMPDIR:-/tmp}/dossier-fuzz-seeds"
rm -rf "$work" && mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
[[ -x "$dossier" ]] || { echo "make-fuzz-seeds: $dossier not found (make build first)" >&2; exit 1; }

seed() {  # seed TARGET NAME: standard input becomes Tests/Fuzz/TARGET/NAME
    mkdir -p "$out/$1"
    cat > "$out/$1/$2"
}

# --- Files from DossierFixtures, printed by a small program compiled with its sources --------
cat > "$work/main.swift" <<'EOF'
import Foundation
let folder = CommandLine.arguments[1]
func write(_ name: String, _ bytes: [UInt8]) {
    FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(bytes))
}
for kind in SampleFiles.kinds { write(kind.name, kind.content) }
write("exif-rotated.jpg", EXIF.inserting(into: SampleFiles.jpeg, orientation: 6))
write("exif-thumbnail.jpg", EXIF.inserting(into: SampleFiles.jpeg, orientation: 8, thumbnail: SampleFiles.jpeg))
write("bomb.png", EXIF.bombPNG(width: 100_000, height: 100_000))
EOF
mkdir -p "$work/fixtures"
swiftc -o "$work/fixtures-dump" "$work/main.swift" "$here/Sources/DossierFixtures/SampleFiles.swift" \
  "$here/Sources/DossierFixtures/EXIF.swift" 2>/dev/null
"$work/fixtures-dump" "$work/fixtures"
fixture() { cat "$work/fixtures/$1"; }

# --- markdown --------------------------------------------------------------------------------
seed markdown readme.md < "$here/data/samples/readme.md"
seed markdown todo.md < "$here/data/samples/folder/todo.md"
fixture readme.md | seed markdown fixture-readme.md
seed markdown everything.md <<'EOF'
Setext heading
==============

## ATX *heading* with `code`

A paragraph with **strong**, _emphasis_, ~~struck~~, a [link](https://example.org "title"),
a [reference][ref], an autolink <https://example.org>, &amp; entities &#x263A;, a \*escape\*
and a hard break  
at the end. ![a picture](picture.png) ![missing](nowhere/none.png)

> A quote
> > nested, with a list:
> > - one

1. first
2. second
   - [x] done
   - [ ] to do

```swift
let fenced = "code"
```

    indented code

| left | centre | right |
|:-----|:------:|------:|
| a    | b      | c     |

---

[ref]: https://example.org/ref "Reference"
EOF

# --- csv -------------------------------------------------------------------------------------
seed csv table.csv < "$here/data/samples/table.csv"
fixture table.csv | seed csv fixture-table.csv
printf 'a,b,c\r\n1,"x, y","say ""hi"""\r\n2,"two\nlines",\r\n' | seed csv quoted.csv
printf '\xef\xbb\xbfh1;h2\n\n1;2,5\n3;"unterminated' | seed csv bom-semicolons.csv
printf 'name\tsize\na\t1\nb\t2\n' | seed csv table.tsv
printf 'caf\xe9,na\xefve\r\n1,2\r\n' | seed csv windows-1252.csv

# --- bookmark, recents, trashinfo: what Dossier's CLI writes --------------------------------
home="$work/home"
mkdir -p "$home"/{config,data,cache,runtime}
chmod 700 "$home/runtime"
run() {
    env HOME="$home" XDG_CONFIG_HOME="$home/config" XDG_DATA_HOME="$home/data" XDG_CACHE_HOME="$home/cache" \
        XDG_RUNTIME_DIR="$home/runtime" "$dossier" "$@"
}
printf 'notes\n' > "$home/notes.txt"
mkdir -p "$home/folder"
run bookmark create "$home/notes.txt" | seed bookmark notes.base64
base64 -d < "$out/bookmark/notes.base64" | seed bookmark notes.dossierbookmark
run bookmark create "$home/folder" | base64 -d | seed bookmark folder.dossierbookmark
run recents --add "$home/notes.txt" "$home/folder" >/dev/null
seed recents dossier.xbel < "$home/data/recently-used.xbel"
seed recents other-program.xbel <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<xbel version="1.0"
      xmlns:bookmark="http://www.freedesktop.org/standards/desktop-bookmarks"
      xmlns:mime="http://www.freedesktop.org/standards/shared-mime-info"
>
  <bookmark href="file:///tmp/report%20final.pdf" added="2024-01-01T10:00:00.000000Z" modified="2024-01-02T10:00:00Z" visited="2024-01-03T10:00:00Z">
    <title>Report</title>
    <info>
      <metadata owner="http://freedesktop.org">
        <mime:mime-type type="application/pdf"/>
        <bookmark:groups><bookmark:group>Office</bookmark:group></bookmark:groups>
        <bookmark:applications>
          <bookmark:application name="Document Viewer" exec="&apos;evince %u&apos;" modified="2024-01-03T10:00:00Z" count="3"/>
        </bookmark:applications>
        <bookmark:private/>
      </metadata>
    </info>
  </bookmark>
  <bookmark href="sftp://host/home/ann/notes.txt" added="2024-01-01T10:00:00Z" modified="2024-01-01T10:00:00Z" visited="2024-01-01T10:00:00Z">
    <info><metadata owner="http://freedesktop.org"><mime:mime-type type="text/plain"/>
      <bookmark:applications><bookmark:application name="gedit" exec="&apos;gedit %u&apos;" modified="2024-01-01T10:00:00Z" count="1"/></bookmark:applications>
    </metadata></info>
  </bookmark>
</xbel>
EOF
printf 'to be deleted\n' > "$home/deleted file é.txt"
run trash "$home/deleted file é.txt" >/dev/null
seed trashinfo dossier.trashinfo < "$(ls "$home/data/Trash/info/"*.trashinfo | head -1)"
printf '[Trash Info]\nPath=foo/bar/meow.bmp\nDeletionDate=2004-08-31T22:32:08\n' | seed trashinfo specification.trashinfo
printf '# comment\n[Other]\nPath=/nope\n[Trash Info]\nDeletionDate=2024-01-01T00:00:00.123+01:00\nPath=%%2Fhome%%2Fann%%2Fa%%20b\nPath=/second\n' \
  | seed trashinfo groups-and-escapes.trashinfo

# --- applications ----------------------------------------------------------------------------
seed desktop-entry dossier.desktop < "$here/data/io.github.dossier.Dossier.desktop"
seed desktop-entry localized.desktop <<'EOF'
[Desktop Entry]
Type=Application
Name=Viewer
Name[de]=Betrachter
Icon=/usr/share/icons/viewer.png
Exec=viewer --new-window %U
TryExec=viewer
MimeType=image/png;image/jpeg;application/pdf;
Actions=new;
DBusActivatable=false

[Desktop Action new]
Name=New Window
Exec=viewer --new
EOF
seed mimeapps gnome.list <<'EOF'
[Default Applications]
text/plain=editor.desktop
image/png=viewer.desktop;editor.desktop;
application/pdf=missing.desktop;viewer.desktop

[Added Associations]
text/markdown=editor.desktop;
image/png=hidden.desktop;

[Removed Associations]
application/pdf=viewer.desktop;
EOF

# --- previewers and thumbnailers (as the test suites install them) --------------------------
seed previewer tar-summary.previewer <<'EOF'
[Previewer Entry]
Name=Tar summary
TryExec=bash
Exec=bash -c "echo 'An archive, summarised by an external previewer' > \"$1\"" previewer %o
MimeType=application/x-tar;
Output=text
EOF
seed previewer office.previewer <<'EOF'
[Previewer Entry]
Name=Office
Name[fr]=Bureau
Exec=soffice --headless --convert-to pdf --outdir %o %i
MimeType=application/vnd.oasis.opendocument.text;application/msword;
Output=PDF
EOF
seed thumbnailer tar.thumbnailer <<'EOF'
[Thumbnailer Entry]
TryExec=bash
Exec=bash -c 'convert -size %sx%s xc:red "$0"' %o %i %u %%
MimeType=application/x-tar;
EOF
seed thumbnailer evince-like.thumbnailer <<'EOF'
[Thumbnailer Entry]
TryExec=evince-thumbnailer
Exec=evince-thumbnailer -s %s %u %o
MimeType=application/pdf;application/x-bzpdf;application/x-gzpdf;
EOF

# --- tags ------------------------------------------------------------------------------------
printf 'work,urgent' | seed tags kde.value
printf ' spaced , repeated,repeated,,Ünïcödé,日本語 ' | seed tags untidy.value

# --- D-Bus: NautilusPreviewer2 calls as GLib serializes them --------------------------------
/usr/bin/python3 - "$out/dbus-previewer" <<'EOF'
import os, sys
from gi.repository import Gio, GLib
folder = sys.argv[1]
os.makedirs(folder, exist_ok=True)
def call(name, member, body, interface="org.gnome.NautilusPreviewer2"):
    message = Gio.DBusMessage.new_method_call("org.gnome.NautilusPreviewer", "/org/gnome/NautilusPreviewer", interface, member)
    if body is not None:
        message.set_body(body)
    message.set_serial(7)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(message.to_blob(Gio.DBusCapabilityFlags.NONE))
call("show-file-3.bin", "ShowFile", GLib.Variant("(ssb)", ("file:///home/ann/report.pdf", "x11:3a00004", False)))
call("show-file-4.bin", "ShowFile", GLib.Variant("(ssbs)", ("file:///home/ann/a%20b.png", "wayland:abc", True, "token-1")))
call("show-file-remote.bin", "ShowFile", GLib.Variant("(ssbs)", ("sftp://host/x", "", False, "")))
call("close.bin", "Close", None)
call("unknown.bin", "NavigateTo", GLib.Variant("(s)", ("file:///",)))
EOF

# --- state.ini (as WindowState writes it) ---------------------------------------------------
seed state-ini state.ini <<'EOF'
# Dossier's window state; rewritten as you use it.
[window]
width=1200
height=800
maximized=false

[browser]
location=file:///home/ann/Documents
view-mode=list
sort={"key":"modified","reversed":true}
show-hidden=true
zoom-level=3
EOF
printf '[window]\nwidth=10\nheight=abc\n[browser]\nlocation=tag:rot\nview-mode=grid\n' | seed state-ini odd-values.ini

# --- image headers ---------------------------------------------------------------------------
for name in image.png photo.jpg anim.gif picture.bmp scan.tiff photo.webp favicon.ico drawing.svg bomb.png; do
    fixture "$name" | seed image-header "$name"
done
seed image-header animation.gif < "$here/data/samples/animation.gif"
seed image-header samples-drawing.svg < "$here/data/samples/drawing.svg"

# --- a PDF worker's page answers (PDFPageCoding: u32 count, per link 4 × f64, u32 length, URI;
# u32 count, per character u32 scalar, 4 × f64; little-endian) ------------------------------------
/usr/bin/python3 - "$out/pdf-answer" <<'EOF'
import os, struct, sys
folder = sys.argv[1]
os.makedirs(folder, exist_ok=True)
def answer(links, glyphs):
    data = struct.pack("<I", len(links))
    for box, uri in links:
        data += struct.pack("<4dI", *box, len(uri.encode())) + uri.encode()
    data += struct.pack("<I", len(glyphs))
    for scalar, box in glyphs:
        data += struct.pack("<I4d", ord(scalar), *box)
    return data
glyphs = [(c, (40 + 14 * i, 180, 52 + 14 * i, 204)) for i, c in enumerate("Hello, PDF")]
open(os.path.join(folder, "link-and-text.bin"), "wb").write(answer([((0, 0, 400, 400), "https://example.org/dossier")], glyphs))
open(os.path.join(folder, "empty.bin"), "wb").write(answer([], []))
open(os.path.join(folder, "outside-and-wide.bin"), "wb").write(
    answer([((-50, -1e9, 5e9, 20), "mailto:a@example.org")], [("报", (990, 1390, 1200, 1500)), ("\U0001F600", (0, 0, 0, 0))]))
EOF

# --- archives --------------------------------------------------------------------------------
for name in bundle.zip backup.tar notes.gz data.bz2 data.xz archive.7z letter.odt; do
    fixture "$name" | seed archive "$name"
done
seed archive samples-archive.zip < "$here/data/samples/archive.zip"
/usr/bin/python3 - "$out/archive" <<'EOF'
import io, os, sys, tarfile, zipfile
folder = sys.argv[1]
with zipfile.ZipFile(os.path.join(folder, "traversal.zip"), "w") as archive:
    for name in ["../escape.txt", "/absolute.txt", "C:\\windows.txt", "a/./b/../../c.txt", "ok/inner.txt"]:
        info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
        archive.writestr(info, b"x\n")
with zipfile.ZipFile(os.path.join(folder, "long-name.zip"), "w") as archive:
    # A name of 366 bytes in UTF-8: longer than a file name may be (255 bytes).
    archive.writestr(zipfile.ZipInfo("报告/" + "年度报告" * 30 + ".txt", date_time=(2024, 1, 1, 0, 0, 0)), b"x\n")
buffer = io.BytesIO()
with tarfile.open(fileobj=buffer, mode="w", format=tarfile.GNU_FORMAT) as archive:
    for name, kind in [("folder", tarfile.DIRTYPE), ("folder/link", tarfile.SYMTYPE), ("folder/file.txt", tarfile.REGTYPE)]:
        info = tarfile.TarInfo(name)
        info.type, info.mtime = kind, 1704067200
        if kind == tarfile.SYMTYPE:
            info.linkname = "../../etc/passwd"
        data = b"hello\n" if kind == tarfile.REGTYPE else b""
        info.size = len(data)
        archive.addfile(info, io.BytesIO(data))
with open(os.path.join(folder, "links.tar"), "wb") as f:
    # Without the padding to tarfile's 10 KiB record: the entries, then the two zero blocks.
    data = buffer.getvalue().rstrip(b"\0")
    f.write(data + b"\0" * (-len(data) % 512 + 1024))
EOF

# --- EXIF ------------------------------------------------------------------------------------
for name in exif-rotated.jpg exif-thumbnail.jpg photo.jpg; do
    fixture "$name" | seed exif "$name"
done

# --- favorites, user folders ----------------------------------------------------------------
printf 'file:///home/ann/Documents Documents\nsftp://ann@host/srv/share Server share\n\nnot a uri\nfile:///tmp\nsmb://nas/m%%C3%%BCsic\n' \
  | seed favorites gtk-bookmarks
seed user-dirs user-dirs.dirs <<'EOF'
# This file is written by xdg-user-dirs-update
# If you want to change or add directories, just edit the line you're
# interested in. All local changes will be retained on the next run.
# Format is XDG_xxx_DIR="$HOME/yyy", where yyy is a shell-escaped
# homedir-relative path, or XDG_xxx_DIR="/yyy", where /yyy is an
# absolute path. No other format is supported.
#
XDG_DESKTOP_DIR="$HOME/Desktop"
XDG_DOWNLOAD_DIR="$HOME/Downloads"
XDG_TEMPLATES_DIR="$HOME/"
XDG_PUBLICSHARE_DIR="/srv/public"
XDG_DOCUMENTS_DIR="$HOME/Dokumente"
XDG_MUSIC_DIR="$HOME/Music"
XDG_PICTURES_DIR="$HOME/Pictures"
XDG_VIDEOS_DIR="$HOME/Videos"
EOF

# --- thumbnails as Dossier writes them into the shared cache ---------------------------------
fixture image.png > "$home/picture.png"
run thumbnail --size normal "$home/picture.png" >/dev/null
seed thumbnail-text dossier-thumbnail.png < "$(ls "$home/cache/thumbnails/normal/"*.png | head -1)"
fixture image.png | seed thumbnail-text fixture.png

# --- web pages -------------------------------------------------------------------------------
seed remote-content page.html < "$here/data/samples/page.html"
seed remote-content remote.html <<'EOF'
<!DOCTYPE html>
<html><head><base href="https://example.org/docs/">
<link rel="stylesheet" href="https://example.org/style.css"><link rel=canonical href="https://example.org/">
<style>@import "https://example.org/more.css"; body { background: url( 'https://example.org/bg.png' ) }</style>
</head><body>
<img src=HTTPS://example.org/a.png srcset="b.png 1x, https://example.org/b@2x.png 2x" alt='x'>
<a href="https://example.org/link">a link loads nothing</a>
<div style="background-image:url(ftp://example.org/c.png)"></div>
<svg><image xlink:href="http://example.org/d.svg"/></svg>
</body></html>
EOF

echo "make-fuzz-seeds: seeds in $out"
