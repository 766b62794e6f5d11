#!/usr/bin/env bash
# A one-node Slurm cluster for the tests, private to a folder: its own
# munge key and socket, its own slurm.conf, state and logs, daemons on
# loopback ports chosen here, run directly (no systemd), as the user who
# starts them. Plugins that need cgroups or accounting are off, so it runs
# in a container.
#
#   cluster.sh start DIR   # prints SLURM_CONF=DIR/slurm.conf when the node is idle
#   cluster.sh stop DIR    # stops the daemons started in DIR (by their pid files)
set -euo pipefail
cmd="${1:?start|stop}"
dir="$(cd "${2:?DIR}" && pwd)"
export SLURM_CONF="$dir/slurm.conf"

stop() {
  for d in slurmd slurmctld munged; do
    [ -f "$dir/$d.pid" ] || continue
    pid=$(cat "$dir/$d.pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$dir/$d.pid"
  done
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Waits up to $1 seconds for the command that follows to succeed.
wait_for() {
  local t=$1; shift
  for _ in $(seq $((t * 5))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.2; done
  return 1
}

if [ "$cmd" = stop ]; then stop; exit 0; fi
[ "$cmd" = start ] || { echo "usage: cluster.sh start|stop DIR" >&2; exit 2; }

user=$(id -un)
mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log"
chmod 700 "$dir/munge"
# munged refuses keys or folders others may write to.
mungekey --create --keyfile="$dir/munge/munge.key" --force
chmod 600 "$dir/munge/munge.key"
munged --socket="$dir/munge/socket" --key-file="$dir/munge/munge.key" \
  --pid-file="$dir/munged.pid" --log-file="$dir/log/munged.log" \
  --seed-file="$dir/munge/seed" --force
wait_for 20 test -S "$dir/munge/socket"

ctld_port=$(free_port)
slurmd_port=$(free_port)
while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port=$(free_port); done
host=$(hostname -s)
cat > "$SLURM_CONF" <<CONF
ClusterName=grundy-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$dir/munge/socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=kill_invalid_depend
MpiDefault=none
ReturnToService=2
MinJobAge=3600
JobRequeue=1
SlurmctldTimeout=60
SlurmdTimeout=300
InactiveLimit=0
KillWait=5
NodeName=grundy0 NodeHostname=$host NodeAddr=127.0.0.1 CPUs=2 RealMemory=1024 State=UNKNOWN
PartitionName=test Nodes=grundy0 Default=YES MaxTime=INFINITE State=UP
CONF

slurmctld -f "$SLURM_CONF" -i
wait_for 30 scontrol ping
slurmd -f "$SLURM_CONF" -N grundy0
idle() { sinfo -h -n grundy0 -o %T | grep -Eq '^(idle|mixed|allocated)'; }
if ! wait_for 60 idle; then
  echo "the node did not come up:" >&2
  sinfo -N -l >&2 || true
  tail -20 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2 || true
  stop
  exit 1
fi
echo "SLURM_CONF=$SLURM_CONF"
