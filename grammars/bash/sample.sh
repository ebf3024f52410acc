#!/usr/bin/env bash
# Rotate and compress a service's logs, keeping the newest few of each kind.
set -euo pipefail

readonly LOG_DIR="${LOG_DIR:-/var/log/app}"
KEEP=${KEEP:-5}
declare -a rotated=()
declare -A sizes

usage() {
    cat <<EOF
usage: ${0##*/} [-k KEEP] [-n] KIND...
  -k KEEP  logs to keep per kind (default: $KEEP)
  -n       dry run: print what would happen
EOF
}

log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

rotate_one() {
    local kind=$1 file n
    local -a files
    mapfile -t files < <(ls -1t "$LOG_DIR/$kind".*.log 2>/dev/null || true)
    n=${#files[@]}
    if (( n <= KEEP )); then
        log "$kind: $n logs, nothing to do"
        return 0
    fi
    for file in "${files[@]:KEEP}"; do
        sizes[$file]=$(stat -c %s "$file")
        if [[ $DRY_RUN == yes ]]; then
            echo "would compress $file"
        elif [[ -f $file && ! -f $file.gz ]]; then
            gzip -9 -- "$file" && rotated+=("$file.gz")
        fi
    done
}

DRY_RUN=no
while getopts ':k:nh' opt; do
    case $opt in
        k) KEEP=$OPTARG ;;
        n) DRY_RUN=yes ;;
        h) usage; exit 0 ;;
        *) usage >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))

[ $# -gt 0 ] || { usage >&2; exit 2; }
for kind in "$@"; do
    case "$kind" in
        access|error|audit) rotate_one "$kind" ;;
        *) log "unknown kind: $kind"; exit 2 ;;
    esac
done

total=0
for f in "${!sizes[@]}"; do
    total=$(( total + ${sizes[$f]} ))
done
echo "compressed ${#rotated[@]} logs, ${total} bytes before" | tee -a "$LOG_DIR/rotate.log"
