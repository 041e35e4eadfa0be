#!/usr/bin/env bash
# Make sure the browser tests' Chromium and chromedriver are at /usr/bin (Debian's `chromium`, `chromium-driver`).
# The browser tests never skip: if they cannot be installed, this fails loudly.
set -euo pipefail
have() { [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; }
if have; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
else
  echo "Chromium is missing and cannot be installed here: as root, apt-get install chromium chromium-driver" >&2
  exit 1
fi
have || { echo "Chromium or chromedriver is still missing at /usr/bin after apt-get install" >&2; exit 1; }
/usr/bin/chromedriver --version
