#!/usr/bin/env bash
# Interesting iff events.ts still compiles with esbuild 0.25 (TypeScript to JavaScript,
# types stripped, nothing checked) and node then dies with
# "TypeError: Cannot read properties of undefined (reading 'balance')" (planted in the
# last lines: a non-null assertion on an account that was never opened). The program
# ends in about 50 ms: a candidate that loops (a loop whose condition went) is cut at 2 s.
F=events.ts
[ -s "$F" ] || exit 1
export LC_ALL=C
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
timeout 10 esbuild "$F" --format=cjs --log-level=error --outfile="$d/events.js" >/dev/null 2>&1 || exit 1
out=$(cd "$d" && timeout 2 node events.js 2>&1 </dev/null)
[ $? -eq 1 ] || exit 1
grep -q "^TypeError: Cannot read properties of undefined (reading 'balance')$" <<<"$out" || exit 1
exit 0
