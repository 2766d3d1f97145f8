#!/usr/bin/env bash
# Shared helpers for jkubelet's scripts: finding a JDK >= 21, a running Docker engine, local images.
# Every script here must work on a fresh Debian/Ubuntu machine as root with no image registry.

JK_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export JK_ROOT

jk_log() { printf '[jkubelet] %s\n' "$*" >&2; }
# Runs a daemon in the background with no descriptor of ours but stdin/stdout/stderr: one inherited from a caller's
# `flock FILE command` would keep FILE locked for as long as the daemon lives (a containerd started under the test
# lock held it for good once).
jk_daemon() { ( for fd in $(ls /proc/$BASHPID/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done 2>/dev/null; exec "$@" ) & }
# Whether process $1 runs (a child of ours that exited stays a zombie until reaped: kill -0 still succeeds on it).
jk_alive() { local state; state=$(ps -o stat= -p "$1" 2>/dev/null) && [ -n "$state" ] && [ "${state#Z}" = "$state" ]; }
jk_die() { printf '[jkubelet] error: %s\n' "$*" >&2; exit 1; }
# Unmounts everything under directory $1, deepest first: what a stopped agent left there (its pods' tmpfs volumes,
# and its --root-dir, which the kubelet bind-mounts on itself at start to make it rshared where the host's mount is
# not shared). Without it `rm -rf` of the directory fails with "Device or resource busy".
jk_unmount_under() {
  awk -v d="$1" '$5 == d || index($5, d "/") == 1 {print $5}' /proc/self/mountinfo | sort -r | xargs -r -n1 umount 2>/dev/null || true
}

# Prints the major version of the JDK at $1 (its home), or nothing. Reads the JDK's `release` file, which
# costs nothing, and runs `java -version` only for a JDK without one.
jk_java_major() {
  local v=""
  if [ -f "$1/release" ]; then
    v=$(sed -n 's/^JAVA_VERSION="\([^"]*\)".*/\1/p' "$1/release")
  fi
  [ -n "$v" ] || v=$("$1/bin/java" -version 2>&1 | awk -F'"' '/version/ {print $2; exit}')
  [ -n "$v" ] || return 0
  awk -v v="$v" 'BEGIN { split(v, p, "."); print (p[1] == "1" ? p[2] : p[1]) }'
}

# Sets JAVA_HOME to a JDK >= 21 (javac present): JAVA_HOME, then java on PATH, then /usr/lib/jvm/*.
jk_find_jdk() {
  local candidates=() c major
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  if command -v javac >/dev/null 2>&1; then
    candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")")
  fi
  for c in /usr/lib/jvm/*; do [ -d "$c" ] && candidates+=("$c"); done
  for c in "${candidates[@]}"; do
    [ -x "$c/bin/java" ] && [ -x "$c/bin/javac" ] || continue
    major=$(jk_java_major "$c")
    if [ -n "$major" ] && [ "$major" -ge 21 ]; then
      export JAVA_HOME="$c"; export PATH="$JAVA_HOME/bin:$PATH"; return 0
    fi
  done
  jk_die "no JDK 21 or newer found (looked at JAVA_HOME, javac on PATH and /usr/lib/jvm/*). Install one, e.g. 'apt-get install openjdk-21-jdk' on Debian 13 / Ubuntu 24.04, or a Temurin 21+ JDK, and set JAVA_HOME."
}

jk_apt_install() {
  local missing=() p
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  [ "$(id -u)" -eq 0 ] || jk_die "packages missing: ${missing[*]}; run as root or install them"
  jk_log "installing ${missing[*]}"
  if [ -z "${JK_APT_UPDATED:-}" ]; then
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null || jk_die "apt-get update failed"
    export JK_APT_UPDATED=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null \
    || jk_die "apt-get install ${missing[*]} failed"
}

# The dashboard's browser tests (DashboardIT) drive Debian's chromium headless through its chromium-driver.
jk_ensure_chromium() {
  jk_apt_install chromium chromium-driver
}

# Makes sure a Docker engine answers on /var/run/docker.sock: installs Debian's docker.io when the
# engine is absent, starts dockerd when it is not running (with jk_dockerd_flags), and waits for its socket.
jk_ensure_docker() {
  local started=""
  if docker version --format '{{.Server.Version}}' >/dev/null 2>&1; then
    timeout 60 docker info >/dev/null 2>&1 && return 0
    # The daemon answers version but not info: wedged. Debian's docker.io 20.10 has a libnetwork deadlock
    # (moby/moby#46661) that can hit when many pods stop and start at once; only a restart clears it.
    jk_log "dockerd answers but is stuck (docker info timed out): restarting it"
    if command -v systemctl >/dev/null 2>&1 && systemctl is-active docker >/dev/null 2>&1; then
      systemctl restart docker >/dev/null 2>&1 || true
    else
      pkill -x dockerd || true
      local j
      for j in $(seq 1 30); do pgrep -x dockerd >/dev/null || break; sleep 1; done
      pkill -9 -x dockerd || true
      sleep 1
    fi
  fi
  command -v dockerd >/dev/null 2>&1 || jk_apt_install docker.io
  if ! docker version >/dev/null 2>&1; then
    if command -v systemctl >/dev/null 2>&1 && systemctl is-system-running >/dev/null 2>&1; then
      systemctl start docker >/dev/null 2>&1 || true
    fi
  fi
  if ! docker version --format '{{.Server.Version}}' >/dev/null 2>&1; then
    jk_clear_stale_containerd_socket
    jk_log "starting dockerd (log: /var/log/jkubelet-dockerd.log)"
    # shellcheck disable=SC2046 # the flags are words
    jk_daemon nohup dockerd $(jk_dockerd_flags) >/var/log/jkubelet-dockerd.log 2>&1
    started=$!
  fi
  local i
  for i in $(seq 1 60); do
    docker version --format '{{.Server.Version}}' >/dev/null 2>&1 && return 0
    if [ -n "$started" ] && ! jk_alive "$started"; then
      # CI shows only what the scripts print: the engine's last words say why it stopped.
      tail -n 5 /var/log/jkubelet-dockerd.log >&2 || true
      jk_die "dockerd exited at start; see /var/log/jkubelet-dockerd.log"
    fi
    sleep 1
  done
  tail -n 5 /var/log/jkubelet-dockerd.log >&2 || true
  jk_die "Docker engine did not answer on /var/run/docker.sock within 60 s; see /var/log/jkubelet-dockerd.log"
}

# The flags of a dockerd these scripts start: Docker's userland proxy (docker-proxy) off, as a node has it for its pods
# to reach themselves. With the proxy on (Docker's default) the engine serves a published port on loopback from
# docker-proxy instead of DNATing it (its nat OUTPUT rule has `! -d 127.0.0.0/8`) and leaves a container's bridge port
# out of hairpin mode (libnetwork's drivers/bridge ties both to !EnableUserlandProxy): a pod cannot reach itself
# through its Service, and a connection from the node's address to a hostPort bound on 127.0.0.1 is dropped by the
# upstream kubelet's "block incoming localnet connections" rule, which lets only DNATed ones through. A daemon.json
# that sets userland-proxy decides alone (dockerd refuses a setting given both ways).
jk_dockerd_flags() {
  grep -q '"userland-proxy"' "$JK_DAEMON_JSON" 2>/dev/null || echo --userland-proxy=false
}

# Whether the running Docker engine serves published ports on loopback through its userland proxy (see
# jk_dockerd_flags): its nat OUTPUT rule then leaves 127.0.0.0/8 out.
jk_docker_userland_proxy_on() {
  iptables -t nat -S OUTPUT 2>/dev/null | grep -q -- '! -d 127.0.0.0/8 .*-j DOCKER'
}

# Builds local images from Debian's busybox-static (nothing is pulled): jkubelet/busybox:1.0 (an app
# image with no CMD) and jkubelet/pause:3.9 (sleeps until SIGTERM/SIGINT, like the pause container).
# A root filesystem of Debian's busybox-static in $1: the binary, a link per applet in /bin, root and nobody.
jk_busybox_rootfs() {
  local dir=$1 applet
  jk_apt_install busybox-static
  mkdir -p "$dir/bin" "$dir/etc" "$dir/tmp" "$dir/proc" "$dir/sys" "$dir/dev"
  cp /bin/busybox "$dir/bin/busybox"
  for applet in $("$dir/bin/busybox" --list); do
    [ "$applet" = busybox ] || ln -sf busybox "$dir/bin/$applet"
  done
  printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' >"$dir/etc/passwd"
  printf 'root:x:0:\nnogroup:x:65534:\n' >"$dir/etc/group"
  chmod 1777 "$dir/tmp"
}

jk_ensure_images() {
  jk_ensure_docker
  if docker image inspect jkubelet/busybox:1.0 >/dev/null 2>&1 && docker image inspect jkubelet/pause:3.9 >/dev/null 2>&1; then
    return 0
  fi
  local dir; dir=$(mktemp -d)
  jk_busybox_rootfs "$dir"
  mkdir -p "$dir/var/www"
  tar -C "$dir" -c . | docker import -c 'ENV PATH=/bin' - jkubelet/busybox:1.0 >/dev/null
  # pause: PID 1 ignores signals without handlers, so trap them explicitly and sleep in the background.
  tar -C "$dir" -c . | docker import -c 'ENV PATH=/bin' \
    -c 'ENTRYPOINT ["/bin/sh","-c","trap \"exit 0\" TERM INT; while true; do sleep 3600 & wait $!; done"]' \
    - jkubelet/pause:3.9 >/dev/null
  rm -rf "$dir"
  jk_log "built local images jkubelet/busybox:1.0 and jkubelet/pause:3.9"
}

# A local image registry (Debian's docker-registry, distribution 2.8) for pull tests, on loopback only:
#   127.0.0.1:5000  no authentication
#   127.0.0.1:5001  htpasswd authentication, user JK_REGISTRY_USER / password JK_REGISTRY_PASSWORD
# Both serve one storage directory, so an image pushed to :5000 can be pulled from either. Its files live
# in /var/lib/jkubelet-registry (configs, htpasswd, data; logs next to them); the distribution's own
# /etc/docker/registry config is left alone. jkubelet/busybox:1.0 and jkubelet/pause:3.9 are pushed as
# 127.0.0.1:5000/jkubelet/busybox:1.0 and 127.0.0.1:5000/jkubelet/pause:3.9. Idempotent: a registry that
# already answers is kept.
JK_REGISTRY_DIR=/var/lib/jkubelet-registry
JK_REGISTRY_USER=jkubelet
JK_REGISTRY_PASSWORD=jkubelet-registry-secret
export JK_REGISTRY_DIR JK_REGISTRY_USER JK_REGISTRY_PASSWORD

# Prints the HTTP status of GET http://127.0.0.1:PORT/v2/, or 000 when nothing answers.
jk_registry_status() {
  curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$1/v2/" 2>/dev/null || true
}

# Writes a registry config for PORT (with htpasswd auth when $2 is "auth") to stdout.
jk_registry_config() {
  cat <<CONFIG
version: 0.1
log:
  level: warn
  fields:
    service: jkubelet-registry
storage:
  cache:
    blobdescriptor: inmemory
  filesystem:
    rootdirectory: $JK_REGISTRY_DIR/data
  delete:
    enabled: true
http:
  addr: 127.0.0.1:$1
  headers:
    X-Content-Type-Options: [nosniff]
CONFIG
  if [ "${2:-}" = auth ]; then
    cat <<CONFIG
auth:
  htpasswd:
    realm: jkubelet-registry
    path: $JK_REGISTRY_DIR/htpasswd
CONFIG
  fi
}

# Starts one registry on 127.0.0.1:PORT unless one answers there; $2 = "auth" for htpasswd auth.
jk_start_registry() {
  local port=$1 mode=${2:-} config="$JK_REGISTRY_DIR/config-$1.yml" i expected=200
  [ "$mode" = auth ] && expected=401
  case "$(jk_registry_status "$port")" in
    200|401) return 0 ;;
  esac
  jk_registry_config "$port" "$mode" >"$config"
  jk_log "starting docker-registry on 127.0.0.1:$port (log: $JK_REGISTRY_DIR/registry-$port.log)"
  jk_daemon nohup docker-registry serve "$config" >"$JK_REGISTRY_DIR/registry-$port.log" 2>&1
  echo $! >"$JK_REGISTRY_DIR/registry-$port.pid"
  for i in $(seq 1 30); do
    [ "$(jk_registry_status "$port")" = "$expected" ] && return 0
    sleep 0.5
  done
  jk_die "docker-registry did not answer on 127.0.0.1:$port within 15 s; see $JK_REGISTRY_DIR/registry-$port.log"
}

jk_ensure_registry() {
  jk_ensure_images
  command -v docker-registry >/dev/null 2>&1 || jk_apt_install docker-registry
  command -v htpasswd >/dev/null 2>&1 || jk_apt_install apache2-utils
  command -v curl >/dev/null 2>&1 || jk_apt_install curl
  mkdir -p "$JK_REGISTRY_DIR/data"
  if [ ! -s "$JK_REGISTRY_DIR/htpasswd" ]; then
    htpasswd -Bbn "$JK_REGISTRY_USER" "$JK_REGISTRY_PASSWORD" >"$JK_REGISTRY_DIR/htpasswd" \
      || jk_die "htpasswd could not write $JK_REGISTRY_DIR/htpasswd"
  fi
  jk_start_registry 5000
  jk_start_registry 5001 auth
  # Docker treats 127.0.0.0/8 registries as insecure (plain HTTP) by default: no daemon change needed.
  jk_push_to_registry jkubelet/busybox 1.0
  jk_push_to_registry jkubelet/pause 3.9
}

# Pushes the local image REPO:TAG to 127.0.0.1:5000 unless the registry has it already.
jk_push_to_registry() {
  local repo=$1 tag=$2 ref="127.0.0.1:5000/$1:$2"
  if curl -sf --max-time 5 -o /dev/null \
      -H 'Accept: application/vnd.docker.distribution.manifest.v2+json' \
      "http://127.0.0.1:5000/v2/$repo/manifests/$tag"; then
    return 0
  fi
  docker tag "$repo:$tag" "$ref" || jk_die "docker tag $ref failed"
  docker push "$ref" >/dev/null || jk_die "docker push $ref failed; see $JK_REGISTRY_DIR/registry-5000.log"
  docker rmi "$ref" >/dev/null 2>&1 || true
  jk_log "pushed $repo:$tag to 127.0.0.1:5000"
}

# The test engines' runc: a wrapper of /usr/sbin/runc for a machine whose root lacks CAP_SYS_RESOURCE in its
# capability bounding set (these machines: CapBnd 000001fffeffffff), and a no-op where root has it. Without the
# capability no process may lower its oom_score_adj, so runc fails a container given a negative oomScoreAdj (every
# kubelet gives -998 to sandboxes), and no process may be granted it, so runc fails every privileged container ("unable
# to apply caps: operation not permitted") and every exec into one. The wrapper, before it execs runc, rewrites the
# bundle's config.json (--bundle DIR: create, run) and an exec's process file (--process FILE: Docker takes an exec's
# capabilities from the stored container spec, not from the edited bundle): a negative oomScoreAdj becomes 0, and
# CAP_SYS_RESOURCE leaves the capability sets. The same for every kubelet: Docker's default runtime in the conformance
# runs and the bench engine, and containerd's runc (BinaryName) in jk_containerd_config.
JK_RUNC_WRAPPER=/usr/local/libexec/jkubelet-runc
export JK_RUNC_WRAPPER

# Writes the wrapper at $1 (JK_RUNC_WRAPPER by default) unless it is there already with this content.
jk_write_runc_wrapper() {
  local path=${1:-$JK_RUNC_WRAPPER} wanted
  wanted=$(cat <<'WRAPPER'
#!/bin/sh
# runc for a machine whose root lacks CAP_SYS_RESOURCE (written by jkubelet's bin/lib/common.sh: see
# jk_write_runc_wrapper there): a negative oomScoreAdj becomes 0 and CAP_SYS_RESOURCE leaves the capability sets of
# the bundle's config.json and of an exec's process file. Where root has the capability, runc runs untouched.
bnd=$(sed -n 's/^CapBnd:[[:space:]]*//p' /proc/self/status)
if [ -n "$bnd" ] && [ $(( (0x$bnd >> 24) & 1 )) -eq 0 ]; then
  prev=
  for a in "$@"; do
    file=
    case "$prev" in
      --bundle|-b) file=$a/config.json ;;
      --process|-p) file=$a ;;
    esac
    if [ -n "$file" ] && [ -f "$file" ]; then
      sed -i -e 's/"oomScoreAdj":[[:space:]]*-[0-9]*/"oomScoreAdj":0/' \
        -e 's/"CAP_SYS_RESOURCE",[[:space:]]*//g' -e 's/,[[:space:]]*"CAP_SYS_RESOURCE"//g' \
        -e 's/"CAP_SYS_RESOURCE"//g' "$file"
    fi
    prev=$a
  done
