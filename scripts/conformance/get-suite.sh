#!/usr/bin/env bash
# Prints the folder of the GL render-test suite (the render tests and their assets), getting it
# when it is not here:
#   1. $MAPWRIGHT_GL_SUITE, when set;
#   2. ../shared/gl-render-suite beside the checkout, or beside the checkout it was cloned
#      from (a local clone made for a clean build: git clone . /tmp/fresh);
#   3. a copy in ~/.cache/mapwright/gl-render-suite, cloned once from the public repository
#      (mapwhit/tilerenderer, a maintained fork of GL JS; BSD-3-Clause) at the pinned commit,
#      only its test/integration folder.
set -euo pipefail
repository="https://github.com/mapwhit/tilerenderer.git"
commit="f8632a5aec4c06aeb13c6efdc6dbe171d993f301"
root="$(cd "$(dirname "$0")/../.." && pwd)"

if [[ -n "${MAPWRIGHT_GL_SUITE:-}" ]]; then
    [[ -d "$MAPWRIGHT_GL_SUITE/render/tests" ]] || { echo "get-suite: MAPWRIGHT_GL_SUITE=$MAPWRIGHT_GL_SUITE holds no render/tests" >&2; exit 2; }
    echo "$MAPWRIGHT_GL_SUITE"; exit 0
fi
origin="$(git -C "$root" remote get-url origin 2>/dev/null || true)"
for base in "$root" ${origin:+"$origin"}; do
    if [[ -d "$base/../shared/gl-render-suite/render/tests" ]]; then
        (cd "$base/../shared/gl-render-suite" && pwd); exit 0
    fi
done
cache="${XDG_CACHE_HOME:-$HOME/.cache}/mapwright/gl-render-suite"
if [[ ! -f "$cache/.commit" || "$(cat "$cache/.commit")" != "$commit" ]]; then
    echo "get-suite: cloning $repository at $commit (test/integration only) into $cache" >&2
    work="$(mktemp -d "${TMPDIR:-/tmp}/gl-render-suite.XXXXXX")"
    trap 'rm -rf "$work"' EXIT
    git -C "$work" init -q
    git -C "$work" remote add origin "$repository"
    git -C "$work" sparse-checkout set test/integration
    if ! git -C "$work" fetch -q --depth 1 --filter=blob:none origin "$commit" 2>"$work.log" || ! git -C "$work" checkout -q FETCH_HEAD 2>>"$work.log"; then
        echo "get-suite: cannot get $repository at $commit ($(head -1 "$work.log")); set MAPWRIGHT_GL_SUITE to a copy of its test/integration folder" >&2
        rm -f "$work.log"
        exit 2
    fi
    rm -f "$work.log"
    rm -rf "$cache"
    mkdir -p "$(dirname "$cache")"
    mv "$work/test/integration" "$cache"
    echo "$commit" > "$cache/.commit"
fi
echo "$cache"
