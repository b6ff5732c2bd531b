#!/usr/bin/env bash
# Installs everything Mapwright needs on a fresh Debian/Ubuntu machine: the C libraries the
# system-library targets link (through pkg-config), PROJ's data, pinned fonts, and the offline
# world basemap (Tiles/basemap/world_map.gpkg).
# Idempotent: packages already present are left alone. Works as root or through sudo.
set -euo pipefail

say() { printf 'setup: %s\n' "$*"; }

if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    say "needs root or sudo to install system packages" >&2
    exit 1
fi

# System packages: C libraries for the system-library targets, PROJ's data, the fonts the
# renderer pins (DejaVu for Latin, Greek, Cyrillic, Arabic, Hebrew; WenQuanYi Micro Hei for
# Chinese, Japanese, Korean; Noto for other scripts), python3 for the tests' loopback tile
# server, their MBTiles checks and the benchmarks' pixelmatch comparison, and gdal-bin, whose
# gdalinfo the tests run on exported MBTiles files (bounds, zoom levels); libjs-leaflet, whose
# files `mapwright serve` serves to its web viewer (no CDN); chromium and python3-websocket,
# with which the tests drive the viewer in a headless browser (DevTools protocol); wrk and
# nginx-light for scripts/bench/serve.sh (nginx serves the same tiles as static files).
PACKAGES=(
    pkg-config
    libcairo2-dev
    libpango1.0-dev
    libpng-dev
    libproj-dev
    proj-data
    libsqlite3-dev
    libturbojpeg0-dev
    libexif-dev
    zlib1g-dev
    fonts-dejavu-core
    fonts-wqy-microhei
    fonts-noto-core
    python3
    python3-venv
    gdal-bin
    libjs-leaflet
    chromium
    python3-websocket
    wrk
    nginx-light
)

missing=()
for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
    say "system packages already installed"
fi

# Offline basemap: the Natural Earth-derived world map that Debian's qgis-common ships as a
# GeoPackage (countries, states_provinces, disputed_borders). Copied from an installed QGIS when
# there is one; otherwise the package is downloaded and unpacked with dpkg -x, so none of QGIS's
# GUI dependencies are installed. The folder is git-ignored.
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BASEMAP_DIR="$REPO_ROOT/Tiles/basemap"
BASEMAP="$BASEMAP_DIR/world_map.gpkg"
QGIS_BASEMAP="usr/share/qgis/resources/data/world_map.gpkg"

is_sqlite() { [ -s "$1" ] && [ "$(head -c 15 "$1")" = "SQLite format 3" ]; }

if is_sqlite "$BASEMAP"; then
    say "basemap already at ${BASEMAP#"$REPO_ROOT"/}"
else
    mkdir -p "$BASEMAP_DIR"
    if is_sqlite "/$QGIS_BASEMAP"; then
        say "copying the basemap from the installed QGIS (/$QGIS_BASEMAP)"
        cp "/$QGIS_BASEMAP" "$BASEMAP.partial"
    else
        say "downloading qgis-common for its world map (the package is unpacked, not installed)"
        workdir="$(mktemp -d)"
        trap 'rm -rf "$workdir"' EXIT
        # apt-get download drops root to the _apt user, which must be able to write here.
        chmod 755 "$workdir"
        [ "$(id -u)" -eq 0 ] && chown _apt "$workdir" 2>/dev/null || true
        $SUDO apt-get update -qq
        (cd "$workdir" && $SUDO apt-get download -qq qgis-common)
        dpkg -x "$workdir"/qgis-common_*.deb "$workdir/root"
        cp "$workdir/root/$QGIS_BASEMAP" "$BASEMAP.partial"
        rm -rf "$workdir"
        trap - EXIT
    fi
    if ! is_sqlite "$BASEMAP.partial"; then
        rm -f "$BASEMAP.partial"
        say "the basemap is not an SQLite file (GeoPackage): giving up" >&2
        exit 1
    fi
    mv "$BASEMAP.partial" "$BASEMAP"
    say "basemap ready at ${BASEMAP#"$REPO_ROOT"/} ($(du -h "$BASEMAP" | cut -f1))"
fi

if ! command -v swift >/dev/null 2>&1; then
    say "swift is not on PATH: install a Swift 6 toolchain (https://swift.org/install) and run again" >&2
    exit 1
fi
say "ready"