fi
exec /usr/sbin/runc "$@"
WRAPPER
)
  [ "$(cat "$path" 2>/dev/null)" = "$wanted" ] && return 0
  mkdir -p "$(dirname "$path")"
  printf '%s\n' "$wanted" >"$path.tmp" && chmod +x "$path.tmp" && mv "$path.tmp" "$path" \
    || jk_die "could not write the runc wrapper $path"
}

# dockerd's default runtime becomes the test engines' runc wrapper (common.sh's jk_write_runc_wrapper: a negative
# oomScoreAdj raised to 0, CAP_SYS_RESOURCE out of the capability sets, so that sandboxes and privileged containers
# start); jk_docker_runtime_runc puts runc back. Both edit daemon.json and reload dockerd (SIGHUP: runtimes and
# default-runtime are live-reloadable). The conformance runner's Docker runs and the end-to-end tests' upstream
# kubelet on Docker use it. A reload without the file, or without default-runtime in it, keeps the
# default runtime dockerd had: putting runc back therefore writes "default-runtime": "runc" into the file it restores
# (a machine that had no daemon.json keeps one with that setting alone).
JK_DAEMON_JSON=/etc/docker/daemon.json
jk_docker_runtime_wrapped() {
  jk_write_runc_wrapper
  if [ -f "$JK_DAEMON_JSON" ]; then cp "$JK_DAEMON_JSON" "$JK_DAEMON_JSON.jkubelet-saved"; else rm -f "$JK_DAEMON_JSON.jkubelet-saved"; fi
  jk_daemon_json_set "$JK_DAEMON_JSON" jkubelet-runc "$JK_RUNC_WRAPPER"
  jk_dockerd_reload jkubelet-runc || jk_die "dockerd's default runtime is not the wrapper after reloading $JK_DAEMON_JSON"
}

