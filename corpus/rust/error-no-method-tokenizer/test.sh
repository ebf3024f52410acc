#!/usr/bin/env bash
# Interesting iff rustc (lib crate, edition 2021, metadata only) still fails on
# tokenizer.rs with error[E0599] "no method named `len` found ..." (planted in
# Parser::keyword_count, which calls .len() on a Filter iterator) and reports no
# other error (no other error code, no syntax error).
F=tokenizer.rs
[ -s "$F" ] || exit 1
export LC_ALL=C
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
out=$(timeout 20 rustc --crate-type lib --edition 2021 --emit=metadata --error-format=short -o "$d/out.rmeta" "$F" 2>&1)
grep -q 'error\[E0599\]: no method named `len` found' <<<"$out" || exit 1
if grep -E '(^|: )error(\[E[0-9]+\])?:' <<<"$out" | grep -v 'error\[E0599\]' | grep -qv 'aborting due to'; then
    exit 1
fi
exit 0
