#!/usr/bin/env bash
# Make sure axe-core (the accessibility engine tests/browser/test_accessibility.py injects into the pages) is at
# .cache/axe-core/axe.min.js: the npm package, pinned, fetched with npm. The test never skips: if it cannot be
# fetched, this fails loudly.
set -euo pipefail
VERSION=4.14.1
DEST="$(cd "$(dirname "$0")/.." && pwd)/.cache/axe-core"
have() { [ -f "$DEST/axe.min.js" ] && head -c 40 "$DEST/axe.min.js" | grep -q "axe v$VERSION"; }
if have; then exit 0; fi
if ! command -v npm >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null
  else
    echo "npm is missing and cannot be installed here: as root, apt-get install npm" >&2
    exit 1
  fi
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "axe-core@$VERSION" >/dev/null)
tar -xzf "$work/axe-core-$VERSION.tgz" -C "$work" package/axe.min.js
mkdir -p "$DEST"
mv "$work/package/axe.min.js" "$DEST/axe.min.js"
have || { echo "axe-core $VERSION is still missing at $DEST/axe.min.js" >&2; exit 1; }
echo "axe-core $VERSION at $DEST/axe.min.js"
