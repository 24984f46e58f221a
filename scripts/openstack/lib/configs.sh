# Writes every service's configuration under $ETC (sourced by up; rewritten on every run).

# [keystone_authtoken] for a service that checks tokens; $1 = its service user.
authtoken() {
  cat <<EOT
[keystone_authtoken]
www_authenticate_uri = http://$IP:$KEYSTONE_PORT
auth_url = http://$IP:$KEYSTONE_PORT
auth_type = password
project_domain_name = Default
user_domain_name = Default
project_name = service
username = $1
password = $PW
region_name = RegionOne
EOT
}

# keystoneauth options for a client section: $1 = section, $2 = service user.
client_auth() {
  cat <<EOT
[$1]
auth_type = password
auth_url = http://$IP:$KEYSTONE_PORT/v3
project_domain_name = Default
user_domain_name = Default
project_name = service
username = $2
password = $PW
region_name = RegionOne
valid_interfaces = public
EOT
}

write_configs() {
  mkdir -p "$ETC"/{keystone,placement,nova,glance,neutron,rabbitmq} "$LOG/rabbitmq" \
    "$DATA"/{keystone,glance/images,glance/staging,glance/tasks,neutron,nova,rabbitmq}
  : >"$ETC/rabbitmq/rabbitmq-env.conf"
  echo '[].' >"$ETC/rabbitmq/enabled_plugins"
  cat >"$ETC/rabbitmq/rabbitmq.conf" <<EOT
listeners.tcp.1 = $IP:$RABBIT_PORT
default_user = openstack
default_pass = $PW
loopback_users = none
disk_free_limit.absolute = 50MB
log.file.level = warning
EOT
  cat >"$ETC/keystone/keystone.conf" <<EOT
[DEFAULT]
debug = $DEBUG
log_file = $LOG/keystone.log
[database]
connection = $DB_URL/keystone
[token]
provider = fernet
expiration = 86400
[fernet_tokens]
key_repository = $DATA/keystone/fernet-keys
[fernet_receipts]
key_repository = $DATA/keystone/fernet-keys
[credential]
key_repository = $DATA/keystone/credential-keys
EOT
  cat >"$ETC/placement/placement.conf" <<EOT
[DEFAULT]
debug = $DEBUG
log_file = $LOG/placement.log
[api]
auth_strategy = keystone
[placement_database]
connection = $DB_URL/placement
$(authtoken placement)
EOT
  # Nova cannot boot without an image service (GlanceConnectionFailed): file store, one worker.
  cat >"$ETC/glance/glance-api.conf" <<EOT
[DEFAULT]
debug = $DEBUG
log_file = $LOG/glance-api.log
bind_host = $IP
bind_port = $GLANCE_PORT
workers = 1
enabled_backends = fs:file
[database]
connection = $DB_URL/glance
[glance_store]
default_backend = fs
[fs]
filesystem_store_datadir = $DATA/glance/images/
[os_glance_staging_store]
filesystem_store_datadir = $DATA/glance/staging/
[os_glance_tasks_store]
filesystem_store_datadir = $DATA/glance/tasks/
[paste_deploy]
flavor = keystone
config_file = $ETC/glance/glance-api-paste.ini
[oslo_concurrency]
lock_path = $DATA/glance/lock
$(authtoken glance)
EOT
  # Nova reads ports and security groups even for `networks: "none"`: the API server only, ML2
  # without mechanism drivers (no agents, nothing binds ports).
  cat >"$ETC/neutron/neutron.conf" <<EOT
[DEFAULT]
debug = $DEBUG
log_file = $LOG/neutron-server.log
bind_host = $IP
bind_port = $NEUTRON_PORT
core_plugin = ml2
service_plugins =
auth_strategy = keystone
api_paste_config = $ETC/neutron/api-paste.ini
state_path = $DATA/neutron
transport_url = $RABBIT_URL
api_workers = 1
rpc_workers = 0
rpc_state_report_workers = 0
notify_nova_on_port_status_changes = false
notify_nova_on_port_data_changes = false
[database]
connection = $DB_URL/neutron
[oslo_concurrency]
lock_path = $DATA/neutron/lock
[oslo_messaging_notifications]
driver = noop
$(authtoken neutron)
EOT
  cat >"$ETC/neutron/ml2_conf.ini" <<EOT
[ml2]
type_drivers = flat,vlan
tenant_network_types =
mechanism_drivers =
extension_drivers = port_security
[ml2_type_flat]
flat_networks = *
[securitygroup]
firewall_driver = noop
EOT
  write_nova_configs
  write_client_configs
}

