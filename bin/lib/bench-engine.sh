#!/usr/bin/env bash
# A Docker engine of the benchmarks' own, beside the machine's main one, for the upstream kubelet (dockershim)
# and jkubelet alike. Sourced after common.sh.
#
# Why a second engine: dockershim gives pod sandboxes oomScoreAdj -998, and lowering a process's
# oom_score_adj needs CAP_SYS_RESOURCE, which root here does not have; runc then fails every sandbox start
# ("write /proc/self/oom_score_adj: permission denied"). The bench engine's default runtime is the test engines'
# wrapper (common.sh's jk_write_runc_wrapper), which rewrites a negative oomScoreAdj in the OCI bundle's config.json
# (and an exec's process.json) to 0 before it execs runc. Every side of a benchmark (jkubelet, the upstream kubelet, the raw calls) runs on it, so they
# pay the same engine. The main engine, which other work on the machine shares, is never touched: the bench
# engine has its own socket, data root, exec root (hence its own managed containerd), pid file, and bridge
# (jkbench0, made here), with iptables, masquerading and ip_forward changes off.
JK_BENCH_ENGINE_DIR=${JK_BENCH_ENGINE_DIR:-/run/jk-bench}
JK_BENCH_ENGINE_DATA=${JK_BENCH_ENGINE_DATA:-/var/lib/jk-bench/docker}
JK_BENCH_DOCKER_HOST="unix://$JK_BENCH_ENGINE_DIR/docker.sock"
JK_BENCH_BRIDGE=jkbench0
JK_BENCH_BRIDGE_CIDR=10.213.7.1/24
export JK_BENCH_ENGINE_DIR JK_BENCH_ENGINE_DATA JK_BENCH_DOCKER_HOST

# docker CLI against the bench engine.
jk_bench_docker() { docker -H "$JK_BENCH_DOCKER_HOST" "$@"; }

# Writes the runtime wrapper (common.sh's jk_write_runc_wrapper) to $JK_BENCH_ENGINE_DIR/runc-oom0.
jk_bench_write_runtime() {
  jk_write_runc_wrapper "$JK_BENCH_ENGINE_DIR/runc-oom0"
}

# Starts the bench engine (idempotent) and loads the local test images from the main engine into it.
jk_bench_engine_start() {
  command -v dockerd >/dev/null 2>&1 || jk_apt_install docker.io
  mkdir -p "$JK_BENCH_ENGINE_DIR" "$JK_BENCH_ENGINE_DATA"
  if ! jk_bench_docker version >/dev/null 2>&1; then
    jk_bench_write_runtime
    if ! ip link show "$JK_BENCH_BRIDGE" >/dev/null 2>&1; then
      ip link add "$JK_BENCH_BRIDGE" type bridge || jk_die "cannot create bridge $JK_BENCH_BRIDGE"
      ip addr add "$JK_BENCH_BRIDGE_CIDR" dev "$JK_BENCH_BRIDGE"
    fi
    ip link set "$JK_BENCH_BRIDGE" up
    jk_clear_stale_containerd_socket
    jk_log "starting the bench engine on $JK_BENCH_DOCKER_HOST (log: $JK_BENCH_ENGINE_DIR/dockerd.log)"
    # setsid: the engine outlives neither the bench's trap nor is it killed with the bench's process group
    # by a stray Ctrl-C before the trap stops it cleanly.
    # A configuration file of its own: the machine's /etc/docker/daemon.json belongs to the main engine (the
    # conformance runner sets its default runtime there), and dockerd refuses a setting given both ways.
    echo '{}' >"$JK_BENCH_ENGINE_DIR/daemon.json"
    jk_daemon setsid dockerd --config-file "$JK_BENCH_ENGINE_DIR/daemon.json" -H "$JK_BENCH_DOCKER_HOST" \
      --data-root "$JK_BENCH_ENGINE_DATA" \
      --exec-root "$JK_BENCH_ENGINE_DIR/exec" --pidfile "$JK_BENCH_ENGINE_DIR/dockerd.pid" \
      --bridge "$JK_BENCH_BRIDGE" --iptables=false --ip-masq=false --ip-forward=false \
      --add-runtime "runc-oom0=$JK_BENCH_ENGINE_DIR/runc-oom0" --default-runtime runc-oom0 \
      --storage-driver overlay2 --log-level warn \
      >"$JK_BENCH_ENGINE_DIR/dockerd.log" 2>&1 </dev/null
    local i
    for i in $(seq 1 60); do
      jk_bench_docker version --format '{{.Server.Version}}' >/dev/null 2>&1 && break
      sleep 1
    done
    jk_bench_docker version >/dev/null 2>&1 \
      || jk_die "the bench engine did not answer within 60 s; see $JK_BENCH_ENGINE_DIR/dockerd.log"
  fi
  local img
  for img in jkubelet/busybox:1.0 jkubelet/pause:3.9 "$@"; do
    jk_bench_docker image inspect "$img" >/dev/null 2>&1 && continue
    # Only an image the bench engine lacks needs the main engine (the data root keeps them between runs), so
    # a bench run does not wait for the shared engine's lock, which other work may hold for many minutes.
    if [ -f /work/docker.lock ]; then
      flock /work/docker.lock bash -c "source '$JK_ROOT/bin/lib/common.sh'; jk_ensure_images" || exit 1
    else
      jk_ensure_images
    fi
    jk_log "loading $img into the bench engine"
    # The main engine is shared: its lock (when the machine has one) is held for the save only.
    if [ -f /work/docker.lock ]; then
      flock /work/docker.lock docker save "$img" | jk_bench_docker load >/dev/null
    else
      docker save "$img" | jk_bench_docker load >/dev/null
    fi || jk_die "could not load $img into the bench engine"
  done
}

