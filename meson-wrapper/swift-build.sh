#!/bin/sh
# Builds the `dossier` product with SwiftPM and copies it to the path meson expects.
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

echo "swift-build.sh: $swift build -c release --package-path $package_path --scratch-path $scratch_path --product dossier $*"
"$swift" build -c release --package-path "$package_path" --scratch-path "$scratch_path" \
    --product dossier "$@"

bin_path=$("$swift" build -c release --package-path "$package_path" --scratch-path "$scratch_path" \
    --show-bin-path "$@")
built="$bin_path/dossier"
if [ ! -x "$built" ]; then
    echo "swift-build.sh: $built was not built" >&2
    exit 1
fi

# Copy only when the binary changed, so a no-op build leaves the output's timestamp alone.
if [ -f "$output" ] && cmp -s "$built" "$output"; then
    exit 0
fi
cp -f "$built" "$output.tmp"
mv -f "$output.tmp" "$output"
