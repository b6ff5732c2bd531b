#!/usr/bin/env bash
# Installs everything Mapwright needs on a fresh Debian/Ubuntu machine: the C libraries the
# system-library targets link (through pkg-config), PROJ's data, and pinned fonts.
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

# System packages: C libraries for the system-library targets, PROJ's data, fonts pinned for
# deterministic text rendering.
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
    fonts-dejavu-core
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

if ! command -v swift >/dev/null 2>&1; then
    say "swift is not on PATH: install a Swift 6 toolchain (https://swift.org/install) and run again" >&2
    exit 1
fi
say "ready"
