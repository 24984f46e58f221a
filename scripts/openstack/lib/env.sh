# Settings and helpers shared by scripts/openstack/up and down. Everything the cloud writes lives
# under $STATE; every service listens on 127.0.0.1 only.
STATE=${PLACID_OPENSTACK_DIR:-$HOME/.cache/placid-openstack}
ETC=$STATE/etc
DATA=$STATE/data
RUN=$STATE/run
LOG=$STATE/log
LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PY=/usr/bin/python3              # Debian's Python, where python3-nova and the others live
LAUNCH="$PY $LIB/launch.py"      # launch.py <service> <args>: the packages ship no service commands
NICE=${PLACID_OPENSTACK_NICE:-5}
IP=127.0.0.1
PW=${PLACID_OPENSTACK_PASSWORD:-placid-secret}   # database, RabbitMQ, admin and service users
DEBUG=${PLACID_OPENSTACK_DEBUG:-false}

DB_PORT=${PLACID_OPENSTACK_DB_PORT:-3306}
RABBIT_PORT=${PLACID_OPENSTACK_RABBIT_PORT:-5672}
RABBIT_DIST_PORT=$((RABBIT_PORT + 20000))
EPMD_PORT=${PLACID_OPENSTACK_EPMD_PORT:-4369}
KEYSTONE_PORT=${PLACID_OPENSTACK_KEYSTONE_PORT:-5000}
PLACEMENT_PORT=${PLACID_OPENSTACK_PLACEMENT_PORT:-8778}
GLANCE_PORT=${PLACID_OPENSTACK_GLANCE_PORT:-9292}
NEUTRON_PORT=${PLACID_OPENSTACK_NEUTRON_PORT:-9696}
NOVA_PORT=${PLACID_OPENSTACK_NOVA_PORT:-8774}

# Compute hosts, name:vcpus:memory_mb:disk_gb[:cpu_allocation_ratio:reserved_host_memory_mb]: the
# sizes the fake driver reports, and what its compute service puts in Placement (else Nova's
# initial ratios, 16.0 for VCPU in Zed, and nothing reserved).
COMPUTES=${PLACID_OPENSTACK_COMPUTES:-"cmp-1:16:32768:500:4.0:1024 cmp-2:16:32768:500 cmp-3:16:32768:500"}
# nova-scheduler only: an extra config file (e.g. [filter_scheduler] with Placid's filter and
# weigher, and [placid]) and what to put on its PYTHONPATH (e.g. integrations/nova). `up` restarts
# the scheduler when these differ from what it runs with.
SCHEDULER_CONF=${PLACID_OPENSTACK_SCHEDULER_CONF:-}
SCHEDULER_PYTHONPATH=${PLACID_OPENSTACK_SCHEDULER_PYTHONPATH:-}

KEYSTONE_URL=http://$IP:$KEYSTONE_PORT/v3
DB_URL="mysql+pymysql://openstack:$PW@$IP:$DB_PORT"
RABBIT_URL="rabbit://openstack:$PW@$IP:$RABBIT_PORT/"
COMPUTE_HOSTS=$(for c in $COMPUTES; do printf '%s ' "${c%%:*}"; done)

T0=$SECONDS
say() { printf '[openstack %3ds] %s\n' "$((SECONDS - T0))" "$*"; }
fail() { printf '[openstack %3ds] FAILED: %s\n' "$((SECONDS - T0))" "$*" >&2; exit 1; }

# The last lines of a service's logs, for a failure message.
log_tail() {
  local f
  for f in "$LOG/$1.log" "$LOG/$1.out"; do
    [ -s "$f" ] && { echo "--- tail of $f" >&2; tail -n "${2:-40}" "$f" >&2; }
  done
  return 0
}

alive() { [ -s "$RUN/$1.pid" ] && kill -0 "$(cat "$RUN/$1.pid")" 2>/dev/null; }

# wait_for <seconds> <service whose log to show on timeout> <what> <command...>: polls once a second.
wait_for() {
  local limit=$1 svc=$2 what=$3; shift 3
  local end=$((SECONDS + limit))
  until "$@" >/dev/null 2>&1; do
    if [ -n "$svc" ] && [ -s "$RUN/$svc.pid" ] && ! alive "$svc"; then
      log_tail "$svc"; fail "$svc exited while waiting for $what"
    fi
    [ $SECONDS -ge $end ] && { [ -n "$svc" ] && log_tail "$svc"; fail "no $what after ${limit}s"; }
    sleep 1
  done
}

# wait_for_quiet <seconds> <command...>: like wait_for, but returns 1 on timeout (the caller explains).
wait_for_quiet() {
  local end=$((SECONDS + $1)); shift
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -ge $end ] && return 1
    sleep 1
  done
}

http_ok() { curl -fsS -o /dev/null --max-time 10 "$1"; }