jk_docker_runtime_runc() {
  local from=$JK_DAEMON_JSON.jkubelet-saved
  [ -f "$from" ] || from=/dev/null
  jk_daemon_json_set "$from" runc "" >/dev/null
  rm -f "$JK_DAEMON_JSON.jkubelet-saved"
  jk_dockerd_reload runc || jk_log "dockerd's default runtime is not runc after reloading $JK_DAEMON_JSON"
}

# Writes daemon.json: the settings of FILE ($1; none when it is /dev/null or does not exist, as on a machine whose
# Docker was just installed) with default-runtime $2, and the runtime $2 at path $3 when $3 is given.
jk_daemon_json_set() {
  mkdir -p "$(dirname "$JK_DAEMON_JSON")"
  python3 - "$1" "$2" "$3" "$JK_DAEMON_JSON" <<'PY' || jk_die "could not write $JK_DAEMON_JSON"
import json, os, sys
src, runtime, path, dst = sys.argv[1:]
text = open(src).read().strip() if os.path.exists(src) else ""
config = json.loads(text) if text else {}
config["default-runtime"] = runtime
if path:
    config.setdefault("runtimes", {})[runtime] = {"path": path}
with open(dst + ".tmp", "w") as f:
    json.dump(config, f, indent=2)
PY
  mv "$JK_DAEMON_JSON.tmp" "$JK_DAEMON_JSON"
}

