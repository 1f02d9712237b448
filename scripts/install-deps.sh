#!/usr/bin/env bash
# Installs the Debian packages flyr needs that are missing. Usage: install-deps.sh build|test|bench
set -euo pipefail
build=(libgeos-dev libproj-dev libcairo2-dev libpango1.0-dev libqrencode-dev zlib1g-dev libsqlite3-dev pkg-config
       fonts-dejavu-core fonts-noto-core fonts-noto-cjk)
test=(gdal-bin python3-gdal poppler-utils zbar-tools unzip postgresql postgresql-15-postgis-3 sqlite3 strace openssl)
# GNU time for peak RSS in bench/render-postgis.sh.
bench=(time)
want=("${build[@]}")
case "${1:-build}" in
  build) ;;
  test) want+=("${test[@]}") ;;
  bench) want+=("${test[@]}" "${bench[@]}") ;;
  *) echo "usage: $0 build|test|bench" >&2; exit 64 ;;
esac
missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
