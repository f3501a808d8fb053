#!/usr/bin/env bash
# A single-node Slurm on this machine (Debian slurm-wlm), for trying and testing the job
# array that `pq-sat conquer DIR --emit slurm` writes: tests/cli/conquer.rs submits it for real
# when a controller answers, and says it skipped otherwise. Not part of setup.sh: it starts
# daemons (munged, slurmctld, slurmd) and writes /etc/slurm/slurm.conf, which a machine that
# is already in a cluster must not get. Idempotent: an existing slurm.conf is kept, and
# daemons already running are left alone. Run as root.
set -euo pipefail

if ! command -v slurmctld >/dev/null 2>&1; then
  echo "slurm-local: installing Debian slurm-wlm" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm >/dev/null
fi

conf=/etc/slurm/slurm.conf
if [ ! -e "$conf" ]; then
  host=$(hostname -s)
  cpus=$(nproc)
  echo "slurm-local: writing $conf (one node, $host, $cpus CPUs)" >&2
  mkdir -p /etc/slurm
  cat >"$conf" <<CONF
# Single-node Slurm written by pq-sat's scripts/slurm-local.sh.
ClusterName=pqsat
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
NodeName=$host CPUs=$cpus RealMemory=4000 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
fi
mkdir -p /var/spool/slurmctld /var/spool/slurmd /var/log/slurm /run/munge
chown munge:munge /run/munge 2>/dev/null || true
pgrep -x munged >/dev/null || runuser -u munge -- /usr/sbin/munged
pgrep -x slurmctld >/dev/null || /usr/sbin/slurmctld
pgrep -x slurmd >/dev/null || /usr/sbin/slurmd
for _ in $(seq 1 20); do
  if sinfo -h -o %T 2>/dev/null | grep -Eq '^(idle|mixed|allocated)'; then
    echo "slurm-local: ok ($(sinfo -h -o '%P %T %N' | head -1))" >&2
    exit 0
  fi
  sleep 1
done
echo "slurm-local: the node did not come up; see /var/log/slurm/" >&2
exit 1