# Reloads dockerd's configuration (by the pid in its pid file); fails unless its default runtime is then $1.
jk_dockerd_reload() {
  kill -HUP "$(cat /var/run/docker.pid 2>/dev/null)" 2>/dev/null || return 1
  local i
  for i in $(seq 20); do
    [ "$(docker info -f '{{.DefaultRuntime}}' 2>/dev/null)" = "$1" ] && return 0
    sleep 0.5
  done
  return 1
}

# The system containerd (Debian's containerd 1.6) with its CRI plugin, for the CRI adapter (agent-runtime-cri) and
# `bin/demo --runtime containerd`. Docker's engine runs a containerd of its own (/var/run/docker/containerd), so this
# one is free. It serves JK_CONTAINERD_SOCKET with the configuration JK_CONTAINERD_CONFIG (written here, the
# distribution's /etc/containerd/config.toml is left alone): cgroupfs, restrict_oom_score_adj (root here lacks
# CAP_SYS_RESOURCE, so runc cannot give sandboxes their -998), runc through the wrapper JK_RUNC_WRAPPER (privileged
# containers: jk_write_runc_wrapper), jkubelet/pause:3.9 as the sandbox image, and the CNI
# configuration JK_CNI_CONF_DIR (a bridge, host-local addresses, loopback, portmap and firewall, from Debian's
# containernetworking-plugins). The firewall plugin accepts each pod's traffic in FORWARD: a Docker engine on the
# machine sets FORWARD's policy to DROP, and with br_netfilter that dropped traffic between two pods on the bridge.
# The local images are copied in from Docker's (`docker save`, `ctr import`) under the names containerd gives them:
# docker.io/jkubelet/busybox:1.0 and docker.io/jkubelet/pause:3.9.
# Idempotent and quick when containerd already answers with the images there.
JK_CONTAINERD_SOCKET=/run/containerd/containerd.sock
JK_CONTAINERD_DIR=/var/lib/jkubelet-containerd
JK_CONTAINERD_CONFIG=$JK_CONTAINERD_DIR/config.toml
JK_CNI_CONF_DIR=/etc/cni/net.d
JK_CNI_SUBNET=10.88.0.0/16
export JK_CONTAINERD_SOCKET JK_CONTAINERD_DIR JK_CONTAINERD_CONFIG JK_CNI_CONF_DIR JK_CNI_SUBNET

