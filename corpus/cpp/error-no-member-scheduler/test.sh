#!/usr/bin/env bash
# Interesting iff g++ (C++17, syntax and semantics only) still fails on scheduler.cpp
# with the single error "'class sched::Writer' has no member named 'flush'" (planted
# in Scheduler::report) and reports no other error.
F=scheduler.cpp
[ -s "$F" ] || exit 1
export LC_ALL=C
out=$(timeout 10 g++ -std=c++17 -fsyntax-only "$F" 2>&1)
[ $? -eq 1 ] || exit 1
grep -q "error: 'class sched::Writer' has no member named 'flush'" <<<"$out" || exit 1
[ "$(grep -c 'error:' <<<"$out")" -eq 1 ] || exit 1
exit 0
