#!/usr/bin/env bash
# cluster.sh: N `voyage serve` instances on one PostgreSQL database behind
# HAProxy on this machine, as production runs them (docs/OPERATIONS.md).
#
#   scripts/cluster.sh            (or: make cluster N=3)
#
# It creates the database when missing, migrates it once and adds the demo
# data (both idempotent), starts the instances with --no-migrate on
# consecutive ports, writes ./var/cluster/haproxy.cfg (round robin, each
# instance checked on /readyz), starts HAProxy and prints the addresses.
# Search sessions and rate-limit counters live in Redis when it answers, so
# a search started on one instance is paged on another.
#
#   Ctrl-C          stops everything: each instance drains and exits.
#   kill -HUP PID   (PID is printed, and in ./var/cluster/cluster.pid)
#                   restarts the instances one at a time with the binary
#                   now at $VOYAGE_BIN: the rolling restart of an upgrade
#                   (build, `voyage migrate up`, then HUP).
#
# Settings (environment):
#   N                 instances (3)
#   VOYAGE_BIN        the binary (bin/voyage; `make cluster` builds it)
#   CLUSTER_DB        the database URL
#                     (postgres://postgres@127.0.0.1:5432/voyage_cluster?sslmode=disable)
#   CLUSTER_REDIS     the Redis URL (redis://127.0.0.1:6379/0); "none" keeps
#                     search sessions in the database
#   CLUSTER_PORT      the balancer's port (8080); instances take the next N
#   CLUSTER_DIR       logs, pid files and haproxy.cfg (./var/cluster)
#   DRAIN_DELAY       each instance's http.drain_delay (3s: HAProxy sees a
#                     draining instance down within 2 s, two checks 1 s apart)
set -euo pipefail