jk_ctr() { ctr --address "$JK_CONTAINERD_SOCKET" -n k8s.io "$@"; }

jk_containerd_config() {
  cat <<CONFIG
version = 2
root = "/var/lib/containerd"
state = "/run/containerd"
[grpc]
  address = "$JK_CONTAINERD_SOCKET"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "docker.io/jkubelet/pause:3.9"
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        BinaryName = "$JK_RUNC_WRAPPER"
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$JK_CNI_CONF_DIR"
CONFIG
}

jk_cni_conflist() {
  cat <<CONFIG
{
  "cniVersion": "0.4.0",
  "name": "jkubelet",
  "plugins": [
    {
      "type": "bridge",
      "bridge": "jk-cni0",
      "isGateway": true,
      "ipMasq": false,
      "hairpinMode": true,
      "ipam": {
        "type": "host-local",
        "ranges": [[{"subnet": "$JK_CNI_SUBNET"}]],
        "routes": [{"dst": "0.0.0.0/0"}]
      }
    },
    {"type": "portmap", "capabilities": {"portMappings": true}},
    {"type": "firewall"},
    {"type": "loopback"}
  ]
}
CONFIG
}

jk_containerd_answers() {
  [ -S "$JK_CONTAINERD_SOCKET" ] && timeout 10 ctr --address "$JK_CONTAINERD_SOCKET" version >/dev/null 2>&1
}

