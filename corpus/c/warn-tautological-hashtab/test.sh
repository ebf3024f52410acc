#!/usr/bin/env bash
# Interesting iff gcc still warns [-Wtautological-compare] on hashtab.c
# (planted: a bitwise comparison that always evaluates to false) and the
# file still compiles without errors under the strict -Werror= set below.
F=hashtab.c
[ -s "$F" ] || exit 1
export LC_ALL=C
out=$(timeout 10 gcc -fsyntax-only -std=gnu11 -Wall -Wextra \
    -Werror=implicit-int -Werror=implicit-function-declaration \
    -Werror=return-type -Werror=int-conversion \
    -Werror=incompatible-pointer-types "$F" 2>&1) || exit 1
grep -q 'bitwise comparison always evaluates to false \[-Wtautological-compare\]' <<<"$out" || exit 1
exit 0
