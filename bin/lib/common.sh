#!/usr/bin/env bash
# Shared helpers for jkubelet's scripts: finding a JDK >= 21, a running Docker engine, local images.
# Every script here must work on a fresh Debian/Ubuntu machine as root with no image registry.

JK_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export JK_ROOT

jk_log() { printf '[jkubelet] %s\n' "$*" >&2; }
jk_die() { printf '[jkubelet] error: %s\n' "$*" >&2; exit 1; }

# Prints the major version of the java binary given, or nothing.
jk_java_major() {
  "$1" -version 2>&1 | awk -F'"' '/version/ {split($2, v, "."); print (v[1] == "1" ? v[2] : v[1]); exit}'
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
    major=$(jk_java_major "$c/bin/java")
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

# Makes sure a Docker engine answers on /var/run/docker.sock: installs Debian's docker.io when the
# engine is absent, starts dockerd when it is not running, and waits for its socket.
jk_ensure_docker() {
  if docker version --format '{{.Server.Version}}' >/dev/null 2>&1; then return 0; fi
  command -v dockerd >/dev/null 2>&1 || jk_apt_install docker.io
  if ! docker version >/dev/null 2>&1; then
    if command -v systemctl >/dev/null 2>&1 && systemctl is-system-running >/dev/null 2>&1; then
      systemctl start docker >/dev/null 2>&1 || true
    fi
  fi
  if ! docker version --format '{{.Server.Version}}' >/dev/null 2>&1; then
    jk_log "starting dockerd (log: /var/log/jkubelet-dockerd.log)"
    nohup dockerd >/var/log/jkubelet-dockerd.log 2>&1 &
  fi
  local i
  for i in $(seq 1 60); do
    docker version --format '{{.Server.Version}}' >/dev/null 2>&1 && return 0
    sleep 1
  done
  jk_die "Docker engine did not answer on /var/run/docker.sock within 60 s; see /var/log/jkubelet-dockerd.log"
}

# Builds local images from Debian's busybox-static (nothing is pulled): jkubelet/busybox:1.0 (an app
# image with no CMD) and jkubelet/pause:3.9 (sleeps until SIGTERM/SIGINT, like the pause container).
jk_ensure_images() {
  jk_ensure_docker
  if docker image inspect jkubelet/busybox:1.0 >/dev/null 2>&1 && docker image inspect jkubelet/pause:3.9 >/dev/null 2>&1; then
    return 0
  fi
  jk_apt_install busybox-static
  local dir; dir=$(mktemp -d)
  mkdir -p "$dir/bin" "$dir/etc" "$dir/tmp" "$dir/var/www" "$dir/proc" "$dir/sys" "$dir/dev"
  cp /bin/busybox "$dir/bin/busybox"
  local applet
  for applet in $("$dir/bin/busybox" --list); do
    [ "$applet" = busybox ] || ln -sf busybox "$dir/bin/$applet"
  done
  printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' >"$dir/etc/passwd"
  printf 'root:x:0:\nnogroup:x:65534:\n' >"$dir/etc/group"
  chmod 1777 "$dir/tmp"
  tar -C "$dir" -c . | docker import -c 'ENV PATH=/bin' - jkubelet/busybox:1.0 >/dev/null
  # pause: PID 1 ignores signals without handlers, so trap them explicitly and sleep in the background.
  tar -C "$dir" -c . | docker import -c 'ENV PATH=/bin' \
    -c 'ENTRYPOINT ["/bin/sh","-c","trap \"exit 0\" TERM INT; while true; do sleep 3600 & wait $!; done"]' \
    - jkubelet/pause:3.9 >/dev/null
  rm -rf "$dir"
  jk_log "built local images jkubelet/busybox:1.0 and jkubelet/pause:3.9"
}
