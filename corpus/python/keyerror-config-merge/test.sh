#!/usr/bin/env bash
# Interesting iff python3 (no site, no environment) still dies on merge.py with the
# uncaught exception "KeyError: 'cache.retention'" (planted in summary(): a key the
# schema never had) as the last line of its output.
F=merge.py
[ -s "$F" ] || exit 1
export LC_ALL=C
out=$(timeout 10 python3 -S -E "$F" 2>&1 </dev/null)
[ $? -eq 1 ] || exit 1
[ "$(tail -n 1 <<<"$out")" = "KeyError: 'cache.retention'" ] || exit 1
exit 0
