# Starting the services (sourced by up). Every service runs detached in a session of its own
# (setsid), so its PID is its process group: `down` signals exactly that group.

# start <name> <command...>: unless its PID file names a live process; stdout and stderr to
# $LOG/<name>.out. Descriptors above 2 are closed: a leaked one kept callers' pipes open.
start() {
  local name=$1; shift
  alive "$name" && return 0
  setsid nice -n "$NICE" "$@" >>"$LOG/$name.out" 2>&1 </dev/null 9>&- &
  echo $! >"$RUN/$name.pid"
  say "started $name (pid $!)"
}

sql() { mariadb --no-defaults --socket="$RUN/mysqld.sock" -uroot -N -e "$1"; }

mariadb_up() {
  if [ ! -d "$DATA/mysql/mysql" ]; then
    nice -n "$NICE" mariadb-install-db --no-defaults --datadir="$DATA/mysql" --user=root \
      --auth-root-authentication-method=socket --skip-test-db >"$LOG/mariadb-install.log" 2>&1 ||
      { log_tail mariadb-install; fail "mariadb-install-db"; }
  fi
  start mariadb /usr/sbin/mariadbd --no-defaults --datadir="$DATA/mysql" --socket="$RUN/mysqld.sock" \
    --port="$DB_PORT" --bind-address="$IP" --pid-file="$RUN/mariadbd.pid" --user=root \
    --log-error="$LOG/mariadb.log" --innodb-buffer-pool-size=64M --max-connections=1000 \
    --skip-name-resolve --character-set-server=utf8mb4 --collation-server=utf8mb4_general_ci
  wait_for 120 mariadb "MariaDB" mariadb-admin --no-defaults --socket="$RUN/mysqld.sock" -uroot ping
  sql "CREATE USER IF NOT EXISTS 'openstack'@'127.0.0.1' IDENTIFIED BY '$PW';"
  local db
  for db in keystone placement glance neutron nova_api nova nova_cell0; do
    sql "CREATE DATABASE IF NOT EXISTS $db; GRANT ALL ON $db.* TO 'openstack'@'127.0.0.1';"
  done
}

# RabbitMQ as root on loopback only: its own epmd, and the server script called directly (the
# rabbitmq-server wrapper insists on the rabbitmq user).
rabbit_env() {
  export HOME=$DATA/rabbitmq
  export RABBITMQ_CONF_ENV_FILE=$ETC/rabbitmq/rabbitmq-env.conf
  export RABBITMQ_CONFIG_FILE=$ETC/rabbitmq/rabbitmq
  export RABBITMQ_ENABLED_PLUGINS_FILE=$ETC/rabbitmq/enabled_plugins
  export RABBITMQ_NODENAME=rabbit@localhost RABBITMQ_NODE_IP_ADDRESS=$IP RABBITMQ_NODE_PORT=$RABBIT_PORT
  export RABBITMQ_DIST_PORT=$RABBIT_DIST_PORT RABBITMQ_MNESIA_BASE=$DATA/rabbitmq/mnesia
  export RABBITMQ_LOG_BASE=$LOG/rabbitmq RABBITMQ_PID_FILE=$RUN/rabbitmq-beam.pid
  export ERL_EPMD_ADDRESS=$IP ERL_EPMD_PORT=$EPMD_PORT
  export RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}"
}
tcp_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }
rabbit_up() {
  (
    rabbit_env
    [ -s "$HOME/.erlang.cookie" ] ||
      { head -c 20 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$HOME/.erlang.cookie"; chmod 400 "$HOME/.erlang.cookie"; }
    start epmd /usr/bin/epmd -address "$IP" -port "$EPMD_PORT"
    wait_for 30 epmd "epmd" tcp_open "$IP" "$EPMD_PORT"
    start rabbitmq /usr/lib/rabbitmq/bin/rabbitmq-server
  )
  wait_for 180 rabbitmq "RabbitMQ on port $RABBIT_PORT" tcp_open "$IP" "$RABBIT_PORT"
}

# uwsgi_app <name> <port> <wsgi script> <VAR=value...>. uwsgi's --http-socket resets reused
# connections: every answer says `Connection: close`.
uwsgi_app() {
  local name=$1 port=$2 script=$3; shift 3
  local env=() e
  for e in "$@"; do env+=(--env "$e"); done
  start "$name" /usr/bin/uwsgi-core --plugin python3 --http-socket "$IP:$port" --wsgi-file "$script" \
    --master --processes 1 --threads 4 --enable-threads --die-on-term --need-app --buffer-size 65535 \
    --add-header "Connection: close" "${env[@]}"
}

# ------------------------------------------------------------------ database set-up, once each
# Each runs in the background beside the others (≈ 30 s saved); a marker file records success.
declare -A INIT_PIDS
init_in_background() {
  local name
  for name in "$@"; do
    [ -e "$DATA/.initialised-$name" ] && continue
    ( "init_$name" >>"$LOG/init-$name.log" 2>&1 && touch "$DATA/.initialised-$name" ) &
    INIT_PIDS[$name]=$!
  done
}
init_wait() {
  local pid=${INIT_PIDS[$1]:-}
  [ -z "$pid" ] && return 0
  wait "$pid" || { log_tail "init-$1"; fail "setting up $1's database"; }
  unset "INIT_PIDS[$1]"
  say "$1 database set up"
}
init_keystone() {
  local km=(nice -n "$NICE" keystone-manage --config-file "$ETC/keystone/keystone.conf")
  set -e
  "${km[@]}" db_sync
  "${km[@]}" fernet_setup --keystone-user root --keystone-group root
  "${km[@]}" credential_setup --keystone-user root --keystone-group root
  "${km[@]}" bootstrap --bootstrap-password "$PW" --bootstrap-region-id RegionOne \
    --bootstrap-admin-url "$KEYSTONE_URL" --bootstrap-internal-url "$KEYSTONE_URL" \
    --bootstrap-public-url "$KEYSTONE_URL"
}
init_placement() { nice -n "$NICE" placement-manage --config-file "$ETC/placement/placement.conf" db sync; }
init_glance() { nice -n "$NICE" $LAUNCH glance-manage --config-file "$ETC/glance/glance-api.conf" db_sync; }
init_neutron() {
  nice -n "$NICE" $LAUNCH neutron-db-manage --config-file "$ETC/neutron/neutron.conf" \
    --config-file "$ETC/neutron/ml2_conf.ini" upgrade heads
}
nova_manage() { nice -n "$NICE" $LAUNCH nova-manage --config-file "$ETC/nova/nova.conf" --config-file "$ETC/nova/nova-db.conf" "$@"; }
init_nova() {
  set -e
  nova_manage api_db sync
  nova_manage cell_v2 map_cell0 --database_connection "$DB_URL/nova_cell0"
  nova_manage cell_v2 list_cells | grep -q ' cell1 ' ||
    nova_manage cell_v2 create_cell --name cell1 --database_connection "$DB_URL/nova" --transport-url "$RABBIT_URL"
  nova_manage db sync
}
init_catalog() {
  nice -n "$NICE" "$PY" "$LIB/catalog.py" "$KEYSTONE_URL" "$PW" \
    "nova=compute=http://$IP:$NOVA_PORT/v2.1" "placement=placement=http://$IP:$PLACEMENT_PORT" \
    "glance=image=http://$IP:$GLANCE_PORT" "neutron=network=http://$IP:$NEUTRON_PORT"
}
