#!/usr/bin/env bash
# Throwaway PostgreSQL and Redis servers for the server's tests and benchmark.
#
#   bash scripts/services.sh exec CMD [ARG...]   start both, run CMD with
#                                                QUADROPOLIS_TEST_POSTGRES_URL and
#                                                QUADROPOLIS_TEST_REDIS_URL exported, stop
#                                                both, exit with CMD's status
#   bash scripts/services.sh start ENVFILE       start both, write `export ...` lines to
#                                                ENVFILE (source it), leave them running
#   bash scripts/services.sh stop ENVFILE        stop what `start` started
#
# Installs Debian's `postgresql` and `redis-server` with apt-get when missing (as root, or
# through `sudo -n`). The PostgreSQL cluster lives in a fresh temporary directory (initdb,
# trust authentication, loopback TCP on a free port, its unix socket in that directory) and
# is run by the `postgres` user when we are root (initdb refuses to run as root). Redis
# listens on a free loopback port, without persistence. Both are removed on stop.
#
# If the services cannot be started: with CI set, exit 1; otherwise `exec` warns and runs
# CMD without the URLs (the tests needing them then skip, saying why).
set -euo pipefail

log() { echo "services.sh: $*" >&2; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo -n "$@"; else return 1; fi
}

apt_install() {
  log "installing $*"
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get install -y -q "$@" </dev/null >/dev/null 2>&1 \
    || { as_root apt-get update -q </dev/null >/dev/null 2>&1 && as_root apt-get install -y -q "$@" </dev/null >/dev/null; }
}

pg_bin() {
  local d
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then echo "$d"; return 0; fi
  done
  return 1
}

ensure_packages() {
  pg_bin >/dev/null || apt_install postgresql || return 1
  command -v redis-server >/dev/null 2>&1 || apt_install redis-server || return 1
  pg_bin >/dev/null && command -v redis-server >/dev/null 2>&1
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Run a command as the cluster's owner: `postgres` when we are root, else ourselves.
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start_postgres() {  # $1: state directory; prints the URL
  local dir="$1" bin port
  bin="$(pg_bin)"
  port="$(free_port)"
  mkdir -p "$dir/pg"
  if [ "$(id -u)" = 0 ]; then chown postgres: "$dir/pg"; fi
  as_owner "$bin/initdb" -D "$dir/pg/data" -U postgres --auth=trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; return 1; }
  as_owner "$bin/pg_ctl" -D "$dir/pg/data" -l "$dir/pg/server.log" -w -t 60 \
    -o "-p $port -k $dir/pg -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null \
    || { cat "$dir/pg/server.log" >&2; return 1; }
  echo "$bin" >"$dir/pg_bin"
  echo "postgresql://postgres@127.0.0.1:$port/postgres"
}

start_redis() {  # $1: state directory; prints the URL
  local dir="$1" port i
  port="$(free_port)"
  mkdir -p "$dir/redis"
  redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes \
    --dir "$dir/redis" --pidfile "$dir/redis/redis.pid" --logfile "$dir/redis/redis.log" >/dev/null
  for i in $(seq 100); do
    if redis-cli -p "$port" ping 2>/dev/null | grep -q PONG; then
      echo "redis://127.0.0.1:$port/0"
      return 0
    fi
    sleep 0.1
  done
  cat "$dir/redis/redis.log" >&2
  return 1
}

stop_all() {  # $1: state directory
  local dir="$1"
  [ -d "$dir" ] || return 0
  if [ -f "$dir/pg_bin" ]; then
    as_owner "$(cat "$dir/pg_bin")/pg_ctl" -D "$dir/pg/data" -m fast -w stop >/dev/null 2>&1 || true
  fi
  if [ -f "$dir/redis/redis.pid" ]; then
    local pid i
    pid="$(cat "$dir/redis/redis.pid")"
    kill "$pid" 2>/dev/null || true
    for i in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  rm -rf "$dir"
}

start_all() {  # $1: state directory; writes $1/env
  local dir="$1" pg redis
  ensure_packages || { log "cannot install postgresql and redis-server"; return 1; }
  pg="$(start_postgres "$dir")" || { log "PostgreSQL did not start"; return 1; }
  redis="$(start_redis "$dir")" || { log "Redis did not start"; return 1; }
  {
    echo "export QUADROPOLIS_TEST_POSTGRES_URL='$pg'"
    echo "export QUADROPOLIS_TEST_REDIS_URL='$redis'"
    echo "export QUADROPOLIS_SERVICES_DIR='$dir'"
  } >"$dir/env"
  log "PostgreSQL at $pg, Redis at $redis"
}

new_dir() {
  local dir
  dir="$(mktemp -d "${TMPDIR:-/tmp}/quadropolis-services.XXXXXX")"
  chmod 755 "$dir"
  echo "$dir"
}

cmd="${1:-}"
case "$cmd" in
  exec)
    shift
    [ $# -gt 0 ] || { log "usage: services.sh exec CMD [ARG...]"; exit 2; }
    dir="$(new_dir)"
    trap 'stop_all "$dir"' EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    if start_all "$dir"; then
      # shellcheck disable=SC1091
      source "$dir/env"
    elif [ -n "${CI:-}" ]; then
      exit 1
    else
      log "running without PostgreSQL and Redis: the tests needing them will skip"
    fi
    status=0
    "$@" || status=$?
    exit "$status"
    ;;
  start)
    [ $# -eq 2 ] || { log "usage: services.sh start ENVFILE"; exit 2; }
    dir="$(new_dir)"
    start_all "$dir" || { stop_all "$dir"; exit 1; }
    cp "$dir/env" "$2"
    log "environment written to $2 (source it); stop with: bash scripts/services.sh stop $2"
    ;;
  stop)
    [ $# -eq 2 ] || { log "usage: services.sh stop ENVFILE"; exit 2; }
    dir="$(sed -n "s/^export QUADROPOLIS_SERVICES_DIR='\(.*\)'$/\1/p" "$2")"
    [ -n "$dir" ] || { log "$2: no QUADROPOLIS_SERVICES_DIR"; exit 1; }
    stop_all "$dir"
    rm -f "$2"
    ;;
  *)
    log "usage: services.sh exec CMD [ARG...] | start ENVFILE | stop ENVFILE"
    exit 2
    ;;
esac