write_nova_configs() {
  cat >"$ETC/nova/nova.conf" <<EOT
[DEFAULT]
debug = $DEBUG
transport_url = $RABBIT_URL
my_ip = $IP
state_path = $DATA/nova
enabled_apis = osapi_compute
osapi_compute_listen = $IP
osapi_compute_listen_port = $NOVA_PORT
osapi_compute_workers = 1
compute_driver = fake.FakeLiveMigrateDriver
reserved_host_memory_mb = 0
[api]
auth_strategy = keystone
[wsgi]
api_paste_config = $ETC/nova/api-paste.ini
[conductor]
workers = 1
[scheduler]
workers = 1
[oslo_concurrency]
lock_path = $DATA/nova/lock
[oslo_messaging_notifications]
driver = noop
[vnc]
enabled = false
[quota]
instances = -1
cores = -1
ram = -1
$(authtoken nova)
$(client_auth placement placement)
$(client_auth neutron neutron)
$(client_auth glance glance)
EOT
  # nova-compute must have no database access ("No DB access allowed in nova-compute"): only api,
  # conductor, scheduler and nova-manage read this file.
  cat >"$ETC/nova/nova-db.conf" <<EOT
[api_database]
connection = $DB_URL/nova_api
[database]
connection = $DB_URL/nova
EOT
  local c h _ ratio reserved
  for c in $COMPUTES; do
    IFS=: read -r h _ _ _ ratio reserved <<<"$c"
    mkdir -p "$DATA/nova/$h/instances"
    {
      echo "[DEFAULT]"
      echo "host = $h"
      echo "state_path = $DATA/nova/$h"
      echo "instances_path = $DATA/nova/$h/instances"
      if [ -n "$ratio" ]; then echo "cpu_allocation_ratio = $ratio"; fi
      if [ -n "$reserved" ]; then echo "reserved_host_memory_mb = $reserved"; fi
    } >"$ETC/nova/nova-$h.conf"
  done
}

write_client_configs() {
  cat >"$STATE/clouds.yaml" <<EOT
clouds:
  placid-admin:
    auth:
      auth_url: $KEYSTONE_URL
      username: admin
      password: $PW
      project_name: admin
      user_domain_id: default
      project_domain_id: default
    region_name: RegionOne
    identity_api_version: 3
  placid-member:
    auth:
      auth_url: $KEYSTONE_URL
      username: demo
      password: $PW
      project_name: demo
      user_domain_id: default
      project_domain_id: default
    region_name: RegionOne
    identity_api_version: 3
EOT
}

# The api-paste files ship in the *-common packages, which would pull in dbconfig and system
# services: take only the files out of the .debs.
paste_files() {
  [ -s "$ETC/nova/api-paste.ini" ] && [ -s "$ETC/glance/glance-api-paste.ini" ] &&
    [ -s "$ETC/neutron/api-paste.ini" ] && return 0
  local debs=$STATE/debs
  mkdir -p "$debs/x" "$ETC"/{nova,glance,neutron}
  if ! ls "$debs"/nova-common_*.deb "$debs"/glance-common_*.deb "$debs"/neutron-common_*.deb >/dev/null 2>&1; then
    (cd "$debs" && apt-get -q download nova-common glance-common neutron-common >"$LOG/apt-download.log" 2>&1) ||
      { log_tail apt-download; fail "apt-get download nova-common glance-common neutron-common"; }
  fi
  local d
  for d in "$debs"/*.deb; do dpkg-deb -x "$d" "$debs/x"; done
  local s
  for s in nova:nova-common/api-paste.ini glance:glance-common/glance-api-paste.ini neutron:neutron-common/api-paste.ini; do
    cp "$debs/x/usr/share/${s#*:}" "$ETC/${s%%:*}/$(basename "${s#*:}")"
    sed -i "s#/etc/${s%%:*}/healthcheck_disable#$RUN/${s%%:*}-healthcheck-disable#" "$ETC/${s%%:*}/$(basename "${s#*:}")"
  done
}
