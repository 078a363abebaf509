#!/bin/sh
# Writes reward.json (Harbor reads its "reward"); $SANDBOX_ROOT is empty in a container.
got="$(tr -d ' \n' < "$SANDBOX_ROOT/app/sum.txt" 2>/dev/null)"
if [ "$got" = "200" ]; then correct=1; else correct=0; fi
printf '{"reward": %s, "answer_found": %s}\n' "$correct" "$([ -n "$got" ] && echo 1 || echo 0)" \
  > "$SANDBOX_ROOT/logs/verifier/reward.json"
