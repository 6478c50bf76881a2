#!/bin/sh
# Builds the `dossier` and `dossier-decoder` products with SwiftPM and copies them to the paths
# meson expects (OUTPUT, and dossier-decoder in the same folder).
# Usage: swift-build.sh SWIFT PACKAGE_PATH SCRATCH_PATH OUTPUT [extra `swift build` arguments...]
set -eu

if [ $# -lt 4 ]; then
    echo "usage: $0 SWIFT PACKAGE_PATH SCRATCH_PATH OUTPUT [swift build args...]" >&2
    exit 2
fi

swift=$1
package_path=$2
scratch_path=$3
output=$4
shift 4

for product in dossier dossier-decoder; do
    echo "swift-build.sh: $swift build -c release --package-path $package_path --scratch-path $scratch_path --product $product $*"
    "$swift" build -c release --package-path "$package_path" --scratch-path "$scratch_path" \
        --product "$product" "$@"
done

bin_path=$("$swift" build -c release --package-path "$package_path" --scratch-path "$scratch_path" \
    --show-bin-path "$@")
# Copy only when a binary changed, so a no-op build leaves the outputs' timestamps alone.
for product in dossier dossier-decoder; do
    built="$bin_path/$product"
    target="$(dirname "$output")/$product"
    if [ ! -x "$built" ]; then
        echo "swift-build.sh: $built was not built" >&2
        exit 1
    fi
    if [ -f "$target" ] && cmp -s "$built" "$target"; then
        continue
    fi
    cp -f "$built" "$target.tmp"
    mv -f "$target.tmp" "$target"
done
