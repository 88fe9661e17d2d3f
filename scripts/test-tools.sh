#!/usr/bin/env bash
# The system tools a test run needs, installed before it starts; the one place that knows them
# (npm test and npm run test:shells call it first, so README's test command works on a fresh
# machine and .ci/run installs nothing of its own). Each tool is looked for on PATH; the
# missing ones are installed with Debian's apt-get when this runs as root where apt-get is.
# Otherwise nothing runs: one line names what is missing and the command that installs it,
# and the exit status is 1. No test is skipped for a missing tool.
#
#   scripts/test-tools.sh suite    what npm test needs (the man pages' lint, the API reference
#                                  page in a browser, the docs' examples, a load balancer and
#                                  a pooler in front of serve; PostgreSQL running)
#   scripts/test-tools.sh shells   what npm run test:shells needs (the real bash, zsh and fish)
set -euo pipefail

# command:Debian package, for each tool a run uses
case "${1:-}" in
  suite)
    tools=(
      mandoc:mandoc groff:groff-base man:man-db # test/manual/man-pages.test.ts
      chromium:chromium                         # test/e2e/docs-page.test.ts
      jq:jq curl:curl                           # test/e2e/doc-examples.test.ts, as a reader runs them
      haproxy:haproxy nginx:nginx pgbouncer:pgbouncer openssl:openssl systemd-analyze:systemd
      #                                         test/e2e/deployment.test.ts: a team's deployment
    )
    ;;
  shells) tools=(bash:bash zsh:zsh fish:fish) ;; # test/completion/shells.test.ts
  *)
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2
    exit 2
    ;;
esac

missing=()
packages=()
for tool in "${tools[@]}"; do
  command -v "${tool%%:*}" >/dev/null && continue
  missing+=("${tool%%:*}")
  packages+=("${tool#*:}")
done

if [ ${#missing[@]} -gt 0 ]; then
  names=$(printf '%s, ' "${missing[@]}")
  names=${names%, }
  install="apt-get install -y --no-install-recommends ${packages[*]}"
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "test-tools: installing $names ($install)" >&2
    # apt-get update once, as a fresh machine's package lists may be old or empty
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive $install -qq; } >/tmp/chamberctl-test-tools.log 2>&1; then
      echo "test-tools: could not install $names: see /tmp/chamberctl-test-tools.log; install them with: $install" >&2
      exit 1
    fi
  else
    echo "error: the tests need $names, which are not installed; install them with: sudo $install" >&2
    exit 1
  fi
fi

# The suite's PostgreSQL tests use the server every machine of this project runs
# (127.0.0.1:5432, trust authentication): start it if it stopped and this can, else say how.
if [ "$1" = suite ] && [ -z "${PGTEST_URL:-}" ] && command -v pg_isready >/dev/null && ! pg_isready -q -h 127.0.0.1 -p 5432; then
  start='pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start'
  if [ "$(id -u)" = 0 ] && [ -d /etc/postgresql ]; then
    echo "test-tools: starting PostgreSQL ($start)" >&2
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start >&2 || true
  fi
  pg_isready -q -h 127.0.0.1 -p 5432 || {
    echo "error: PostgreSQL is not running at 127.0.0.1:5432; start it with: $start" >&2
    exit 1
  }
fi
