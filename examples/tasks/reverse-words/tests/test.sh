#!/bin/sh
reward="$SANDBOX_ROOT/logs/verifier/reward.txt"
if [ "$(cat "$SANDBOX_ROOT/app/reversed.txt" 2>/dev/null)" = "fox brown quick the" ]; then
  echo 1 > "$reward"
else
  echo 0 > "$reward"
fi
