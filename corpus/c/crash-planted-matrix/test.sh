#!/usr/bin/env bash
# Planted "compiler crash": the (imaginary) compiler bug fires on a compound
# assignment of the shape   <lvalue>[i * n + j] *= 0.5;
# Interesting iff that statement shape is still present in the code gcc sees
# (comments, string literals and preprocessor directives do not count;
# whitespace-insensitive, may span lines) AND gcc still accepts matrix.c as
# valid C under the strict -Werror= set below.
F=matrix.c
[ -s "$F" ] || exit 1
export LC_ALL=C
# preprocess (drops comments and directives), blank out string literals,
# join all lines, then look for the trigger
code=$(timeout 10 gcc -E -P -std=gnu11 "$F" 2>/dev/null) || exit 1
code=$(sed -E 's/"([^"\\]|\\.)*"/""/g' <<<"$code" | tr '\n' ' ')
S='[[:space:]]*'
grep -Eq "\\[${S}i${S}\\*${S}n${S}\\+${S}j${S}\\]${S}\\*=${S}0\\.5${S};" <<<"$code" || exit 1
timeout 10 gcc -fsyntax-only -std=gnu11 \
    -Werror=implicit-int -Werror=implicit-function-declaration \
    -Werror=return-type -Werror=int-conversion \
    -Werror=incompatible-pointer-types "$F" >/dev/null 2>&1 || exit 1
exit 0