# A dockerd that finds a socket at /run/containerd/containerd.sock uses that containerd instead of starting its own,
# and exits ("failed to dial ... context deadline exceeded") when nothing answers there: the socket of a system
# containerd that ended with the machine's last session (its /run survives) stopped every later dockerd from starting.
# Called before a dockerd starts; removes the socket only when no containerd answers on it.
jk_clear_stale_containerd_socket() {
  [ -e "$JK_CONTAINERD_SOCKET" ] || return 0
  command -v ctr >/dev/null 2>&1 && jk_containerd_answers && return 0
  jk_log "removing $JK_CONTAINERD_SOCKET: no containerd answers on it, and dockerd would try to use it"
  rm -f "$JK_CONTAINERD_SOCKET" "$JK_CONTAINERD_SOCKET.ttrpc"
}

jk_ensure_containerd() {
  command -v containerd >/dev/null 2>&1 || jk_apt_install containerd
  jk_write_runc_wrapper
  [ -x /usr/lib/cni/bridge ] || jk_apt_install containernetworking-plugins
  mkdir -p "$JK_CONTAINERD_DIR" "$JK_CNI_CONF_DIR"
  local conflist="$JK_CNI_CONF_DIR/10-jkubelet.conflist" wanted
  wanted=$(jk_cni_conflist)
  [ "$(cat "$conflist" 2>/dev/null)" = "$wanted" ] || printf '%s\n' "$wanted" >"$conflist"
  wanted=$(jk_containerd_config)
  if [ "$(cat "$JK_CONTAINERD_CONFIG" 2>/dev/null)" != "$wanted" ]; then
    printf '%s\n' "$wanted" >"$JK_CONTAINERD_CONFIG"
    if jk_containerd_answers; then
      # A containerd started before with another configuration (ours of an older version, or the distribution's).
      jk_log "restarting containerd for the configuration $JK_CONTAINERD_CONFIG"
      jk_stop_containerd
    fi
  fi
  if ! jk_containerd_answers; then
    jk_log "starting containerd on $JK_CONTAINERD_SOCKET (log: $JK_CONTAINERD_DIR/containerd.log)"
    jk_daemon setsid nohup containerd --config "$JK_CONTAINERD_CONFIG" >"$JK_CONTAINERD_DIR/containerd.log" 2>&1 </dev/null
    echo $! >"$JK_CONTAINERD_DIR/containerd.pid"
    local i
    for i in $(seq 1 60); do jk_containerd_answers && break; sleep 0.5; done
    jk_containerd_answers || jk_die "containerd did not answer on $JK_CONTAINERD_SOCKET within 30 s; see $JK_CONTAINERD_DIR/containerd.log"
  fi
  jk_ensure_containerd_images
}

