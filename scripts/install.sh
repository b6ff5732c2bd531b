#!/usr/bin/env bash
# Builds mapwright in release and installs it with its data:
#
#   PREFIX/bin/mapwright                        the executable (Swift's runtime linked in statically)
#   PREFIX/share/mapwright/Styles/              the named styles and their README
#   PREFIX/share/mapwright/Tiles/basemap/       the offline basemap (world_map.gpkg, places_map.gpkg)
#   PREFIX/share/mapwright/Tiles/tilemaker/     tilemaker's OpenMapTiles profile, for `mapwright basemap build`
#   PREFIX/share/mapwright/Fonts/               extra fonts, when the checkout has a Fonts/ folder
#   PREFIX/share/mapwright/Tiles/maplibre-gl/     MapLibre GL JS and its licence, for serve's GL viewer
#
# The executable finds that data from its own real path, whatever the working directory (see
# docs/data-and-caches.md). The pinned fonts themselves are system packages setup.sh installs.
#
# Usage: scripts/install.sh [PREFIX]       PREFIX defaults to /usr/local; it needs write access
# (run as root, or through sudo, for a system folder). Runs scripts/setup.sh first when the
# basemap (either file) or MapLibre GL JS is missing. Installing again replaces the executable and the data.
set -euo pipefail

say() { printf 'install: %s\n' "$*"; }
fail() { printf 'install: %s\n' "$*" >&2; exit 2; }

[ $# -le 1 ] || fail "usage: scripts/install.sh [PREFIX]"
PREFIX="${1:-/usr/local}"
[ -n "$PREFIX" ] || fail "PREFIX: empty"
case "$PREFIX" in
    /*) ;;
    *) PREFIX="$(pwd)/$PREFIX" ;;
esac
PREFIX="${PREFIX%/}"

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BASEMAP_DIR="$REPO_ROOT/Tiles/basemap"
BASEMAP_FILES=(world_map.gpkg places_map.gpkg)
DATA="$PREFIX/share/mapwright"

is_sqlite() { [ -s "$1" ] && [ "$(head -c 15 "$1")" = "SQLite format 3" ]; }
MAPLIBRE_DIR="$REPO_ROOT/Tiles/maplibre-gl"
data_ready() {
    local file
    for file in "${BASEMAP_FILES[@]}"; do is_sqlite "$BASEMAP_DIR/$file" || return 1; done
    [ -s "$MAPLIBRE_DIR/maplibre-gl.js" ] && [ -s "$MAPLIBRE_DIR/maplibre-gl.css" ]
}
if ! data_ready; then
    say "the basemap or MapLibre GL JS is missing: running scripts/setup.sh"
    bash "$REPO_ROOT/scripts/setup.sh"
fi
for file in "${BASEMAP_FILES[@]}"; do
    is_sqlite "$BASEMAP_DIR/$file" || fail "Tiles/basemap/$file is still missing after scripts/setup.sh"
done
[ -s "$MAPLIBRE_DIR/maplibre-gl.js" ] || fail "Tiles/maplibre-gl/maplibre-gl.js is still missing after scripts/setup.sh"

say "building mapwright in release (swift build -c release)"
cd "$REPO_ROOT"
swift build -c release --product mapwright --static-swift-stdlib
BIN_DIR="$(swift build -c release --static-swift-stdlib --show-bin-path)"

mkdir -p "$PREFIX/bin" "$DATA" 2>/dev/null || fail "$PREFIX: cannot create folders there; run as root or choose a PREFIX you own"
[ -w "$PREFIX/bin" ] && [ -w "$DATA" ] || fail "$PREFIX: not writable; run as root or choose a PREFIX you own"

# The data goes to a staging folder beside its place, then replaces the old data in one rename
# each, so a running mapwright never sees half a style folder.
stage="$(mktemp -d "$DATA/.install.XXXXXX")"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/Styles" "$stage/Tiles/basemap" "$stage/Tiles/tilemaker" "$stage/Tiles/maplibre-gl"
install -m 644 "$REPO_ROOT"/Styles/*.json "$REPO_ROOT/Styles/README.md" "$stage/Styles/"
install -m 644 "$REPO_ROOT"/Tiles/tilemaker/* "$stage/Tiles/tilemaker/"
for file in "${BASEMAP_FILES[@]}"; do install -m 644 "$BASEMAP_DIR/$file" "$stage/Tiles/basemap/$file"; done
install -m 644 "$MAPLIBRE_DIR"/maplibre-gl.js "$MAPLIBRE_DIR"/maplibre-gl.css "$MAPLIBRE_DIR"/LICENSE.txt \
    "$stage/Tiles/maplibre-gl/"
if [ -d "$REPO_ROOT/Fonts" ]; then cp -R "$REPO_ROOT/Fonts" "$stage/Fonts"; fi
chmod -R u=rwX,go=rX "$stage"
for item in Styles Tiles Web Fonts; do
    [ -e "$stage/$item" ] || continue
    rm -rf "$DATA/$item.old"
    [ -e "$DATA/$item" ] && mv "$DATA/$item" "$DATA/$item.old"
    mv "$stage/$item" "$DATA/$item"
    rm -rf "$DATA/$item.old"
done

install -m 755 "$BIN_DIR/mapwright" "$PREFIX/bin/.mapwright.partial"
mv -f "$PREFIX/bin/.mapwright.partial" "$PREFIX/bin/mapwright"

say "installed $PREFIX/bin/mapwright and its data in $DATA"
case ":$PATH:" in
    *":$PREFIX/bin:"*) ;;
    *) say "$PREFIX/bin is not on PATH: add it, or run $PREFIX/bin/mapwright" ;;
esac
