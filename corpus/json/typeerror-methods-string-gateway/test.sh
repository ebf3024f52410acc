#!/usr/bin/env bash
# Interesting iff the route-table builder below (node) still fails on
# gateway.json with exactly this last line on stderr:
#   TypeError: route.methods.map is not a function
# (planted: one route deep in the "shipping" service has "methods": "GET, HEAD",
# a string where every other route has an array).
F=gateway.json
[ -s "$F" ] || exit 1
export LC_ALL=C
err=$(timeout 10 node -e '
const fs = require("fs");
function main() {
  const cfg = JSON.parse(fs.readFileSync("gateway.json", "utf8"));
  const table = [];
  for (const svc of cfg.services) {
    if (!svc.enabled) continue;
    for (const route of svc.routes) {
      const methods = route.methods.map((m) => m.toUpperCase());
      const auth = route.auth ? route.auth.scopes.join(",") : "public";
      const rps = route.rate_limit ? route.rate_limit.rps : "-";
      const timeout = route.timeout_ms || cfg.defaults.timeout_ms;
      for (const m of methods) {
        table.push([m, svc.prefix + route.path, svc.name, auth, rps, timeout].join("\t"));
      }
    }
  }
  table.sort();
  process.stdout.write(table.join("\n") + "\n");
}
try {
  main();
} catch (e) {
  console.error(String(e));
  process.exit(1);
}
' 2>&1 >/dev/null)
[ "$(printf '%s\n' "$err" | tail -n 1)" = "TypeError: route.methods.map is not a function" ] || exit 1
exit 0
