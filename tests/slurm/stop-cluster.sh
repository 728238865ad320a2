#!/usr/bin/env bash
# Stops the single-node cluster of tests/slurm/start-cluster.sh: cancels its jobs, shuts
# slurmctld and slurmd down (`scontrol shutdown`, then SIGTERM and SIGKILL to whatever of them
# is left), then stops munged. Only the processes named by the pid files in
# $ROLLARENA_SLURM_DIR are signalled (a munged that was running before is left alone). Removes
# the slurm.conf the start script wrote; keeps the logs. Safe to run at any time, and twice.
set -uo pipefail

dir=${ROLLARENA_SLURM_DIR:-/var/tmp/rollarena-slurm}
conf=/etc/slurm/slurm.conf
marker="# Written by rollarena tests/slurm/start-cluster.sh"

ours() { [ -e "$conf" ] && grep -qxF "$marker" "$conf"; }

pidfile() { if [ "$1" = munged ]; then echo "$dir/munge/munged.pid"; else echo "$dir/$1.pid"; fi; }

# The pid in the daemon's pid file, if that process still runs the daemon (a zombie left to
# an init that does not reap counts as gone).
pid_of() {
  local pid stat
  pid=$(cat "$(pidfile "$1")" 2>/dev/null) || return 1
  [ -n "$pid" ] && stat=$(cat "/proc/$pid/stat" 2>/dev/null) || return 1
  [ "${stat#* ("$1") }" != "$stat" ] && [ "${stat#* ("$1") Z}" = "$stat" ] && echo "$pid"
}

# Waits up to $2 tenths of a second for daemon $1 to be gone.
gone() {
  for _ in $(seq "$2"); do
    pid_of "$1" >/dev/null || return 0
    sleep 0.1
  done
  return 1
}

if ours && pid_of slurmctld >/dev/null; then
  # Every job of this cluster is the tests': cancel them, so no shard outlives the cluster.
  jobs=$(timeout 10 squeue -h -o %A 2>/dev/null | sort -u)
  if [ -n "$jobs" ]; then
    # shellcheck disable=SC2086
    timeout 10 scancel $jobs >/dev/null 2>&1
    for _ in $(seq 100); do
      [ -z "$(timeout 5 squeue -h -o %A 2>/dev/null)" ] && break
      sleep 0.1
    done
  fi
  timeout 10 scontrol shutdown >/dev/null 2>&1
fi
for d in slurmctld slurmd munged; do
  if [ "$d" = munged ] && pid=$(pid_of munged); then kill -TERM "$pid" 2>/dev/null; fi
  if ! gone "$d" 100 && pid=$(pid_of "$d"); then
    kill -TERM "$pid" 2>/dev/null
    gone "$d" 50 || { pid=$(pid_of "$d") && kill -KILL "$pid" 2>/dev/null; }
  fi
  rm -f "$(pidfile "$d")"
done
if ours; then rm -f "$conf"; fi
exit 0
