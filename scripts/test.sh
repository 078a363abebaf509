#!/usr/bin/env bash
# `pnpm test`, the README's test command: the machine set-up, the build, lint and types, and the whole suite. What can
# overlap does, since two cores are the rule here: the set-up (apt, Docker, base images: mostly waiting on the
# network and the disk) beside the build, and lint with the type check beside vitest (whose files mostly wait on
# processes, servers and containers). Each step's output is printed whole, the set-up's and the checks' after their
# step ends; the command fails when any step fails.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"

logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT

bash scripts/test-setup.sh >"$logs/setup" 2>&1 &
setup=$!
turbo run build
built=$?
wait "$setup"
setup_status=$?
cat "$logs/setup" >&2
if [ "$built" -ne 0 ]; then
  echo "test: the build failed; nothing was tested" >&2
  exit "$built"
fi
[ "$setup_status" -eq 0 ] || echo "test: scripts/test-setup.sh exited $setup_status (see above)" >&2

(biome ci . && turbo run typecheck) >"$logs/checks" 2>&1 &
checks=$!
vitest run 2>&1 | tee "$logs/vitest"
tested=$?
wait "$checks"
checked=$?
echo
echo "── lint and type check: $([ "$checked" -eq 0 ] && echo passed || echo FAILED) ──"
cat "$logs/checks"
[ "$checked" -eq 0 ] || echo "test: lint or the type check failed (above)" >&2
[ "$tested" -eq 0 ] || echo "test: the suite failed (see vitest's report above)" >&2
# vitest's closing line (`N passed, N failed, N skipped`) stays the last, for whatever reads it.
tail -n 1 "$logs/vitest"
[ "$checked" -eq 0 ] && [ "$tested" -eq 0 ]
