#!/usr/bin/env bash
# Whether two mapwright builds draw the same bytes: the check a speed change must pass (issue 51:
# "keep the output of every render byte-identical"). Runs the same commands with both binaries
# and compares every output with cmp: the four public styles of Tests/Fixtures/styles over the
# Helsinki sample at Mapwright zooms 13, 16, 17 and 18 and turned at 2x, the streets style at
# 1200x800 @2x, photos with clusters and a callout, a pitched view, an SVG, and an OSM Bright
# export of 512-point tiles at zooms 12-16 (its tiles' bytes hashed: the file's metadata holds
# times). Prints each output that differs and exits 1 if any does.
#
# Usage: scripts/bench/identical.sh OLD_MAPWRIGHT NEW_MAPWRIGHT
#   e.g. build the old one from a worktree of the commit before: git worktree add /tmp/old HEAD~1
#   && (cd /tmp/old && swift build -c release --product mapwright)
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 OLD_MAPWRIGHT NEW_MAPWRIGHT" >&2; exit 2; }
for binary in "$1" "$2"; do
    [ -x "$binary" ] || { echo "identical.sh: $binary: not an executable mapwright" >&2; exit 2; }
done
cd "$(dirname "$0")/../.."
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
SAMPLE=Samples/helsinki/helsinki.mbtiles
# The checkout's styles and basemap, wherever the binaries were built or copied to.
export MAPWRIGHT_DATA="$PWD"

draw() {  # BIN OUT
    local B="$1" O="$2"
    mkdir -p "$O"
    for s in osm-bright positron dark-matter maptiler-basic; do
        for z in 13 16 17 18; do
            "$B" render --style "Tests/Fixtures/styles/$s/style.json" --vector-source "$SAMPLE" \
                --center 60.17165,24.94425 --zoom "$z" --size 800x600 -o "$O/$s-$z.png"
        done
        "$B" render --style "Tests/Fixtures/styles/$s/style.json" --vector-source "$SAMPLE" \
            --center 60.1675,24.95 --zoom 16.5 --heading 30 --size 600x400 --scale 2 -o "$O/$s-turned.png"
    done
    "$B" render --style streets --vector-source "$SAMPLE" --center 60.17165,24.94425 --zoom 15 \
        --size 1200x800 --scale 2 -o "$O/streets.png"
    "$B" render --photos Samples/helsinki/photos.csv --select first --cluster --style streets --vector-source "$SAMPLE" \
        --center 60.17,24.945 --zoom 15 --size 600x400 --scale 2 -o "$O/photos.png"
    "$B" render --photos Samples/helsinki/photos.csv --select first --center 60.17,24.94 --zoom 14 --pitch 60 \
        --heading 30 --size 600x400 -o "$O/pitched.png"
    "$B" render --photos Samples/helsinki/photos.csv --select first --size 600x400 --format svg -o "$O/photos.svg"
    "$B" tiles export --style Tests/Fixtures/styles/osm-bright/style.json --vector-source "$SAMPLE" \
        --bbox 24.935176,60.164155,24.953415,60.179113 --zoom 12-16 --tile-size 512 -o "$O/export.mbtiles" >/dev/null 2>&1
    sqlite3 "$O/export.mbtiles" "SELECT zoom_level, tile_column, tile_row, hex(tile_data) FROM tiles ORDER BY 1, 2, 3" \
        | sha256sum > "$O/export.tiles"
    rm -f "$O/export.mbtiles"
}

draw "$1" "$WORK/old"
draw "$2" "$WORK/new"
differing=0
for file in "$WORK"/old/*; do
    name="$(basename "$file")"
    if ! cmp -s "$file" "$WORK/new/$name"; then
        echo "differs: $name"
        differing=$((differing + 1))
    fi
done
echo "$(ls "$WORK/old" | wc -l) outputs compared, $differing differ"
[ "$differing" -eq 0 ]
