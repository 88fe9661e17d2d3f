#!/usr/bin/env bash
# Runs CMD with a Node.js that chamberctl runs on (package.json `engines`,
# bin/supported-node.js): the `node` on PATH when it is one, untouched; else the pinned LTS of
# scripts/runtimes.sh, installed into .runtimes/ from the npm registry the first time, first
# on PATH for CMD (and whatever CMD starts). The npm scripts that run chamberctl's code (the
# tests, the demo, the benchmarks) start with it, so README's `npm ci && npm run demo` and
# `npm test` work on a machine whose own Node.js is older (this project's run 20.20). `npm ci`
# itself, the build and the type check run on any Node.js 20 or later.
#
#   scripts/with-node.sh CMD...     e.g. scripts/with-node.sh npx vitest run test/storage
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if command -v node >/dev/null && node "$root/bin/supported-node.js" 2>/dev/null; then exec "$@"; fi
lts=$("$root/scripts/runtimes.sh" lts)
# The PATH as it was, with the older node: the tests of README's examples run `chamberctl` so,
# as a reader of README on this machine does (test/e2e/doc-examples.test.ts).
export WITH_NODE_READER_PATH="$PATH"
echo "with-node: Node.js $(node --version 2>/dev/null || echo '(none)') is older than chamberctl runs on; using Node.js $lts from .runtimes/ (scripts/runtimes.sh) for: $*" >&2
exec "$root/scripts/runtimes.sh" run "$lts" "$@"
