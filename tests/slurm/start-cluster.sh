#!/usr/bin/env bash
# Starts a single-node Slurm cluster on this machine, for tests/slurm: munged, slurmctld and
# slurmd from Debian's `munge` and `slurm-wlm` packages, as root and without systemd.
#
#   tests/slurm/start-cluster.sh     # prints the node line of `sinfo` once the node is idle
#   tests/slurm/stop-cluster.sh      # always, afterwards
#
# It writes /etc/slurm/slurm.conf (marked as its own: it refuses, with exit status 3, to
# replace one that is not), creates the munge key if there is none, starts munged unless one
# answers already, and keeps state and logs in $ROLLARENA_SLURM_DIR (default
# /var/tmp/rollarena-slurm): munge/munged.log, log/slurmctld.log, log/slurmd.log.
# A cluster it started before is stopped first, and its jobs are forgotten (slurmctld -c).
set -euo pipefail

dir=${ROLLARENA_SLURM_DIR:-/var/tmp/rollarena-slurm}
conf=/etc/slurm/slurm.conf
marker="# Written by rollarena tests/slurm/start-cluster.sh"
here=$(cd "$(dirname "$0")" && pwd)

die() { echo "start-cluster: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "must run as root (it starts munged, slurmctld and slurmd)"
for p in munged munge unmunge slurmctld slurmd sinfo scontrol; do
  command -v "$p" >/dev/null || die "$p is missing: apt-get install slurm-wlm munge"
done
if [ -e "$conf" ] && ! grep -qxF "$marker" "$conf"; then
  echo "start-cluster: $conf exists and was not written by this script: refusing to replace" \
    "a real cluster's configuration" >&2
  exit 3
fi

"$here/stop-cluster.sh" >/dev/null 2>&1 || true
mkdir -p "$dir/log" "$dir/ctld" "$dir/spool"
chmod 755 "$dir"
rm -rf "${dir:?}/ctld/"* "${dir:?}/spool/"*
: >"$dir/log/slurmctld.log"
: >"$dir/log/slurmd.log"

# munge: a key readable by munge alone, then munged as the munge user.
install -d -o munge -g munge -m 0700 /etc/munge /var/lib/munge /var/log/munge
install -d -o munge -g munge -m 0755 /run/munge
if [ ! -s /etc/munge/munge.key ]; then
  dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
fi
chown munge:munge /etc/munge/munge.key
chmod 0400 /etc/munge/munge.key
install -d -o munge -g munge -m 0755 "$dir/munge"
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then   # else one runs already: use it
  install -o munge -g munge -m 0644 /dev/null "$dir/munge/munged.log"
  runuser -u munge -- munged --log-file="$dir/munge/munged.log" --pid-file="$dir/munge/munged.pid"
fi
for _ in $(seq 50); do
  munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break
  sleep 0.1
done
munge -n | unmunge >/dev/null || die "munged does not answer; see $dir/munge/munged.log"

# slurm.conf: this host as controller and as the only node, with its CPUs and memory.
host=$(hostname -s)
node=$(slurmd -C | head -n 1)            # NodeName=<host> CPUs=... RealMemory=...
case "$node" in
  "NodeName=$host "*) ;;
  *) die "unexpected slurmd -C output: $node" ;;
esac
mkdir -p /etc/slurm
cat >"$conf" <<EOF
$marker
# A single-node cluster on localhost for the tests; removed by tests/slurm/stop-cluster.sh.
ClusterName=rollarena-test
SlurmctldHost=$host(127.0.0.1)
AuthType=auth/munge
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
MailProg=/bin/true
MinJobAge=3600
StateSaveLocation=$dir/ctld
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
chmod 644 "$conf"

slurmctld -c
slurmd -c
for _ in $(seq 300); do
  state=$(sinfo -h -N -n "$host" -o %t 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 0.1
done
if [ "${state:-}" != idle ]; then
  tail -n 30 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2 || true
  die "the node is not idle after 30 s (state: ${state:-none})"
fi
sinfo -N
