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
# Nothing to do when node_modules was installed from the present lockfile (npm records what it
# installed in node_modules/.package-lock.json): a second run of this script costs nothing.
if [ -f node_modules/.package-lock.json ] && [ node_modules/.package-lock.json -nt package-lock.json ] &&
  [ node_modules/.package-lock.json -nt package.json ]; then
  echo "setup: node_modules is up to date with package-lock.json"
else
  # better-sqlite3 has no prebuilt binary for us and compiles from source (its SQLite and its addon:
  # two minutes here, most of a fresh install): node-gyp builds them on every core instead of one
  # (JOBS); --prefer-offline uses npm's cache where it has the locked version instead of asking the
  # registry again. Its installer (prebuild-install) first looks in a folder of local prebuilds
  # (`<package>_local_prebuilds`, its documented option): the first install on a machine leaves its
  # build there, named by the package's version, Node's ABI, the platform and the CPU, so that the
  # next clone on the same machine unpacks it instead of compiling it again. FIRMA_PREBUILDS: another folder.
  prebuilds="${FIRMA_PREBUILDS:-${XDG_CACHE_HOME:-$HOME/.cache}/firma/prebuilds}"
  JOBS=max npm_config_better_sqlite3_local_prebuilds="$prebuilds" npm install --no-audit --no-fund --prefer-offline
  # Kept only once it loads and works; a bundle in prebuild's form (build/Release/better_sqlite3.node).
  bundle="$(node -p '`better-sqlite3-v${require("better-sqlite3/package.json").version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`')"
  if [ ! -f "$prebuilds/$bundle" ] && node -e 'new (require("better-sqlite3"))(":memory:").prepare("SELECT 1").get()' 2>/dev/null &&
    mkdir -p "$prebuilds" 2>/dev/null; then
    tar -czf "$prebuilds/$bundle.tmp" -C node_modules/better-sqlite3 build/Release/better_sqlite3.node &&
      mv "$prebuilds/$bundle.tmp" "$prebuilds/$bundle" && echo "setup: better-sqlite3's build kept for the next install ($prebuilds/$bundle)" ||
      rm -f "$prebuilds/$bundle.tmp"
  fi
  touch node_modules/.package-lock.json # npm leaves it alone when nothing changed: the check above needs it newer
fi
