#!/usr/bin/env bash
# Installs what FIRMA's tests need on a fresh Debian machine with Node 20+:
# the npm packages from the lockfile, and the system tools the tests drive for real —
# xmllint (manifest XSD check), Chromium (task pane in a real browser), LibreOffice Calc
# (the refreshed workbook opens in a real spreadsheet program), PostgreSQL's server binaries (the firm
# server's tests start their own throwaway cluster with initdb and pg_ctl, not the package's).
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v xmllint >/dev/null 2>&1 || need+=(libxml2-utils)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v soffice >/dev/null 2>&1 || need+=(libreoffice-calc)
# Debian puts initdb and pg_ctl under /usr/lib/postgresql/<version>/bin, not on the PATH.
ls /usr/lib/postgresql/*/bin/initdb /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || need+=(postgresql)
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]} (Debian packages)"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# `npm install`, not `npm ci`: the registry this project uses lacks some other platforms' optional
# binaries (e.g. @unrs/resolver-binding-* 1.13.0 for macOS), so the lockfile cannot list them and
# `npm ci` refuses it; `npm install` keeps the locked versions and skips what this platform does not need.
npm install --no-audit --no-fund
