#!/usr/bin/env bash
# A one-node Slurm cluster for the tests, all of its state in one folder: nothing under
# /etc changes, no systemd is needed (as root; packages slurmctld, slurmd, slurm-client,
# munge). The configuration follows the recipe checked in the project's ECOSYSTEM notes:
# config through SLURM_CONF, munge's socket through AuthInfo.
#
#   single-node-slurm.sh start DIR   start munged, slurmctld and slurmd with their state in
#                                    DIR (made if missing); returns once the node is idle,
#                                    then SLURM_CONF=DIR/slurm.conf reaches the cluster
#   single-node-slurm.sh stop DIR    stop them (and every job), leave DIR
#
# HDD_SLURM_CPUS=N declares N CPUs on the node, more than it has if need be (for many
# job steps of tests that mostly sleep: `cargo xtask bench --slurm`).
#
# A failure to start says why on stderr and exits 1, after stopping what it started.
set -euo pipefail

usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
action=$1
W=$(mkdir -p "$2" && cd "$2" && pwd)
export SLURM_CONF=$W/slurm.conf

stop() {
    # The daemons remove their pid files as they go: read them first.
    pids=()
    for pidfile in "$W/d.pid" "$W/ctld.pid" "$W/munge/pid"; do
        [ -s "$pidfile" ] && pids+=("$(cat "$pidfile")")
    done
    [ ${#pids[@]} -gt 0 ] || return 0
    kill "${pids[@]}" 2>/dev/null || true
    for _ in $(seq 100); do
        alive=0
        for pid in "${pids[@]}"; do
            kill -0 "$pid" 2>/dev/null && alive=1
        done
        [ $alive = 0 ] && break
        sleep 0.1
    done
    kill -9 "${pids[@]}" 2>/dev/null || true
    rm -f "$W/d.pid" "$W/ctld.pid" "$W/munge/pid"
}

fail() { echo "single-node-slurm: $*" >&2; stop; exit 1; }

case $action in
stop) stop; exit 0 ;;
start) ;;
*) usage ;;
esac

[ "$(id -u)" = 0 ] || fail "needs root (slurmd runs jobs as any user)"
for tool in munged slurmctld slurmd salloc srun sinfo squeue; do
    command -v $tool >/dev/null || fail "$tool is missing (apt-get install slurmctld slurmd slurm-client munge)"
done
id munge >/dev/null 2>&1 || fail "no user munge (the munge package makes it)"

H=$(hostname -s)
CPUS=${HDD_SLURM_CPUS:-$(nproc)}
OVERRIDES=
[ "$CPUS" -gt "$(nproc)" ] && OVERRIDES=SlurmdParameters=config_overrides
chmod 0755 "$W"
install -d -o munge -g munge -m 0755 "$W/munge"
install -d -m 0755 "$W/state" "$W/spool"
dd if=/dev/urandom bs=1 count=1024 of="$W/munge/munge.key" status=none
chown munge:munge "$W/munge/munge.key"
chmod 0400 "$W/munge/munge.key"
runuser -u munge -- munged --force --key-file="$W/munge/munge.key" \
    --socket="$W/munge/sock" --pid-file="$W/munge/pid" --log-file="$W/munge/log" \
    --seed-file="$W/munge/seed" || fail "munged did not start: $(cat "$W/munge/log" 2>/dev/null)"
cat > "$SLURM_CONF" <<CONF
ClusterName=hddtest
SlurmctldHost=$H(127.0.0.1)
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$W/munge/sock
CredType=cred/munge
StateSaveLocation=$W/state
SlurmdSpoolDir=$W/spool
SlurmctldPidFile=$W/ctld.pid
SlurmdPidFile=$W/d.pid
SlurmctldLogFile=$W/ctld.log
SlurmdLogFile=$W/d.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MinJobAge=5
KillWait=5
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
$OVERRIDES
NodeName=$H NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=1000 State=UNKNOWN
PartitionName=hdd Nodes=$H Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -i -f "$SLURM_CONF" || fail "slurmctld did not start: $(tail -5 "$W/ctld.log" 2>/dev/null)"
slurmd -f "$SLURM_CONF" || fail "slurmd did not start: $(tail -5 "$W/d.log" 2>/dev/null)"
for _ in $(seq 100); do
    sinfo -h -o %t 2>/dev/null | grep -q idle && exit 0
    sleep 0.2
done
fail "the node never became idle: $(sinfo 2>&1 | tail -2); $(tail -3 "$W/d.log" 2>/dev/null)"
