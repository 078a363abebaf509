#!/bin/sh
# Broken on purpose: it checks the work but never writes /logs/verifier/reward.txt or reward.json, so every
# rollout of this task is a `verifier` error, whatever the agent did.
test -f "$SANDBOX_ROOT/app/done.txt" && echo "done.txt is there"
exit 3
