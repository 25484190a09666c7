# debian-sources.sh - sourced by bench/run-all.sh and test/real-programs.sh:
# installing Debian packages that are missing, and fetching Debian's sources
# of real programs (apt-get source, after adding a deb-src entry when there
# is none). The sourcing script defines note (a progress line), die (an
# error, then exit) and cache (sources go to $cache/src). Never touches a
# file outside /etc/apt/sources.list.d/mdebug-src.sources and $cache.
# shellcheck shell=bash

as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
apt_updated=0
apt_update() {
  [ "$apt_updated" = 1 ] && return 0
  "${as_root[@]}" apt-get update -qq
  apt_updated=1
}
install_missing() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
      missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  note "installing ${missing[*]}"
  apt_update
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
}
# apt-get source needs a deb-src entry. Add one for bookworm main, on the URI
# the existing deb entries use, unless some deb-src entry is already there.
ensure_deb_src() {
  # apt reads only *.list and *.sources there (not *.disabled and the like).
  local f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && grep -qsE '^[[:space:]]*(deb-src[[:space:]]|Types:.*deb-src)' "$f" && return 0
  done
  local uri
  uri=$(grep -rhsE '^[[:space:]]*URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null |
        awk '$2 !~ /security/ { print $2; exit }')
  [ -n "$uri" ] || uri=$(awk '$1 == "deb" && $2 !~ /security/ { print $2; exit }' \
                           /etc/apt/sources.list 2>/dev/null || true)
  [ -n "$uri" ] || uri=http://deb.debian.org/debian
  note "adding a deb-src entry for $uri bookworm main (/etc/apt/sources.list.d/mdebug-src.sources)"
  printf 'Types: deb-src\nURIs: %s\nSuites: bookworm\nComponents: main\nSigned-By: %s\n' \
    "$uri" /usr/share/keyrings/debian-archive-keyring.gpg |
    "${as_root[@]}" tee /etc/apt/sources.list.d/mdebug-src.sources >/dev/null
  apt_updated=0
  apt_update
}

# fetch PKG: the directory of its unpacked source (fetched once).
fetch() {
  local pkg=$1 dir
  dir=$(find "$cache/src" -mindepth 1 -maxdepth 1 -type d -name "$pkg-[0-9]*" | sort | tail -n 1)
  if [ -z "$dir" ]; then
    note "apt-get source $pkg (into $cache/src)" >&2
    # Only the apt-get download warning about the _apt sandbox is filtered.
    (cd "$cache/src" && apt-get source -qq "$pkg" 2>&1 >/dev/null | grep -v 'unsandboxed' >&2 || true)
    dir=$(find "$cache/src" -mindepth 1 -maxdepth 1 -type d -name "$pkg-[0-9]*" | sort | tail -n 1)
    [ -n "$dir" ] || die "apt-get source $pkg gave no source directory"
  fi
  echo "$dir"
}
