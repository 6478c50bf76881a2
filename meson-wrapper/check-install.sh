#!/bin/sh
# Checks a Dossier install tree made by `meson install [--destdir DESTDIR]`.
#
# Usage: check-install.sh DESTDIR PREFIX
#   e.g. meson install -C build-meson --destdir /tmp/stage && check-install.sh /tmp/stage /usr
#   Pass "" (or /) as DESTDIR for a direct install.
#
# Prints every check and exits non-zero if any of them failed.
set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 DESTDIR PREFIX" >&2
    exit 2
fi

destdir=${1%/}
prefix=${2%/}
case "$prefix" in
    /*) ;;
    *) echo "check-install.sh: PREFIX must be absolute, got '$prefix'" >&2; exit 2 ;;
esac
root="$destdir$prefix"

app_id=io.github.dossier.Dossier
version=0.1.0
failures=0
checks=0

pass() { checks=$((checks + 1)); echo "PASS: $*"; }
fail() { checks=$((checks + 1)); failures=$((failures + 1)); echo "FAIL: $*"; }
warn() { echo "WARN: $*"; }
indent() { sed '/^[[:space:]]*$/d; s/^/      /'; }

have() { command -v "$1" >/dev/null 2>&1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dossier-check-install.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

echo "Checking Dossier install tree $root (DESTDIR='$destdir', PREFIX='$prefix')"

# --- binary ------------------------------------------------------------------------------------
bin="$root/bin/dossier"
if [ -f "$bin" ] && [ -x "$bin" ]; then
    pass "binary $bin exists and is executable"
    if out=$("$bin" --version 2>&1); then
        case "$out" in
            *"$version"*) pass "'dossier --version' prints: $out" ;;
            *) fail "'dossier --version' prints '$out', expected it to contain $version" ;;
        esac
    else
        fail "'dossier --version' failed:"
        printf '%s\n' "$out" | indent
    fi
else
    fail "binary $bin missing or not executable"
fi

decoder="$root/libexec/dossier/dossier-decoder"
if [ -f "$decoder" ] && [ -x "$decoder" ]; then
    pass "decoder worker $decoder exists and is executable"
else
    fail "decoder worker $decoder missing or not executable"
fi

# --- desktop file ------------------------------------------------------------------------------
desktop="$root/share/applications/$app_id.desktop"
if [ -f "$desktop" ]; then
    pass "desktop file $desktop present"
    if have desktop-file-validate; then
        if out=$(desktop-file-validate "$desktop" 2>&1); then
            pass "desktop-file-validate $desktop"
            [ -n "$out" ] && printf '%s\n' "$out" | indent
        else
            fail "desktop-file-validate $desktop:"
            printf '%s\n' "$out" | indent
        fi
    else
        fail "desktop-file-validate not installed (apt install desktop-file-utils)"
    fi
    if grep -q '^Exec=dossier ' "$desktop"; then
        pass "desktop file runs 'dossier'"
    else
        fail "desktop file Exec= does not run 'dossier'"
    fi
    if grep -q "^Icon=$app_id\$" "$desktop"; then
        pass "desktop file Icon=$app_id"
    else
        fail "desktop file Icon= is not $app_id"
    fi
    if grep -q '^MimeType=.*inode/directory;' "$desktop" && grep -q '^MimeType=.*application/pdf;' "$desktop"; then
        pass "desktop file offers Dossier for folders and documents (MimeType= has inode/directory, application/pdf)"
    else
        fail "desktop file MimeType= lacks inode/directory or application/pdf"
    fi
    if grep -qx 'DBusActivatable=true' "$desktop"; then
        # A D-Bus activatable app needs a session service of the same name (Desktop Entry spec).
        if [ -f "$root/share/dbus-1/services/$app_id.service" ]; then
            pass "DBusActivatable=true and $app_id.service is installed"
        else
            fail "DBusActivatable=true but $root/share/dbus-1/services/$app_id.service is missing"
        fi
    fi
else
    fail "desktop file $desktop missing"
fi

# --- AppStream metainfo ------------------------------------------------------------------------
metainfo="$root/share/metainfo/$app_id.metainfo.xml"
if [ -f "$metainfo" ]; then
    pass "metainfo $metainfo present"
    if have appstreamcli; then
        if out=$(appstreamcli validate --no-net "$metainfo" 2>&1); then
            pass "appstreamcli validate --no-net $metainfo"
            printf '%s\n' "$out" | indent
        else
            fail "appstreamcli validate --no-net $metainfo:"
            printf '%s\n' "$out" | indent
        fi
    else
        fail "appstreamcli not installed (apt install appstream)"
    fi
    if grep -q "<launchable type=\"desktop-id\">$app_id.desktop</launchable>" "$metainfo"; then
        pass "metainfo launchable is $app_id.desktop"
    else
        fail "metainfo has no <launchable type=\"desktop-id\">$app_id.desktop</launchable>"
    fi
else
    fail "metainfo $metainfo missing"
fi

# --- icons -------------------------------------------------------------------------------------
xml_ok() {
    if have python3; then
        python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$1" 2>&1
    elif have xmllint; then
        xmllint --noout "$1" 2>&1
    else
        return 0
    fi
}
for icon in \
    "$root/share/icons/hicolor/scalable/apps/$app_id.svg" \
    "$root/share/icons/hicolor/symbolic/apps/$app_id-symbolic.svg"
do
    if [ -s "$icon" ]; then
        if out=$(xml_ok "$icon"); then
            pass "icon $icon present and well-formed"
        else
            fail "icon $icon is not well-formed XML:"
            printf '%s\n' "$out" | indent
        fi
    else
        fail "icon $icon missing or empty"
    fi
done

# --- D-Bus service -----------------------------------------------------------------------------
service="$root/share/dbus-1/services/$app_id.service"
if [ -f "$service" ]; then
    pass "D-Bus service $service present"
    if grep -qx '\[D-BUS Service\]' "$service" && grep -qx "Name=$app_id" "$service"; then
        pass "D-Bus service declares Name=$app_id"
    else
        fail "D-Bus service lacks [D-BUS Service] / Name=$app_id"
    fi
    expected_exec="Exec=$prefix/bin/dossier --gapplication-service"
    if grep -qxF "$expected_exec" "$service"; then
        pass "D-Bus service has $expected_exec"
    else
        fail "D-Bus service Exec is '$(grep '^Exec=' "$service")', expected '$expected_exec'"
    fi
    if grep -q '@' "$service"; then
        fail "D-Bus service still contains an unsubstituted @placeholder@"
    fi
else
    fail "D-Bus service $service missing"
fi

# --- MIME package ------------------------------------------------------------------------------
mime="$root/share/mime/packages/$app_id.xml"
if [ -f "$mime" ]; then
    pass "MIME package $mime present"
    if have update-mime-database; then
        mkdir -p "$tmp/mime/packages"
        cp "$mime" "$tmp/mime/packages/"
        if out=$(update-mime-database "$tmp/mime" 2>&1); then
            missing=""
            for type in application/x-dossier-bookmark application/x-dossier-previewer text/x-swift; do
                grep -qx "$type" "$tmp/mime/types" || missing="$missing $type"
            done
            if [ -z "$missing" ]; then
                pass "update-mime-database accepts the MIME package (declares x-dossier-bookmark, x-dossier-previewer, text/x-swift)"
            else
                fail "MIME package does not declare:$missing"
            fi
            if grep -q ':text/x-swift:\*\.swift$' "$tmp/mime/globs2"; then
                pass "MIME package maps *.swift to text/x-swift"
            else
                fail "MIME package has no *.swift glob for text/x-swift"
            fi
        else
            fail "update-mime-database rejects the MIME package:"
            printf '%s\n' "$out" | indent
        fi
    else
        warn "update-mime-database not installed; MIME package not checked"
    fi
else
    fail "MIME package $mime missing"
fi

# --- translations ------------------------------------------------------------------------------
mo="$root/share/locale/zh_CN/LC_MESSAGES/dossier.mo"
if [ -s "$mo" ]; then
    if have msgunfmt; then
        if msgunfmt "$mo" >/dev/null 2>"$tmp/msgunfmt.err"; then
            pass "catalogue $mo present and readable"
        else
            fail "catalogue $mo is not a valid .mo file:"
            indent <"$tmp/msgunfmt.err"
        fi
    else
        pass "catalogue $mo present"
    fi
    # Does the installed binary find it (it looks in <prefix>/share/locale beside bin/)?
    if [ -x "$bin" ]; then
        plain=$(LC_ALL=C.UTF-8 LANGUAGE= "$bin" --help 2>&1)
        chinese=$(LC_ALL=C.UTF-8 LANGUAGE=zh_CN "$bin" --help 2>&1)
        if [ "$plain" != "$chinese" ]; then
            pass "'LANGUAGE=zh_CN dossier --help' is translated"
        else
            warn "'LANGUAGE=zh_CN dossier --help' is not translated (are the --help strings in zh_CN.po?)"
        fi
    fi
else
    fail "catalogue $mo missing or empty"
fi
for other in "$root"/share/locale/*/LC_MESSAGES/dossier.mo; do
    [ -e "$other" ] || continue
    [ "$other" = "$mo" ] && continue
    pass "catalogue $other present"
done

# --- summary -----------------------------------------------------------------------------------
echo
if [ "$failures" -eq 0 ]; then
    echo "check-install.sh: all $checks checks passed for $root"
    exit 0
fi
echo "check-install.sh: $failures of $checks checks FAILED for $root"
exit 1
