# Nova's services (sourced by up).
NOVA_CONF=(--config-file "$ETC/nova/nova.conf")
NOVA_DB_CONF=(--config-file "$ETC/nova/nova-db.conf")

# What nova-scheduler runs with: restarted when this changes.
scheduler_identity() {
  printf 'PYTHONPATH=%s\n' "$SCHEDULER_PYTHONPATH"
  [ -n "$SCHEDULER_CONF" ] && cat "$SCHEDULER_CONF"
  return 0
}

# A nova RPC service logged that it started, under its current PID.
nova_started() {
  local pid
  pid=$(cat "$RUN/$1.pid")
  grep -q " $pid INFO nova.service \[-\] Starting .* node" "$LOG/$1.log" 2>/dev/null
}

scheduler_up() {
  local identity
  [ -n "$SCHEDULER_CONF" ] && [ ! -s "$SCHEDULER_CONF" ] && fail "PLACID_OPENSTACK_SCHEDULER_CONF: no file $SCHEDULER_CONF"
  identity=$(scheduler_identity)
  if alive nova-scheduler && [ "$identity" != "$(cat "$RUN/nova-scheduler.identity" 2>/dev/null)" ]; then
    say "nova-scheduler's configuration changed: restarting it"
    "$(dirname "$LIB")/down" nova-scheduler
  fi
  local extra=()
  [ -n "$SCHEDULER_CONF" ] && extra=(--config-file "$SCHEDULER_CONF")
  alive nova-scheduler || printf '%s' "$identity" >"$RUN/nova-scheduler.identity"
  PYTHONPATH=$SCHEDULER_PYTHONPATH start nova-scheduler $LAUNCH nova-scheduler "${NOVA_CONF[@]}" "${NOVA_DB_CONF[@]}" \
    "${extra[@]}" --log-file "$LOG/nova-scheduler.log"
}

nova_up() {
  init_wait nova
  start nova-api $LAUNCH nova-api "${NOVA_CONF[@]}" "${NOVA_DB_CONF[@]}" --log-file "$LOG/nova-api.log"
  start nova-conductor $LAUNCH nova-conductor "${NOVA_CONF[@]}" "${NOVA_DB_CONF[@]}" --log-file "$LOG/nova-conductor.log"
  scheduler_up
  # Computes started before the conductor listens wait 10-30 s for it.
  wait_for 300 nova-conductor "nova-conductor's start" nova_started nova-conductor
  local c host vcpus mem disk
  for c in $COMPUTES; do
    IFS=: read -r host vcpus mem disk _ <<<"$c"
    FAKE_VCPUS=$vcpus FAKE_MEMORY_MB=$mem FAKE_LOCAL_GB=$disk start "nova-compute-$host" \
      $LAUNCH nova-compute "${NOVA_CONF[@]}" --config-file "$ETC/nova/nova-$host.conf" --log-file "$LOG/nova-compute-$host.log"
  done
}

nova_ready() {
  local n count
  for n in nova-scheduler $(for h in $COMPUTE_HOSTS; do echo "nova-compute-$h"; done); do
    wait_for 300 "$n" "$n's start" nova_started "$n"
  done
  count=$(echo $COMPUTE_HOSTS | wc -w)
  # One Python process per check: under load each costs seconds.
  if ! wait_for_quiet 300 ready_or_discover "$count"; then
    log_tail nova-conductor 20
    log_tail "nova-compute-${COMPUTE_HOSTS%% *}" 20
    fail "the computes are not ready: $(cloud ready "$count")"
  fi
}
cloud() { KEYSTONE_URL=$KEYSTONE_URL PW=$PW "$PY" "$LIB/cloud.py" "$@"; }
# Ready, or map the computes Nova does not list yet to cell1 (cells v2 discovery) and try again.
ready_or_discover() {
  local status=0
  cloud ready "$1" >/dev/null || status=$?
  [ $status = 3 ] && nova_manage cell_v2 discover_hosts >>"$LOG/nova-manage.log" 2>&1
  return $status
}
