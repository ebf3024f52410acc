#!/usr/bin/env bash
# Interesting iff gcc still warns "left shift count >= width of type"
# [-Wshift-count-overflow] on framer.c (planted in the decoder's init code)
# and the file still compiles without errors under the strict -Werror= set.
F=framer.c
[ -s "$F" ] || exit 1
export LC_ALL=C
out=$(timeout 10 gcc -fsyntax-only -std=gnu11 -Wall -Wextra \
    -Werror=implicit-int -Werror=implicit-function-declaration \
    -Werror=return-type -Werror=int-conversion \
    -Werror=incompatible-pointer-types "$F" 2>&1) || exit 1
grep -q 'left shift count >= width of type \[-Wshift-count-overflow\]' <<<"$out" || exit 1
exit 0
