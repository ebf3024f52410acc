#!/usr/bin/env bash
# Interesting iff gcc still rejects lexer.c with exactly one error, and that
# error is the planted struct-to-int assignment:
#   error: incompatible types when assigning to type 'int' from type 'struct ...'
# The strict -Werror= set turns implicit int/declarations etc. into errors,
# so a reduced file may not lean on them (they would add a second error line).
F=lexer.c
[ -s "$F" ] || exit 1
export LC_ALL=C
out=$(timeout 10 gcc -fsyntax-only -std=gnu11 -fno-diagnostics-show-caret \
    -Werror=implicit-int -Werror=implicit-function-declaration \
    -Werror=return-type -Werror=int-conversion \
    -Werror=incompatible-pointer-types "$F" 2>&1)
rc=$?
# must fail to compile, but not by timing out (124) or crashing (>128)
[ "$rc" -eq 1 ] || exit 1
grep -q "error: incompatible types when assigning to type 'int' from type 'struct " <<<"$out" || exit 1
[ "$(grep -c 'error:' <<<"$out")" -eq 1 ] || exit 1
exit 0
