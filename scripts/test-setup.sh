#!/usr/bin/env bash
# First step of `pnpm test`: gets the machine what the suite needs beyond Node, so the README's test command
# passes on a fresh Debian machine. Installs missing system packages with apt-get when it can (root), else says
# exactly what to run; starts PostgreSQL and Redis when they do not answer. Silent, and well under a second,
# when everything is there.
set -uo pipefail
cd "$(dirname "$0")/.."

# command or file that proves it is installed → the Debian package that provides it
declare -A NEEDED=(
  [xmllint]=libxml2-utils   # JUnit exports are validated against the JUnit schema
  [chromium]=chromium       # browser tests drive Debian's Chromium (Playwright cannot download its own offline)
)

installed() {
  case "$1" in
    chromium) [ -x "${PROCTOR_CHROMIUM:-/usr/bin/chromium}" ] ;;
    *) command -v "$1" >/dev/null 2>&1 ;;
  esac
}

missing=()
for tool in "${!NEEDED[@]}"; do installed "$tool" || missing+=("${NEEDED[$tool]}"); done

if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "test-setup: installing ${missing[*]} (apt-get)…" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null \
      || echo "test-setup: apt-get could not install ${missing[*]}; the tests that need them will fail" >&2
  else
    # Not root (or no apt-get): the tests that need these fail with a line naming the package.
    echo "test-setup: missing system packages (Debian names); run: sudo apt-get install -y ${missing[*]}" >&2
  fi
fi

# PostgreSQL and Redis: this kind of machine has them installed; start them when they do not answer.
answers() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

if ! answers 5432 && command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
  version=$(ls /etc/postgresql | head -1)
  pg_ctlcluster --skip-systemctl-redirect "$version" main start >/dev/null 2>&1 \
    || echo "test-setup: PostgreSQL is not answering on 127.0.0.1:5432 and could not be started (pg_ctlcluster $version main start)" >&2
fi
if ! answers 6379 && command -v redis-server >/dev/null 2>&1; then
  mkdir -p /var/lib/redis /var/log/redis 2>/dev/null
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/test.log >/dev/null 2>&1 \
    || echo "test-setup: Redis is not answering on 127.0.0.1:6379 and could not be started (redis-server)" >&2
fi

# promptfoo 0.123.1 on Node 22, for the --from-promptfoo parity test (bench/sum-eval/test/promptfooParity.test.ts):
# from npm, once, outside the checkout (the test skips without it, except under CI).
PROMPTFOO_DIR="${PROMPTFOO_DIR:-$HOME/.cache/proctor/promptfoo-0.123.1}"
if [ ! -f "$PROMPTFOO_DIR/node_modules/promptfoo/package.json" ] && command -v npm >/dev/null 2>&1; then
  echo "test-setup: installing promptfoo 0.123.1 and node@22 in $PROMPTFOO_DIR (npm)…" >&2
  mkdir -p "$PROMPTFOO_DIR" && (cd "$PROMPTFOO_DIR" && [ -f package.json ] || echo '{"private":true}' > package.json) \
    && npm install --prefix "$PROMPTFOO_DIR" --no-audit --no-fund --loglevel=error promptfoo@0.123.1 node@22 >/dev/null 2>&1 \
    || echo "test-setup: npm could not install promptfoo in $PROMPTFOO_DIR; the promptfoo parity test will fail under CI" >&2
fi

# ── sandbox setup (Docker engine, bubblewrap, base images): scripts/sandbox-setup.sh, when the repo has it ──
if [ -x scripts/sandbox-setup.sh ]; then scripts/sandbox-setup.sh || echo "test-setup: scripts/sandbox-setup.sh failed; the sandbox tests will say why" >&2; fi

exit 0
