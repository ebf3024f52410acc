#!/usr/bin/env bash
# Interesting iff lightningcss-cli 1.x (minifying for browsers with >= 0.25% share)
# still crashes on dashboard.css with the panic on the media query
# `(min-width: 1400px) and print` (a media type after a condition; the CLI unwraps the
# parse error instead of reporting it): `kind: UnexpectedToken(Ident("print"))`.
F=dashboard.css
[ -s "$F" ] || exit 1
export LC_ALL=C
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
out=$(timeout 10 lightningcss --minify --targets '>= 0.25%' -o "$d/out.css" "$F" 2>&1)
rc=$?
# A panic aborts the process (SIGABRT, 134); a timeout (124) does not count.
[ "$rc" -eq 134 ] || exit 1
grep -q "panicked at" <<<"$out" || exit 1
grep -q 'kind: UnexpectedToken(Ident("print"))' <<<"$out" || exit 1
exit 0
