#!/usr/bin/env bash
# Installs the Debian packages Dossier builds, runs and tests with, when any is missing,
# and generates the locales the translation tests use. Safe to run again: with everything
# present it only checks. Needs root or sudo the first time on a fresh machine.
set -euo pipefail

packages=(
  # build: the C libraries behind the module maps
  pkg-config libglib2.0-dev libgtk-4-dev libadwaita-1-dev
  libgdk-pixbuf-2.0-dev libpoppler-glib-dev libpango1.0-dev libjpeg62-turbo-dev libpng-dev
  libgtksourceview-5-dev libwebkitgtk-6.0-dev libarchive-dev libx11-dev libxdamage-dev libfontconfig-dev libgstreamer-plugins-base1.0-dev
  # text in legacy encodings: the charset detector GNOME-era apps and Mozilla use
  libuchardet-dev
  # Markdown: GitHub's CommonMark parser (in the decoder worker), and its command, the spec test's oracle
  libcmark-gfm-dev libcmark-gfm-extensions-dev cmark-gfm
  # the decoder worker's seccomp filter
  libseccomp-dev
  # the previewer's media: GStreamer through GtkMediaFile
  libgtk-4-media-gstreamer gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  # Space in Files: the real Nautilus, and Sushi as the peer the previewer is measured against
  nautilus gnome-sushi
  # the sidebar's volume test mounts gvfs's localtest backend (gvfsd-localtest) with `gio mount`
  gvfs-daemons
  # office documents in the previewer
  libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui
  # thumbnails: the sandbox, and the desktop's own thumbnailers Dossier runs and is measured against
  bubblewrap ffmpegthumbnailer evince libgdk-pixbuf2.0-bin gir1.2-gnomedesktop-4.0 webp-pixbuf-loader
  # SVG through GdkPixbuf (only recommended by GTK, and installs skip recommendations here)
  librsvg2-common procps
  # type database, translations, desktop data checks, install through meson
  shared-mime-info gettext locales desktop-file-utils appstream meson ninja-build
  # tests: a display, a session bus, accessibility, input, screenshots, a GTK 4 peer for drag and drop
  xvfb xauth dbus dbus-x11 at-spi2-core python3-gi gir1.2-gtk-4.0 python3-dogtail xdotool x11-utils xclip imagemagick
  # tests: text in Chinese, Japanese and Korean drawn with real glyphs (the encodings tests look at them)
  fonts-wqy-microhei
  # samples and benchmarks: file(1) is the peer the type detection is measured against
  file ffmpeg fonts-dejavu-core zip poppler-utils
  # tests: fonts Pango cannot lay out, drawn by FreeType: a Type 1 font as Ghostscript installs
  # it, and bdftopcf to make a PCF of the BDF fixture
  fonts-urw-base35 xfonts-utils
  # tags: getfattr/setfattr read and write user.xdg.tags as other programs do
  attr
  # remote locations (RemoteLocationTests): GVFS's sftp, smb and dav backends, and the real
  # servers the tests start on 127.0.0.1 with their own configurations (DossierFixtures'
  # RemoteServer), never the system services these packages install
  gvfs-backends openssh-client openssh-server samba samba-common-bin apache2 apache2-utils passwd
  # make bench: the remote folder bench reads each app's view through AT-SPI with Debian's python3
  python3-pyatspi
  # make test-distros: the chroots of Debian 12, 13 and testing
  mmdebstrap
  # make test-stress: the suite with every core kept busy
  stress-ng
  # make soak: its namespace and capabilities (util-linux's unshare and setpriv), a hung service's stacks
  util-linux gdb
)

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$package")
done

as_root() {
  if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi
}

# The same names serve Debian 12, 13 and testing, but for what a newer suite dropped (evince
# on testing) or folded into another package (libgtk-4-media-gstreamer, in libgtk-4-1 from GTK
# 4.19). With the package lists already there, such a name is not asked for again.
installable() {
  local package
  for package in "$@"; do
    # grep reads to the end: with pipefail, -q's early exit would fail apt-cache with SIGPIPE
    if apt-cache show "$package" 2>/dev/null | grep '^Package:' >/dev/null; then echo "$package"; fi
  done
}
if ((${#missing[@]})) && compgen -G '/var/lib/apt/lists/*_Packages' >/dev/null; then
  mapfile -t missing < <(installable "${missing[@]}")
fi
if ((${#missing[@]})); then
  as_root apt-get update -qq
  mapfile -t available < <(installable "${missing[@]}")
  for package in "${missing[@]}"; do
    [[ " ${available[*]} " == *" $package "* ]] || echo "Not in this Debian: $package (skipped)"
  done
  if ((${#available[@]})); then
    echo "Installing missing Debian packages: ${available[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${available[@]}"
  fi
fi

# The zh_CN translation is tested with LANG=zh_CN.UTF-8, which needs the locale itself.
if ! locale -a 2>/dev/null | grep -qi '^zh_CN\.utf-\?8$'; then
  echo "Generating the zh_CN.UTF-8 locale"
  as_root localedef -i zh_CN -f UTF-8 zh_CN.UTF-8
fi