# Stops the containerd that jk_ensure_containerd started (by its pid file), leaving its pods' shims alone.
jk_stop_containerd() {
  local pid
  pid=$(cat "$JK_CONTAINERD_DIR/containerd.pid" 2>/dev/null) || jk_die "containerd answers on $JK_CONTAINERD_SOCKET but was not started by jkubelet ($JK_CONTAINERD_DIR/containerd.pid missing): stop it, or give it the configuration $JK_CONTAINERD_CONFIG"
  kill "$pid" 2>/dev/null || true
  local i
  for i in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.5; done
  jk_die "containerd (pid $pid) did not stop within 10 s"
}

# Copies the local images from Docker's engine into containerd's k8s.io namespace, once.
jk_ensure_containerd_images() {
  local missing=() image
  for image in jkubelet/busybox:1.0 jkubelet/pause:3.9; do
    jk_ctr images ls -q "name==docker.io/$image" 2>/dev/null | grep -q . || missing+=("$image")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  jk_ensure_images
  jk_log "importing ${missing[*]} into containerd (namespace k8s.io)"
  local tarball="$JK_CONTAINERD_DIR/images.tar"
  docker save -o "$tarball" "${missing[@]}" || jk_die "docker save ${missing[*]} failed"
  jk_ctr images import "$tarball" >/dev/null || jk_die "ctr images import of ${missing[*]} failed"
  rm -f "$tarball"
}
