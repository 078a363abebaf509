#!/usr/bin/env bash
# `pnpm test`, the README's test command: the machine set-up, the build, lint and types, then the whole suite. Two
# things overlap, since two cores are the rule here: the set-up (apt, Docker, base images: mostly waiting on the
# network and the disk) runs beside the build, and the type check runs in the build's own task graph (a package's
# check starts once what it imports is built). The suite runs alone: its timing tests must not share the machine
# with a compiler. The set-up's output is printed when the build ends; the command fails when any step fails.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"

setup_log="$(mktemp)"
trap 'rm -f "$setup_log"' EXIT

bash scripts/test-setup.sh >"$setup_log" 2>&1 &
setup=$!
turbo run build typecheck
built=$?
wait "$setup"
cat "$setup_log" >&2
if [ "$built" -ne 0 ]; then
  echo "test: the build or the type check failed; nothing was tested" >&2
  exit "$built"
fi

biome ci . && vitest run
