#!/usr/bin/env bash
# Builds Kubernetes binaries (the control plane, the upstream kubelet, the e2e suite) from the source that
# Debian ships, since nothing can be downloaded here. Sourced after common.sh.
#
# The tree is Debian bookworm's `kubernetes` source package: its orig tarball is the full upstream v1.20.2 tree
# with vendor/. Its vendored modern-go/reflect2 1.0.1 crashes on Go >= 1.18, so it is replaced by Debian's 1.0.2.
# Binaries are cached outside the checkout, keyed by version, so a machine builds each one once:
#   $JK_KUBE_CACHE/src/kubernetes-1.20.2   the tree (kept for later builds and for the e2e images)
#   $JK_KUBE_CACHE/bin/<binary>            the binaries
JK_KUBE_VERSION=1.20.2
JK_KUBE_CACHE=${JK_KUBE_CACHE:-/var/cache/jkubelet/kubernetes-v$JK_KUBE_VERSION}
JK_KUBE_BIN="$JK_KUBE_CACHE/bin"
JK_KUBE_TREE="$JK_KUBE_CACHE/src/kubernetes-$JK_KUBE_VERSION"
export JK_KUBE_VERSION JK_KUBE_CACHE JK_KUBE_BIN JK_KUBE_TREE

# Adds a deb-src entry for Debian's main component (deb822 format, as this machine's sources are) when none exists.
jk_ensure_deb_src() {
  if grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ || grep -qs '^deb-src' /etc/apt/sources.list; then
    return 0
  fi
  local suite; suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
  jk_log "adding a deb-src entry for $suite main"
  cat >/etc/apt/sources.list.d/jkubelet-src.sources <<SOURCES
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $suite
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
  DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null || jk_die "apt-get update failed"
  export JK_APT_UPDATED=1
}

# Unpacks the upstream tree into $JK_KUBE_TREE (once).
jk_ensure_kube_tree() {
  [ -f "$JK_KUBE_TREE/.jkubelet-ready" ] && return 0
  jk_apt_install golang-go rsync golang-github-modern-go-reflect2-dev dpkg-dev
  jk_ensure_deb_src
  local dl="$JK_KUBE_CACHE/dl"
  mkdir -p "$dl" "$JK_KUBE_CACHE/src"
  if ! ls "$dl"/kubernetes_*.orig.tar.gz >/dev/null 2>&1; then
    jk_log "downloading Debian's kubernetes source package"
    (cd "$dl" && apt-get source --download-only kubernetes >/dev/null 2>&1) \
      || jk_die "apt-get source --download-only kubernetes failed (is a deb-src entry reachable?)"
  fi
  local orig; orig=$(ls "$dl"/kubernetes_*.orig.tar.gz | head -1)
  rm -rf "$JK_KUBE_TREE"
  tar -C "$JK_KUBE_CACHE/src" -xzf "$orig" || jk_die "could not unpack $orig"
  [ -d "$JK_KUBE_TREE/vendor" ] || jk_die "$orig does not hold kubernetes-$JK_KUBE_VERSION/vendor"
  local reflect2=/usr/share/gocode/src/github.com/modern-go/reflect2
  [ -f "$reflect2/reflect2.go" ] || jk_die "$reflect2 missing (golang-github-modern-go-reflect2-dev)"
  rm -rf "$JK_KUBE_TREE/vendor/github.com/modern-go/reflect2"
  cp -r "$reflect2" "$JK_KUBE_TREE/vendor/github.com/modern-go/reflect2"
  sed -i 's#^\(github.com/modern-go/reflect2\) v1.0.1$#\1 v1.0.2#' "$JK_KUBE_TREE/vendor/modules.txt"
  sed -i 's#^\(\s*github.com/modern-go/reflect2\) v1.0.1$#\1 v1.0.2#' "$JK_KUBE_TREE/go.mod"
  touch "$JK_KUBE_TREE/.jkubelet-ready"
}

