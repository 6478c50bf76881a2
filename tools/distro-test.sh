#!/usr/bin/env bash
# `make test-distros`: builds and tests Dossier on every Debian that carries a current GNOME.
#
#   bookworm  Debian 12      GLib 2.74, GTK 4.8,  libadwaita 1.2,  Nautilus 43
#   trixie    Debian 13      GLib 2.84, GTK 4.18, libadwaita 1.7,  Nautilus 48
#   forky     Debian testing GLib 2.90, GTK 4.24, libadwaita 1.10, Nautilus 51
#
# For each suite: a chroot made with mmdebstrap from the machine's own Debian mirror (kept in
# a cache outside the clone, so a second run only checks it), the host's Swift toolchain bound
# in read-only, Dossier built from this tree into the cache, then the DocumentCore tests (and
# the video frames' conversion, VideoFrameTests), the previewer's D-Bus contract as that suite's
# Nautilus speaks it, and the end-to-end test with that suite's real Nautilus (Space previews,
# Right shows the next file) under Xvfb.
#
# `make bench-distros` runs the step `bench` alone (DOSSIER_DISTRO_STEPS=bench): the previewer
# bench against that suite's Sushi, with the floor of its stack (see bench_step below).
#
# Usage: tools/distro-test.sh [suite ...]   (default: bookworm trixie forky)
# Environment: DOSSIER_DISTRO_CACHE (default /var/cache/dossier-distros), SWIFT_ROOT (the
# toolchain's prefix, found from `swift` on PATH), DOSSIER_DISTRO_STEPS (default
# "build core contract nautilus"; also "bench"), DOSSIER_BENCH_PARTS (the bench step's
# DossierBench parts: default "previewer", "floor" on bookworm), DOSSIER_BENCH_INPUTS (the
# previewer bench's inputs, default the tree's .build/bench-inputs), DOSSIER_BENCH_ROUNDS,
# DOSSIER_BENCH_KINDS (the previewer bench's kinds, e.g. "video"), DOSSIER_TRACE_STAGES=1 (the
# showings' stage trace, `tools/stage-trace.py`).
set -euo pipefail

# Chroots, bind mounts and a second user need root.
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "distro-test: run as root (chroots and bind mounts)" >&2; exit 2; }
  exec sudo -E "$0" "$@"
fi

