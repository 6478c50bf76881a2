#!/bin/bash
# Installs Sketchbook's files into a data folder (PREFIX/share), as a package would into
# /usr/share: its MIME type, its desktop entry and the type's default, its thumbnailer, its
# previewer for Dossier, and the blank sketch New offers. BINARY is the path of the
# `sketchbook` program the entries run (an absolute path: Dossier's sandbox sees a program
# outside /usr only through it).
#
#   bash Examples/Sketchbook/install-data.sh SHARE BINARY
set -euo pipefail
share=$1
binary=$2
here=$(cd "$(dirname "$0")" && pwd)
data=$here/data

mkdir -p "$share/mime/packages" "$share/applications" "$share/thumbnailers" "$share/dossier/previewers" \
  "$share/sketchbook/templates"
cp "$data/io.github.dossier.Sketchbook.xml" "$share/mime/packages/"
# (with the folder among the data folders: otherwise it prints a note that it is not)
XDG_DATA_DIRS="$share:${XDG_DATA_DIRS:-/usr/local/share:/usr/share}" update-mime-database "$share/mime"

fill() { sed "s|@BINARY@|$binary|g" "$1" >"$2"; }
fill "$data/io.github.dossier.Sketchbook.desktop.in" "$share/applications/io.github.dossier.Sketchbook.desktop"
fill "$data/sketchbook.thumbnailer.in" "$share/thumbnailers/sketchbook.thumbnailer"
fill "$data/sketchbook.previewer.in" "$share/dossier/previewers/sketchbook.previewer"
cp "$data/Sketch.sketch" "$share/sketchbook/templates/Sketch.sketch"

# The owner's rank: the app is its type's default in this data folder's mimeapps.list (the
# list a distribution or a package's defaults go into), kept with other types' lines.
list=$share/applications/mimeapps.list
line='application/x-sketchbook=io.github.dossier.Sketchbook.desktop'
if [ ! -f "$list" ]; then
  printf '[Default Applications]\n%s\n' "$line" >"$list"
elif ! grep -qxF "$line" "$list"; then
  if grep -q '^\[Default Applications\]' "$list"; then
    sed -i "/^\[Default Applications\]/a $line" "$list"
  else
    printf '\n[Default Applications]\n%s\n' "$line" >>"$list"
  fi
fi
update-desktop-database --quiet "$share/applications"
