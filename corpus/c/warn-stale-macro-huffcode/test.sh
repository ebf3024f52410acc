#!/usr/bin/env bash
# Interesting iff gcc, with the project's warning flags (-Wunused-macros among them),
# still prints a warning and its diagnostics still name `nextHi`: the array was renamed
# band_hi, and a stale macro still uses the old name. A loose test, as written while
# chasing the stale name; a reducer may keep any warning whose quoted line has it.
F=huffcode.c
[ -s "$F" ] || exit 1
export LC_ALL=C
out=$(timeout 10 gcc -fsyntax-only -std=gnu11 -Wall -Wextra -Wunused-macros "$F" 2>&1)
[ $? -le 1 ] || exit 1
grep -q 'warning:' <<<"$out" || exit 1
grep -q 'nextHi' <<<"$out" || exit 1
exit 0
