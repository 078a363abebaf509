#!/bin/sh
echo 'the quick brown fox' | awk '{ for (i = NF; i > 0; i--) printf "%s%s", $i, (i > 1 ? " " : "\n") }' > reversed.txt
