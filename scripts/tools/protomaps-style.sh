#!/usr/bin/env bash
# Writes Tests/Fixtures/styles/protomaps-light/style.json: Protomaps' basemap style, flavor
# `light`, labels in English, as @protomaps/basemaps' own generate_style writes it. Protomaps
# publishes the style as TypeScript that npm builds; npm's registry is not reachable here, so the
# sources (styles/src/*.ts of a checkout of github.com/protomaps/basemaps) are compiled with
# Debian's TypeScript (node-typescript; type errors about the absent npm type packages are
# expected: only types are imported from them) and run with Debian's Node.js. The one change to
# what generate_style writes: `sprite` names the vendored copy of Protomaps' v4 light sprite
# (sprites/light, from github.com/protomaps/basemaps-assets) instead of its URL.
#
# Usage: scripts/tools/protomaps-style.sh BASEMAPS_CHECKOUT
set -euo pipefail

[ $# -eq 1 ] && [ -d "$1/styles/src" ] || { echo "usage: $0 BASEMAPS_CHECKOUT (a checkout of github.com/protomaps/basemaps)" >&2; exit 2; }
command -v node >/dev/null && command -v tsc >/dev/null || { echo "protomaps-style: needs Debian's nodejs and node-typescript (apt-get install nodejs node-typescript)" >&2; exit 1; }
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OUT="$ROOT/Tests/Fixtures/styles/protomaps-light/style.json"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

tsc --target es2020 --module commonjs --moduleResolution node --skipLibCheck --noResolve --isolatedModules \
    --outDir "$work/js" "$1"/styles/src/{index,base_layers,flavors,language,generate_style}.ts >"$work/tsc.log" 2>&1 || true
[ -s "$work/js/generate_style.js" ] || { cat "$work/tsc.log" >&2; echo "protomaps-style: tsc wrote no JavaScript" >&2; exit 1; }
node -e '
const [js, out] = process.argv.slice(1);
require(js + "/generate_style").generateStyle(["https://api.protomaps.com/tiles/v4.json", "light", "en"]).then((text) => {
  const style = JSON.parse(text);
  style.sprite = "sprites/light";
  require("fs").writeFileSync(out, JSON.stringify(style, null, 2) + "\n");
});' "$work/js" "$OUT.partial"
mv "$OUT.partial" "$OUT"
echo "protomaps-style: wrote ${OUT#"$ROOT"/} ($(grep -c '"id":' "$OUT") layers; @protomaps/basemaps $(node -p "require('$1/styles/package.json').version"))"