tree=$(cd "$(dirname "$0")/.." && pwd)
cache=${DOSSIER_DISTRO_CACHE:-/var/cache/dossier-distros}
steps=${DOSSIER_DISTRO_STEPS:-build core contract nautilus}
suites=("$@")
((${#suites[@]})) || suites=(bookworm trixie forky)

if [[ -z ${SWIFT_ROOT:-} ]]; then
  swift_bin=$(readlink -f "$(command -v swift)")
  SWIFT_ROOT=$(dirname "$(dirname "$(dirname "$swift_bin")")")
fi

say() { printf '\n=== %s\n' "$*"; }

# The mirror this machine already uses for Debian (its own apt sources), so the repository
# names no host.
mirror() {
  local uri
  uri=$(grep -h -E '^(URIs:|deb )' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null \
        | grep -v -E 'security|updates|backports' | grep -o -E '(https?|file)://[^ ]*/debian/?' | head -1)
  [[ -n $uri ]] || { echo "distro-test: no Debian mirror in /etc/apt/sources*" >&2; exit 2; }
  echo "${uri%/}"
}

# What each chroot holds: the build's C libraries, what the Swift toolchain itself needs, and
# what the tests drive (a display, a session bus, accessibility, Nautilus). libpng-dev (the
# thumbnail workers' PNGs) comes with libgtk-4-dev's libcairo2-dev on every suite; naming it
# here would remake every cached chroot for nothing.
packages_common=(
  pkg-config make gcc libc6-dev libstdc++-dev-placeholder
  libglib2.0-dev libgtk-4-dev libadwaita-1-dev libgdk-pixbuf-2.0-dev libpoppler-glib-dev libpango1.0-dev
  libjpeg62-turbo-dev libgtksourceview-5-dev libwebkitgtk-6.0-dev libarchive-dev libx11-dev libxdamage-dev libfontconfig-dev libseccomp-dev
  libgstreamer-plugins-base1.0-dev libuchardet-dev libcmark-gfm-dev libcmark-gfm-extensions-dev cmark-gfm
  libgtk-4-media-gstreamer gstreamer1.0-plugins-base shared-mime-info gettext desktop-file-utils librsvg2-common fonts-dejavu-core
  curl libsqlite3-0 libncurses6 tzdata ca-certificates
  nautilus xvfb xauth dbus dbus-x11 at-spi2-core python3-pyatspi python3-gi xdotool x11-utils imagemagick procps
  mount attr file bubblewrap gvfs-daemons libglib2.0-bin webp-pixbuf-loader
)

packages_for() {
  local list=("${packages_common[@]/libstdc++-dev-placeholder/g++}")
  case $1 in
    forky) ;;                         # libxml2.so.2 is gone: see swift_compat
    *) list+=(libxml2) ;;
  esac
  printf '%s\n' "${list[@]}"
}

# The Swift toolchain's Foundation links libxml2.so.2, which forky no longer ships (it has
# libxml2.so.16). The host's copy, with the ICU it was built against, goes into a folder of its
# own, on LD_LIBRARY_PATH in `inside`: every program there could see it, but only the
# toolchain asks for these sonames (GtkSourceView links libxml2.so.16).
swift_compat() {
  local root=$1 dir=$1/opt/swift-compat/lib lib
  mkdir -p "$dir"
  for lib in $(ldd "$SWIFT_ROOT/usr/lib/swift/linux/libFoundationXML.so" | awk '/libxml2|libicu/ {print $3}'); do
    cp -L "$lib" "$dir/"
  done
}

# Makes the suite's chroot unless the cache has one made from the same package list and
# toolchain in the last week (a suite's updates, and testing's new versions, come in then).
make_chroot() {
  local suite=$1 root=$cache/$1/root stamp=$cache/$1/packages
  local packages; packages=$(packages_for "$suite")
  local wanted; wanted=$(echo "$packages"; echo "toolchain $SWIFT_ROOT: $("$SWIFT_ROOT/usr/bin/swift" --version 2>&1 | head -1)")
  if [[ -f $stamp && $(cat "$stamp") == "$wanted" && -x $root/usr/bin/nautilus && -z $(find "$stamp" -mtime +7) ]]; then
    echo "distro-test: $suite chroot cached in $root"
    return
  fi
  rm -rf --one-file-system "$cache/$suite"
  mkdir -p "$cache/$suite"
  local source; source=$(mirror)
  echo "distro-test: making the $suite chroot from $source"
  mmdebstrap --variant=apt --mode=root --quiet \
    --aptopt='Acquire::Check-Valid-Until "false"' \
    --aptopt='APT::Install-Recommends "false"' \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --include="$(echo "$packages" | paste -sd, -)" \
    "$suite" "$root" "deb $source $suite main"
  [[ $suite == forky ]] && swift_compat "$root"
  echo "$wanted" > "$stamp"
}

# The unprivileged user the Nautilus step runs as: Nautilus 50 and later exit when started by
# root ("Running as root is not supported"), and the earlier ones warn that they cannot work
# correctly. The tests' other steps run as root, as `make test` does in CI.
tester_uid=1000

# More bind mounts for `inside` (bwrap's arguments), set by a step that needs them.
extra_binds=()

# Runs a command inside the suite's chroot (bubblewrap: no mounts leak to the host), with the
# toolchain and this tree bound read-only and the build folder in the cache.
inside() {
  local suite=$1; shift
  local root=$cache/$suite/root
  mkdir -p "$cache/$suite/build" "$cache/$suite/home"
  grep -q '^tester:' "$root/etc/passwd" || {
    echo "tester:x:$tester_uid:$tester_uid:Dossier's tests:/home/tester:/bin/bash" >> "$root/etc/passwd"
    echo "tester:x:$tester_uid:" >> "$root/etc/group"
  }
  # /proc is the host's (a new procfs here would keep the thumbnailers' own bubblewrap from
  # mounting one), and /tmp the chroot's own folder, no mount point (as on the host: the
  # bookmark and volume tests read the mount table). /sys is the host's, read-only: WebKit's
  # own sandbox binds parts of it (/sys/block…), and without them its web process never
  # starts and GLib aborts the renderer's process.
  bwrap --bind "$root" / --dev /dev --bind /proc /proc --ro-bind /sys /sys --tmpfs /run \
    --ro-bind "$SWIFT_ROOT" /opt/swift --ro-bind "$tree" /src \
    --bind "$cache/$suite/build" /build --bind "$cache/$suite/home" /home/tester \
    "${extra_binds[@]}" --die-with-parent --chdir /src \
    --setenv PATH /opt/swift/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --setenv HOME /root --setenv LANG C.UTF-8 \
    --setenv LD_LIBRARY_PATH /opt/swift-compat/lib \
    "$@"
}

versions() {
  inside "$1" bash -c '
    v() { dpkg-query -W -f="\${Version}" "$1" 2>/dev/null || echo "not installed"; }
    echo "  Debian      $(cat /etc/debian_version)"
    echo "  GLib        $(v libglib2.0-dev)"
    echo "  GTK         $(v libgtk-4-dev)"
    echo "  libadwaita  $(v libadwaita-1-dev)"
    echo "  Nautilus    $(v nautilus)"
    echo "  Sushi       $(v gnome-sushi)"
    echo "  poppler     $(v libpoppler-glib-dev)"
    echo "  WebKitGTK   $(v libwebkitgtk-6.0-dev)"
    echo "  GtkSourceView $(v libgtksourceview-5-dev)"'
}

# Builds Dossier and its tests into the suite's cache (an incremental build when the cache has
# one), with the build tree's translations and MIME types; prints how many deprecation
# warnings Dossier's own code gets from that suite's libraries.
build() {
  local suite=$1 log=$cache/$1/build.log
  if ! inside "$suite" bash -c 'swift build --build-tests --scratch-path /build/swift 2>&1 && make --no-print-directory BUILD_DIR=/build/swift translations mime >/dev/null' > "$log"; then
    grep -E 'error:' "$log" | sort -u | head -40
    echo "distro-test: $suite: the build failed (log: $log)"
    return 1
  fi
  # Deprecation warnings come only from files compiled in this run: counted on a full build.
  if grep -q 'Compiling GObjectSupport' "$log"; then
    local deprecated
    deprecated=$(grep -o -E "warning: '[A-Za-z_0-9]+' is deprecated" "$log" | sort -u | sed "s/warning: //; s/ is deprecated//" | paste -sd' ' -)
    echo "distro-test: $suite: built; deprecated functions in use: ${deprecated:-none} (log: $log)"
  else
    echo "distro-test: $suite: built incrementally (log: $log)"
  fi
}

# The Swift tests matching a filter, under the suite's own Xvfb and session bus, through the
# Makefile's test-swift (as `make test` runs them on the host).
swift_tests() {
  local suite=$1 filter=$2
  inside "$suite" make --no-print-directory BUILD_DIR=/build/swift TESTS="$filter" test-swift
}

# One test (Module.Class/method) as the unprivileged user, with its own test home, run by the
# test bundle itself (swift test would write to the build folder); screenshots go with the others.
swift_test_as_user() {
  local suite=$1 test=$2
  mkdir -p "$cache/$suite/build/swift/test-screenshots"
  chmod 1777 "$cache/$suite/build/swift/test-screenshots"
  chown -R "$tester_uid:$tester_uid" "$cache/$suite/home"
  mkdir -p "$cache/$suite/home/tmp" && chown "$tester_uid:$tester_uid" "$cache/$suite/home/tmp"
  inside "$suite" setpriv --reuid="$tester_uid" --regid="$tester_uid" --clear-groups -- \
    env HOME=/home/tester TMPDIR=/home/tester/tmp make --no-print-directory BUILD_DIR=/build/swift TEST_HOME=/home/tester/test-home \
    SCREENSHOTS=/build/swift/test-screenshots TEST_RUNNER="/build/swift/debug/DossierPackageTests.xctest $test" test-swift
}

# What the bench adds to a chroot: Sushi, and the GStreamer plugins both previewers need for the
# VP9 video. Installed on top when the bench step first runs in a chroot, not in the package
# list: make test-distros (CI) never needs them, so it neither downloads them nor remakes the
# chroots for them, and its stamp still lists what it installed. The bench's own stamp is in the
# suite's folder, which goes with the chroot when that is made anew (then the bench installs
# them again). A chroot with Sushi still tests Dossier's previewer: the tests' service file, in
# their own XDG data folder, wins over Sushi's system one, as on a desktop that has both.
bench_packages=(gnome-sushi gstreamer1.0-plugins-good)

add_bench_packages() {
  local suite=$1 stamp=$cache/$1/bench-packages
  if [[ -f $stamp && $(cat "$stamp") == "${bench_packages[*]}" && -x $cache/$suite/root/usr/libexec/org.gnome.NautilusPreviewer ]]; then
    echo "distro-test: $suite: ${bench_packages[*]} installed"
    return
  fi
  echo "distro-test: $suite: installing ${bench_packages[*]} for the bench"
  inside "$suite" env DEBIAN_FRONTEND=noninteractive bash -c '
    apt-get -o Acquire::Check-Valid-Until=false update -qq &&
    apt-get install -y -qq --no-install-recommends "$@" >/dev/null && apt-get clean' _ "${bench_packages[@]}"
  echo "${bench_packages[*]}" > "$stamp"
}

# The previewer bench, as make bench runs it on the host (static release build, private XDG
# folders, Xvfb and a session bus), inside the chroot against its own Sushi, with the floor of
# the stack (a bare libadwaita window built there with gcc); as root, as make bench and the
# other steps run (Sushi and Dossier's service both start for root). The inputs are the host's
# (the chroots have neither ffmpeg nor LibreOffice: the ODT is left out), bound read-only. Debian
# 12 runs the floor alone unless DOSSIER_BENCH_PARTS says otherwise: make bench on the host
# measures its previewer. The output is kept in the suite's folder for the summary.
bench_step() {
  local suite=$1 log=$cache/$1/bench-build.log parts=${DOSSIER_BENCH_PARTS:-}
  [[ -n $parts ]] || { [[ $suite == bookworm ]] && parts=floor || parts=previewer; }
  rm -f "$cache/$suite/bench.txt"
  add_bench_packages "$suite"
  # The floor alone is a C program the bench times from outside: the test build's DossierBench
  # (debug, incremental) watches it as well as a release one, without a release build of Dossier.
  local build=(BENCH_BUILD=/build/static BENCH_CONFIG=release)
  local compile=(make --no-print-directory BUILD_DIR=/build/swift BENCH_BUILD=/build/static bench-build)
  if [[ $parts == floor ]]; then
    build=(BENCH_BUILD=/build/swift BENCH_CONFIG=debug)
    compile=(swift build --product DossierBench --scratch-path /build/swift)
  fi
  if ! inside "$suite" "${compile[@]}" > "$log" 2>&1 \
     || ! inside "$suite" make --no-print-directory BUILD_DIR=/build/swift mime >> "$log" 2>&1; then
    grep -E 'error:' "$log" | sort -u | head -40
    echo "distro-test: $suite: the bench's build failed (log: $log)"
    return 1
  fi
  local inputs=${DOSSIER_BENCH_INPUTS:-$tree/.build/bench-inputs}
  if [[ -d $inputs ]]; then
    extra_binds=(--ro-bind "$(readlink -f "$inputs")" /bench-inputs)
  else
    echo "distro-test: no bench inputs in $inputs (make bench makes them): the suite's cache gets its own, without video"
    mkdir -p "$cache/$suite/bench-inputs"
    extra_binds=(--bind "$cache/$suite/bench-inputs" /bench-inputs)
  fi
  inside "$suite" env ${DOSSIER_BENCH_ROUNDS:+DOSSIER_BENCH_ROUNDS=$DOSSIER_BENCH_ROUNDS} \
    ${DOSSIER_BENCH_KINDS:+DOSSIER_BENCH_KINDS=$DOSSIER_BENCH_KINDS} ${DOSSIER_TRACE_STAGES:+DOSSIER_TRACE_STAGES=$DOSSIER_TRACE_STAGES} \
    make --no-print-directory BUILD_DIR=/build/swift "${build[@]}" BENCH_INPUTS=/bench-inputs \
    BENCH_PARTS="$parts" bench-session 2>&1 | tee "$cache/$suite/bench.txt"
  local status=${PIPESTATUS[0]}
  extra_binds=()
  return "$status"
}

failed=()
passed=0
for suite in "${suites[@]}"; do
  say "$suite: chroot"
  start=$SECONDS
  make_chroot "$suite"
  versions "$suite"
  echo "distro-test: $suite chroot ready in $((SECONDS - start)) s"
  for step in $steps; do
    start=$SECONDS
    say "$suite: $step"
    case $step in
      build) build "$suite" ;;
      # With the video frames' conversion, which only GTK 4.20 and later need (it skips below),
      # and Markdown through each suite's cmark-gfm.
      core) swift_tests "$suite" 'DocumentCoreTests|VideoFrameTests|MarkdownDocumentTests|MarkdownSpecTests' ;;
      contract) swift_tests "$suite" 'PreviewerBusContractTests' ;;
      nautilus) swift_test_as_user "$suite" 'DossierTests.PreviewerUITests/testSpaceInNautilusShowsDossiersPreviewerAndRightMovesToTheNextFile' ;;
      bench) bench_step "$suite" ;;
      *) echo "distro-test: unknown step $step"; false ;;
    esac && status=passed || status=FAILED
    echo "distro-test: $suite $step $status in $((SECONDS - start)) s"
    if [[ $status == passed ]]; then passed=$((passed + 1)); else failed+=("$suite $step"); fi
    [[ $status == passed || $step != build ]] || break
  done
  [[ -d $cache/$suite/build/swift/test-screenshots ]] && echo "distro-test: $suite screenshots in $cache/$suite/build/swift/test-screenshots"
done

say "summary"
if [[ " $steps " == *" bench "* ]]; then
  for suite in "${suites[@]}"; do
    [[ -f $cache/$suite/bench.txt ]] || continue
    echo "--- $suite: $(cat "$cache/$suite/root/etc/debian_version")"
    grep -E '^(Previewer|Floor|  )' "$cache/$suite/bench.txt" | grep -v '^Previewer: making'
  done
fi
((${#failed[@]} == 0)) || printf 'distro-test: failed: %s\n' "${failed[@]}"
echo "distro-test: $passed passed, ${#failed[@]} failed"
((${#failed[@]} == 0))
