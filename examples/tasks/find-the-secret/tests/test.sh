#!/bin/sh
reward="$SANDBOX_ROOT/logs/verifier/reward.txt"
if [ "$(cat "$SANDBOX_ROOT/app/secret-answer.txt" 2>/dev/null)" = "found" ]; then
  echo 1 > "$reward"
else
  echo 0 > "$reward"
fi
