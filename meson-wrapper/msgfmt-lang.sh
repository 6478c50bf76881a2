#!/bin/sh
# Compiles one gettext catalogue into OUTDIR/LC_MESSAGES/DOMAIN.mo, so that meson can install
# OUTDIR (named after the language) straight into the locale folder.
# Usage: msgfmt-lang.sh MSGFMT PO_FILE OUTDIR DOMAIN
set -eu

if [ $# -ne 4 ]; then
    echo "usage: $0 MSGFMT PO_FILE OUTDIR DOMAIN" >&2
    exit 2
fi

msgfmt=$1
po=$2
outdir=$3
domain=$4

mkdir -p "$outdir/LC_MESSAGES"
"$msgfmt" --check --output-file="$outdir/LC_MESSAGES/$domain.mo.tmp" "$po"
mv -f "$outdir/LC_MESSAGES/$domain.mo.tmp" "$outdir/LC_MESSAGES/$domain.mo"
# The output is a folder: bump its timestamp so ninja sees it as up to date.
touch "$outdir"
