#!/usr/bin/env bash
# Interesting iff the sensor-log parser below still crashes on crash.bin with
# exactly (last line of the traceback):
#   ZeroDivisionError: division by zero
# (planted: one CRC-valid SAMPLES record has a scale divisor of 0). The parser
# is defensive otherwise: bad magic/version -> clean exit 2; records are found
# by their sync marker, and truncated records, CRC mismatches, malformed
# payloads and unknown record types are skipped, so random byte deletions do
# not produce this crash.
F=crash.bin
[ -s "$F" ] || exit 1
export LC_ALL=C
err=$(timeout 10 python3 -c '
import struct, sys, zlib
from collections import defaultdict

SYNC = b"\xa5\x5a"
data = open("crash.bin", "rb").read()
if len(data) < 30 or data[:8] != b"SLOG\x89\r\n\x1a":
    print("not a sensor log"); sys.exit(2)
version, = struct.unpack_from(">H", data, 8)
if version != 2:
    print("unsupported version", version); sys.exit(2)
device = data[10:26].rstrip(b"\0").decode("ascii", "replace")
start, = struct.unpack_from(">I", data, 26)

channels = {}
series = defaultdict(list)
notes = []
stats = {"records": 0, "bad_crc": 0, "skipped": 0, "blob_bytes": 0}
pos = 30
while pos < len(data):
    if data[pos:pos + 2] != SYNC:
        pos = data.find(SYNC, pos + 1)
        if pos < 0:
            break
        continue
    if pos + 5 > len(data):
        break
    rtype, length = struct.unpack_from(">BH", data, pos + 2)
    end = pos + 5 + length
    if end + 4 > len(data):
        pos += 1
        continue
    body = data[pos + 2:end]
    crc, = struct.unpack_from(">I", data, end)
    if zlib.crc32(body) != crc:
        stats["bad_crc"] += 1
        pos += 1
        continue
    payload = body[3:]
    pos = end + 4
    stats["records"] += 1
    if rtype == 0x01 and length >= 2:
        ch, unit = payload[0], payload[1]
        channels[ch] = (payload[2:].decode("utf-8", "replace"), unit)
    elif rtype == 0x02 and length >= 9:
        ch, divisor, t0, n = struct.unpack_from(">BHIH", payload, 0)
        if length != 9 + 2 * n:
            stats["skipped"] += 1
            continue
        raw = struct.unpack_from(">%dh" % n, payload, 9)
        for k, r in enumerate(raw):
            series[ch].append((t0 + 60 * k, r / divisor))
    elif rtype == 0x03:
        notes.append(payload.decode("utf-8", "replace"))
    elif rtype == 0x04:
        stats["blob_bytes"] += length
    elif rtype == 0xFF:
        break
    else:
        stats["skipped"] += 1

print("device", device, "start", start, stats)
for ch in sorted(series):
    name, unit = channels.get(ch, ("ch%d" % ch, 0))
    vals = [v for _, v in series[ch]]
    print("%-16s n=%-4d min=%8.2f max=%8.2f mean=%8.2f" % (name, len(vals), min(vals), max(vals), sum(vals) / len(vals)))
for note in notes:
    print("note:", note)
' 2>&1 >/dev/null)
[ "$(printf '%s\n' "$err" | tail -n 1)" = "ZeroDivisionError: division by zero" ] || exit 1
exit 0