# Builds each named cmd (for example cmd/kube-apiserver) that is not in $JK_KUBE_BIN yet.
jk_ensure_kube_binaries() {
  local missing=() what name
  for what in "$@"; do
    name=$(basename "$what")
    [ -x "$JK_KUBE_BIN/$name" ] || missing+=("$what")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  mkdir -p "$JK_KUBE_CACHE"
  # One build at a time per machine: two scripts building into the same tree would race in _output/, and a
  # second build of the same binary is wasted minutes. A waiter re-checks what the first one built.
  if [ -z "${JK_KUBE_BUILD_LOCKED:-}" ]; then
    JK_KUBE_BUILD_LOCKED=1 flock "$JK_KUBE_CACHE/.build.lock" \
      bash -c 'source "$1/bin/lib/common.sh"; source "$1/bin/lib/kube-build.sh"; shift; jk_ensure_kube_binaries "$@"' \
      _ "$JK_ROOT" "$@" || exit 1
    return 0
  fi
  jk_ensure_kube_tree
  mkdir -p "$JK_KUBE_BIN"
  jk_log "building ${missing[*]} from Debian's kubernetes $JK_KUBE_VERSION source (once per machine; log: $JK_KUBE_CACHE/build.log)"
  # No .git in the tree: hack/lib/version.sh takes the version and commit that `git archive` wrote into it.
  (cd "$JK_KUBE_TREE" && env GOFLAGS=-mod=vendor GOPROXY=off CGO_ENABLED=0 KUBE_BUILD_PLATFORMS=linux/amd64 \
      make WHAT="${missing[*]}" >>"$JK_KUBE_CACHE/build.log" 2>&1) \
    || jk_die "building ${missing[*]} failed; see $JK_KUBE_CACHE/build.log"
  for what in "${missing[@]}"; do
    name=$(basename "$what")
    cp "$JK_KUBE_TREE/_output/local/go/bin/$name" "$JK_KUBE_BIN/$name" 2>/dev/null \
      || cp "$JK_KUBE_TREE/_output/bin/$name" "$JK_KUBE_BIN/$name" \
      || jk_die "the build did not produce $name; see $JK_KUBE_CACHE/build.log"
  done
}

# The control plane the tests run against: etcd from Debian, the rest built from the tree.
jk_ensure_control_plane_binaries() {
  jk_apt_install etcd-server etcd-client openssl curl
  jk_ensure_kube_binaries cmd/kube-apiserver cmd/kube-controller-manager cmd/kube-scheduler
}

# Builds our own Go program $2 (one main.go) over the tree's vendor/ as the tree's cmd/$1, into $JK_KUBE_BIN/$1
# (static, as every binary of the tree's make here); rebuilt when the source's sha256 changes.
jk_ensure_tree_cmd() {
  local name=$1 src=$2 sum
  sum=$(sha256sum "$src" | cut -d' ' -f1)
  if [ "$(cat "$JK_KUBE_BIN/$name.sha256" 2>/dev/null)" != "$sum" ] || [ ! -x "$JK_KUBE_BIN/$name" ]; then
    jk_ensure_kube_tree
    mkdir -p "$JK_KUBE_TREE/cmd/$name"
    cp "$src" "$JK_KUBE_TREE/cmd/$name/main.go"
    rm -f "$JK_KUBE_BIN/$name"
    jk_ensure_kube_binaries "cmd/$name"
    echo "$sum" >"$JK_KUBE_BIN/$name.sha256"
  fi
}

# The test cluster's add-ons (bin/control-plane): kube-proxy from the tree, and jk-cluster-dns, the cluster DNS built
# from bin/lib/cluster-dns/main.go over the tree's vendored miekg/dns and client-go. kube-proxy needs iptables (the
# machine's own) and conntrack.
jk_ensure_cluster_addons() {
  jk_apt_install iptables conntrack
  jk_ensure_kube_binaries cmd/kube-proxy
  jk_ensure_tree_cmd jk-cluster-dns "$JK_ROOT/bin/lib/cluster-dns/main.go"
}

# agnhost's /coredns in the conformance images: jk-e2e-coredns, a stand-in for CoreDNS serving the hosts and log
# plugins of a Corefile (bin/lib/e2e-coredns/main.go over the tree's vendored miekg/dns).
jk_ensure_e2e_coredns() {
  jk_ensure_tree_cmd jk-e2e-coredns "$JK_ROOT/bin/lib/e2e-coredns/main.go"
}

# The upstream kubelet, the reference the benchmarks measure jkubelet against (dockershim, v1.20.2).
jk_ensure_upstream_kubelet() {
  jk_ensure_kube_binaries cmd/kubelet
}

# Upstream's sample device plugin (test/images/sample-device-plugin: example.com/resource with two devices),
# which the device manager's end-to-end test runs against jkubelet and the upstream kubelet. A plain `go build`
# refuses the tree's go.mod; the tree's make builds it (about 20 s once the tree is built).
jk_ensure_sample_device_plugin() {
  jk_ensure_kube_binaries test/images/sample-device-plugin
}
