#!/usr/bin/env bash
# Interesting iff `node blog.js` still dies with
#   TypeError: Cannot read properties of undefined (reading 'displayName')
# and the top stack frame (the line right after the message) shows it was
# thrown inside a function or method named `formatAuthor`. Matching the
# message as a whole line and the frame as the very next line keeps node's
# echo of the offending source line from satisfying the test.
F=blog.js
[ -s "$F" ] || exit 1
export LC_ALL=C
err=$(timeout 10 node "$F" 2>&1 >/dev/null)
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] || exit 1
msg="TypeError: Cannot read properties of undefined (reading 'displayName')"
awk -v msg="$msg" '
    found { if ($0 ~ /^ *at ([^ ]*\.)?formatAuthor \(/) ok = 1; exit }
    $0 == msg { found = 1 }
    END { exit !ok }
' <<<"$err" || exit 1
exit 0