# Removes every container of the bench engine (between runs of different agents).
jk_bench_engine_clean() {
  jk_bench_docker ps -aq | xargs -r docker -H "$JK_BENCH_DOCKER_HOST" rm -f >/dev/null 2>&1 || true
}

# Stops the bench engine (its containers first), by the pid in its own pid file, and removes its bridge.
# Its data root (the images) stays, so the next run does not load them again.
jk_bench_engine_stop() {
  local pid
  jk_bench_docker version >/dev/null 2>&1 && jk_bench_engine_clean
  pid=$(cat "$JK_BENCH_ENGINE_DIR/dockerd.pid" 2>/dev/null || true)
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid"
    local i
    for i in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
  fi
  ip link del "$JK_BENCH_BRIDGE" 2>/dev/null || true
}

# Builds jkubelet and the upstream kubelet (once per machine), starts the bench engine (stopped at exit,
# whatever happens) and runs the named bench class of agent-cmd's tests against it, with jkubelet's launcher,
# the upstream binary and the engine's endpoint as system properties, and the given JVM arguments (the bench's
# own properties). JK_MVN_ARGS: extra Maven arguments. Sourced after kube-build.sh.
jk_bench_reference_run() {
  local main=$1 cp_file
  shift
  jk_find_jdk
  jk_ensure_upstream_kubelet
  cd "$JK_ROOT"
  # shellcheck disable=SC2086
  mvn -B -q ${JK_MVN_ARGS:-} -DskipTests -Djk.skipDocker=true install >&2
  cp_file=$(mktemp)
  # shellcheck disable=SC2086
  mvn -B -q ${JK_MVN_ARGS:-} -pl agent-cmd dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$cp_file" >&2
  trap jk_bench_engine_stop EXIT
  trap "exit 130" INT TERM
  jk_bench_engine_start
  # The agent is started through bin/jkubelet, exactly as users run it (JVM flags, class-data sharing).
  java -Djkubelet.launcher="$JK_ROOT/bin/jkubelet" -Dupstream.kubelet="$JK_KUBE_BIN/kubelet" \
    -Dbench.docker="$JK_BENCH_DOCKER_HOST" "$@" \
    -Dlogback.statusListenerClass=ch.qos.logback.core.status.NopStatusListener \
    -cp "agent-cmd/target/test-classes:agent-cmd/target/classes:$(cat "$cp_file")" "$main"
}
