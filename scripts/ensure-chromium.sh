#!/usr/bin/env bash
# The browser tests run in Debian's Chromium at /usr/bin/chromium (never a downloaded build).
# Installs it when missing and we are root; otherwise says how and fails.
set -euo pipefail

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
  exit 0
fi

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $CHROMIUM is missing; installing Debian's chromium package" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  apt-get install -y --no-install-recommends chromium
  [ -x "$CHROMIUM" ] && exit 0
  echo "ensure-chromium: the chromium package did not provide $CHROMIUM" >&2
  exit 1
fi

cat >&2 <<MSG
ensure-chromium: the browser tests need Chromium at $CHROMIUM, and it is not there.
Install it as root, e.g. on Debian or Ubuntu:
    sudo apt-get update && sudo apt-get install -y chromium
MSG
exit 1
