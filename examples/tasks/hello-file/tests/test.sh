#!/bin/sh
# $SANDBOX_ROOT is empty in a container; proctor's local runtime sets it to the sandbox's root.
reward="$SANDBOX_ROOT/logs/verifier/reward.txt"
if [ "$(cat "$SANDBOX_ROOT/app/greeting.txt" 2>/dev/null)" = "Hello, proctor!" ]; then
  echo 1 > "$reward"
else
  echo 0 > "$reward"
fi
