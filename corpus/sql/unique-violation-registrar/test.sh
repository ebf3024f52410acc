#!/usr/bin/env bash
# Interesting iff running registrar.sql in sqlite3 still reports exactly one
# error, and that error is
#   UNIQUE constraint failed: enrollments.student_id, enrollments.section_id
# (planted: one student is enrolled in both sections of a course, and the
# consolidation UPDATE moves section 6 into section 5). The line number and
# the "(19)" result-code suffix are not matched.
F=registrar.sql
[ -s "$F" ] || exit 1
export LC_ALL=C
err=$(timeout 10 sqlite3 :memory: < "$F" 2>&1 >/dev/null)
[ $? -le 1 ] || exit 1   # 0/1 = sqlite3 ran; anything else = timeout/crash
errs=$(printf '%s\n' "$err" | grep -E '^(Parse error|Runtime error|Error)')
[ "$(printf '%s\n' "$errs" | grep -c .)" -eq 1 ] || exit 1
printf '%s\n' "$errs" | grep -qE ': UNIQUE constraint failed: enrollments\.student_id, enrollments\.section_id( \([0-9]+\))?$' || exit 1
exit 0
