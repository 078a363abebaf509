#!/bin/sh
reward="$SANDBOX_ROOT/logs/verifier/reward.txt"
if [ "$(cat "$SANDBOX_ROOT/app/big.txt" 2>/dev/null)" = "ok" ]; then
  echo 1 > "$reward"
else
  echo 0 > "$reward"
fi