N=${N:-3}
BIN=${VOYAGE_BIN:-bin/voyage}
DB=${CLUSTER_DB:-postgres://postgres@127.0.0.1:5432/voyage_cluster?sslmode=disable}
REDIS=${CLUSTER_REDIS:-redis://127.0.0.1:6379/0}
PORT=${CLUSTER_PORT:-8080}
DIR=${CLUSTER_DIR:-./var/cluster}
DRAIN=${DRAIN_DELAY:-3s}
HOST=127.0.0.1

die() { echo "cluster: $*" >&2; exit 1; }

[[ "$N" =~ ^[1-9][0-9]*$ ]] || die "N must be a positive number, got '$N'"
[ -x "$BIN" ] || die "$BIN is not built (make build, or set VOYAGE_BIN)"
command -v haproxy >/dev/null || die "haproxy is not installed (make cluster installs Debian's)"
command -v psql >/dev/null || die "psql is not installed (apt-get install postgresql-client)"
command -v curl >/dev/null || die "curl is not installed"
mkdir -p "$DIR"

# The database: created when missing (through the server's postgres
# database), migrated once here, so the instances start with --no-migrate
# and never race each other's migrations.
dbname=$(sed -E 's|^[a-z]+://[^/]*/([^?]*).*|\1|' <<<"$DB")
[[ "$dbname" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || die "cannot read a plain database name from CLUSTER_DB ($DB)"
admin=$(sed -E "s|^([a-z]+://[^/]*/)[^?]*|\1postgres|" <<<"$DB")
if [ "$(psql "$admin" -tAc "SELECT 1 FROM pg_database WHERE datname = '$dbname'")" != 1 ]; then
	echo "cluster: creating database $dbname"
	psql "$admin" -qc "CREATE DATABASE $dbname" >/dev/null
fi
"$BIN" migrate up --db "$DB"
"$BIN" demo seed --db "$DB" >/dev/null

redis_env=()
if [ "$REDIS" != none ]; then
	if command -v redis-cli >/dev/null && [ "$(redis-cli -u "$REDIS" ping 2>/dev/null)" = PONG ]; then
		redis_env=("VOYAGE_SHOPPING_REDIS_URL=$REDIS")
	else
		echo "cluster: Redis at $REDIS does not answer; search sessions stay in the database" >&2
		REDIS=none
	fi
fi

pids=()
haproxy_pid=

# start_instance i runs instance i (1..N) on port PORT+i.
start_instance() {
	local i=$1
	# setsid: a Ctrl-C at the terminal reaches this script alone, which
	# then stops each instance with one SIGTERM (a second signal would end
	# an instance at once, without its drain).
	setsid env "${redis_env[@]}" VOYAGE_PAYMENT_TEST_GATEWAY=true VOYAGE_HTTP_DRAIN_DELAY="$DRAIN" \
		VOYAGE_HTTP_TRUSTED_PROXIES="$HOST" "$BIN" serve --db "$DB" --addr "$HOST:$((PORT + i))" --no-migrate >>"$DIR/instance-$i.log" 2>&1 &
	pids[i]=$!
	echo "${pids[i]}" >"$DIR/instance-$i.pid"
}

# wait_ready i waits until instance i answers /readyz with 200, at most 60 s.
wait_ready() {
	local i=$1 tries=0
	until curl -fs -o /dev/null "http://$HOST:$((PORT + i))/readyz"; do
		kill -0 "${pids[i]}" 2>/dev/null || die "instance $i exited at start; see $DIR/instance-$i.log"
		tries=$((tries + 1))
		[ "$tries" -lt 600 ] || die "instance $i not ready in 60 s; see $DIR/instance-$i.log"
		sleep 0.1
	done
}

stop_all() {
	trap - INT TERM EXIT HUP
	echo
	echo "cluster: stopping (each instance drains for $DRAIN)"
	for pid in "${pids[@]}" $haproxy_pid; do kill -TERM "$pid" 2>/dev/null || true; done
	for pid in "${pids[@]}" $haproxy_pid; do wait "$pid" 2>/dev/null || true; done
	rm -f "$DIR"/*.pid
	echo "cluster: stopped"
}

# rolling_restart restarts the instances one at a time: SIGTERM (it drains,
# HAProxy takes it out, its requests and jobs finish), start it again, and
# wait until it is ready and HAProxy's next checks have taken it back.
rolling_restart() {
	echo "cluster: rolling restart with $BIN ($("$BIN" version 2>/dev/null || echo unknown))"
	for i in $(seq 1 "$N"); do
		kill -TERM "${pids[i]}" 2>/dev/null || true
		wait "${pids[i]}" 2>/dev/null || true
		start_instance "$i"
		wait_ready "$i"
		# HAProxy takes a server back after two passing checks 1 s apart.
		sleep 2
		echo "cluster: instance $i restarted (pid ${pids[i]})"
	done
	echo "cluster: rolling restart done"
}

trap stop_all INT TERM EXIT
restart_requested=0
trap 'restart_requested=1' HUP

for i in $(seq 1 "$N"); do start_instance "$i"; done
for i in $(seq 1 "$N"); do wait_ready "$i"; done

cfg="$DIR/haproxy.cfg"
{
	cat <<EOF
# Written by scripts/cluster.sh: $N voyage instances behind one address.
global
	maxconn 4096

defaults
	mode http
	timeout connect 2s
	timeout client 70s
	# Above the server's http.write_timeout (60s).
	timeout server 70s
	timeout http-keep-alive 10s
	timeout check 2s
	# A request whose connection failed is sent again to another
	# instance (HAProxy's default retry-on is conn-failure: only
	# requests no instance received).
	retries 2
	option redispatch 1
	# The client's address in X-Forwarded-For; the instances trust it
	# from this balancer only (http.trusted_proxies).
	option forwardfor

frontend voyage
	bind $HOST:$PORT
	default_backend voyage

backend voyage
	balance roundrobin
	# Ready means: not draining, the database answers, migrations current.
	option httpchk GET /readyz
	http-check expect status 200
	default-server check inter 1s fall 2 rise 2
EOF
	for i in $(seq 1 "$N"); do
		printf '\tserver voyage%d %s:%d\n' "$i" "$HOST" "$((PORT + i))"
	done
	cat <<EOF

listen stats
	bind $HOST:$((PORT + N + 1))
	stats enable
	stats uri /
	stats refresh 2s
EOF
} >"$cfg"
haproxy -c -q -f "$cfg" || die "HAProxy refused $cfg"
setsid haproxy -db -f "$cfg" >>"$DIR/haproxy.log" 2>&1 &
haproxy_pid=$!
echo "$haproxy_pid" >"$DIR/haproxy.pid"
echo $$ >"$DIR/cluster.pid"
until curl -fs -o /dev/null "http://$HOST:$PORT/readyz"; do
	kill -0 "$haproxy_pid" 2>/dev/null || die "HAProxy exited; see $DIR/haproxy.log"
	sleep 0.1
done

echo
echo "  Voyage portal (HAProxy, round robin): http://$HOST:$PORT/"
echo "  HAProxy statistics:                   http://$HOST:$((PORT + N + 1))/"
for i in $(seq 1 "$N"); do
	echo "  instance $i:                           http://$HOST:$((PORT + i))/  (log $DIR/instance-$i.log)"
done
echo "  Database:                             $DB"
echo "  Search sessions:                      $([ "$REDIS" = none ] && echo "in the database" || echo "Redis $REDIS")"
echo
echo "  Ctrl-C stops the cluster; kill -HUP $$ restarts the instances one at a time."
echo

# wait returns when a child exits or a trapped signal arrives.
while true; do
	wait -n "${pids[@]}" "$haproxy_pid" || true
	if [ "$restart_requested" = 1 ]; then
		restart_requested=0
		rolling_restart
		continue
	fi
	kill -0 "$haproxy_pid" 2>/dev/null || die "HAProxy exited; see $DIR/haproxy.log"
	for i in $(seq 1 "$N"); do
		kill -0 "${pids[i]}" 2>/dev/null || die "instance $i exited; see $DIR/instance-$i.log"
	done
done
