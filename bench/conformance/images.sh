# The images upstream's NodeConformance specs run, made locally under their upstream names (nothing can be
# pulled here). Sourced by bench/conformance/run after common.sh and kube-build.sh.

# jk_busybox_rootfs in $1, with what the upstream images' bases also have: /usr/bin and /sbin, /root, an nginx
# user, nsswitch.conf.
cf_busybox_rootfs() {
  local dir=$1
  jk_busybox_rootfs "$dir"
  mkdir -p "$dir/root" "$dir/usr"; ln -sfn ../bin "$dir/usr/bin"; ln -sfn bin "$dir/sbin"
  echo 'nginx:x:101:101:nginx:/:/bin/false' >>"$dir/etc/passwd"
  echo 'nginx:x:101:' >>"$dir/etc/group"
  echo "hosts: files dns" >"$dir/etc/nsswitch.conf"
}

# Copies each binary (and the libraries it links) into the root filesystem $1 at the same path.
cf_add_binaries() {
  local dir=$1 bin lib; shift
  [ -L "$dir/usr/bin" ] && { rm -f "$dir/usr/bin"; mkdir -p "$dir/usr/bin"; }
  mkdir -p "$dir/usr/local/bin"
  for bin in "$@"; do
    mkdir -p "$dir$(dirname "$bin")"; cp -L "$bin" "$dir$bin"
    for lib in $(ldd "$bin" | grep -o '/[^ ]*'); do
      mkdir -p "$dir$(dirname "$lib")"; cp -Ln "$lib" "$dir$lib"
    done
  done
}

# The images' recipe: raised when what cf_ensure_images makes changes, so that a machine that has the images of an
# older recipe makes them again (each carries it as its label io.jkubelet.recipe).
CF_IMAGES_RECIPE=7

# Imports the root filesystem $1 as image $2 with docker import changes $3...
cf_import() {
  local dir=$1 image=$2; shift 2
  local changes=(-c 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
    -c "LABEL io.jkubelet.recipe=$CF_IMAGES_RECIPE")
  for c in "$@"; do changes+=(-c "$c"); done
  tar -C "$dir" -c . | docker import "${changes[@]}" - "$image" >/dev/null || jk_die "docker import of $image failed"
}

cf_have() {
  [ "$(docker image inspect -f '{{index .Config.Labels "io.jkubelet.recipe"}}' "$1" 2>/dev/null)" = "$CF_IMAGES_RECIPE" ]
}

# The images cf_ensure_images makes, by the names the specs (and a CRI runtime's image list) give them.
CF_IMAGES=(docker.io/library/busybox:1.29 gcr.io/kubernetes-e2e-test-images/nonroot:1.0
  k8s.gcr.io/e2e-test-images/agnhost:2.21 gcr.io/kubernetes-e2e-test-images/nonewprivs:1.0 k8s.gcr.io/pause:3.2
  docker.io/library/nginx:1.14-alpine docker.io/library/nginx:1.15-alpine docker.io/library/httpd:2.4.38-alpine
  docker.io/library/httpd:2.4.39-alpine gcr.io/kubernetes-e2e-test-images/jessie-dnsutils:1.0
  gcr.io/kubernetes-e2e-test-images/kitten:1.0 gcr.io/kubernetes-e2e-test-images/nautilus:1.0
  gcr.io/kubernetes-e2e-test-images/sample-apiserver:1.17 k8s.gcr.io/etcd:3.4.13-0
  gcr.io/kubernetes-e2e-test-images/regression-issue-74839-amd64:1.0 k8s.gcr.io/build-image/debian-iptables:buster-v1.3.0)

# The same images in containerd's k8s.io namespace (where its CRI plugin looks), copied from Docker's engine as
# jk_ensure_containerd_images copies jkubelet's own; nothing can be pulled there either. Only the missing ones.
cf_ensure_containerd_images() {
  local missing=() image stamp="$JK_CONTAINERD_DIR/conformance-images.recipe"
  for image in "${CF_IMAGES[@]}"; do
    if [ "$(cat "$stamp" 2>/dev/null)" != "$CF_IMAGES_RECIPE" ] || ! jk_ctr images ls -q "name==$image" 2>/dev/null | grep -q .; then
      missing+=("$image")
    fi
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  jk_log "importing ${missing[*]} into containerd (namespace k8s.io)"
  local tarball="$JK_CONTAINERD_DIR/conformance-images.tar"
  docker save -o "$tarball" "${missing[@]}" || jk_die "docker save ${missing[*]} failed"
  jk_ctr images import "$tarball" >/dev/null || jk_die "ctr images import of ${missing[*]} failed"
  rm -f "$tarball"
  for image in "${missing[@]}"; do
    jk_ctr images ls -q "name==$image" | grep -q . || jk_die "$image is not in containerd after the import"
  done
  echo "$CF_IMAGES_RECIPE" >"$stamp"
}

cf_ensure_images() {
  local work; work=$(mktemp -d)
  if ! cf_have docker.io/library/busybox:1.29; then
    cf_busybox_rootfs "$work/busybox"
    cf_import "$work/busybox" docker.io/library/busybox:1.29 'CMD ["sh"]'
  fi
  if ! cf_have gcr.io/kubernetes-e2e-test-images/nonroot:1.0; then
    cf_busybox_rootfs "$work/nonroot"
    cf_import "$work/nonroot" gcr.io/kubernetes-e2e-test-images/nonroot:1.0 'USER 1234' 'CMD ["sh"]'
  fi
  if ! cf_have k8s.gcr.io/e2e-test-images/agnhost:2.21; then
    cf_agnhost_rootfs "$work/agnhost"
    cf_import "$work/agnhost" k8s.gcr.io/e2e-test-images/agnhost:2.21 'ENTRYPOINT ["/agnhost"]' 'CMD ["pause"]'
  fi
  # kitten and nautilus: agnhost's test-webserver serving a picture and data.json from / (their Dockerfiles).
  local pet
  for pet in kitten nautilus; do
    cf_have "gcr.io/kubernetes-e2e-test-images/$pet:1.0" && continue
    cf_agnhost_rootfs "$work/$pet"
    cp "$JK_KUBE_TREE/test/images/$pet/html/$pet.jpg" "$JK_KUBE_TREE/test/images/$pet/html/data.json" "$work/$pet/"
    cf_import "$work/$pet" "gcr.io/kubernetes-e2e-test-images/$pet:1.0" 'ENTRYPOINT ["/agnhost"]' 'CMD ["test-webserver"]'
  done
  if ! cf_have gcr.io/kubernetes-e2e-test-images/jessie-dnsutils:1.0; then
    # Debian with dnsutils (dig, host, nslookup) and glibc's getent, as the image's Dockerfile has it; not its coredns
    # (the image downloads a release of it from the internet).
    jk_apt_install bind9-dnsutils libc-bin
    cf_busybox_rootfs "$work/jessie-dnsutils"
    cf_add_binaries "$work/jessie-dnsutils" $CF_DNS_TOOLS
    cf_import "$work/jessie-dnsutils" gcr.io/kubernetes-e2e-test-images/jessie-dnsutils:1.0 'CMD ["sh"]'
  fi
  if ! cf_have gcr.io/kubernetes-e2e-test-images/sample-apiserver:1.17; then
    # The aggregator spec's extension apiserver: the tree's k8s.io/sample-apiserver (v0.20.2; the image's is the
    # 1.17 one, serving the same wardle.example.com/v1alpha1 flunders) on busybox, as its Dockerfile has it.
    jk_ensure_kube_binaries vendor/k8s.io/sample-apiserver
    cf_busybox_rootfs "$work/sample-apiserver"
    cp "$JK_KUBE_BIN/sample-apiserver" "$work/sample-apiserver/sample-apiserver"
    cf_import "$work/sample-apiserver" gcr.io/kubernetes-e2e-test-images/sample-apiserver:1.17 \
      'ENTRYPOINT ["/sample-apiserver"]'
  fi
  if ! cf_have k8s.gcr.io/etcd:3.4.13-0; then
    # etcd 3.4 at /usr/local/bin as the image has it: Debian's etcd-server (3.4), the control plane's own.
    jk_apt_install etcd-server etcd-client
    cf_busybox_rootfs "$work/etcd"
    cf_add_binaries "$work/etcd" /usr/bin/etcd /usr/bin/etcdctl
    ln -s /usr/bin/etcd "$work/etcd/usr/local/bin/etcd"
    ln -s /usr/bin/etcdctl "$work/etcd/usr/local/bin/etcdctl"
    cf_import "$work/etcd" k8s.gcr.io/etcd:3.4.13-0
  fi
  local tag
  for tag in 2.4.38-alpine 2.4.39-alpine; do
    cf_have "docker.io/library/httpd:$tag" && continue
    cf_httpd_rootfs "$work/httpd-$tag"
    cf_import "$work/httpd-$tag" "docker.io/library/httpd:$tag" 'EXPOSE 80' 'CMD ["httpd-foreground"]'
  done
  if ! cf_have gcr.io/kubernetes-e2e-test-images/nonewprivs:1.0; then
    # The tree's test/images/nonewprivs: a setuid Go program that prints its effective uid.
    cf_busybox_rootfs "$work/nonewprivs"
    mkdir -p "$work/nonewprivs/usr/local/bin"
    jk_ensure_kube_binaries test/images/nonewprivs
    cp "$JK_KUBE_BIN/nonewprivs" "$work/nonewprivs/usr/local/bin/nnp"
    chmod u+s "$work/nonewprivs/usr/local/bin/nnp"
    cf_import "$work/nonewprivs" gcr.io/kubernetes-e2e-test-images/nonewprivs:1.0 'CMD ["nnp"]'
  fi
  if ! cf_have gcr.io/kubernetes-e2e-test-images/regression-issue-74839-amd64:1.0; then
    # The tree's test/images/regression-issue-74839 (the source of the image's 1.2; the spec names 1.0): a server on
    # port 9000 that injects a TCP packet with an out-of-window sequence number into each connection, which the node
    # must drop as INVALID rather than let it reset the connection (kubernetes#74839). Static, on busybox where the
    # image has distroless.
    # The source reads the pod's addresses from POD_IP or POD_IPS (the downward API of its 1.2 manifests), which the
    # v1.20.2 spec does not set: alone it panics "No valid IP found". The entrypoint gives it the pod's global
    # addresses from its own interfaces when neither is set.
    jk_ensure_kube_binaries test/images/regression-issue-74839
    cf_busybox_rootfs "$work/regression-issue-74839"
    cp "$JK_KUBE_BIN/regression-issue-74839" "$work/regression-issue-74839/regression-issue-74839"
    cat >"$work/regression-issue-74839/entrypoint" <<'SH'
#!/bin/sh
if [ -z "$POD_IP" ] && [ -z "$POD_IPS" ]; then
  POD_IPS=$(ip -o addr show scope global | awk '{ sub("/.*", "", $4); print $4 }' | paste -s -d, -)
  export POD_IPS
fi
exec /regression-issue-74839 "$@"
SH
    chmod 755 "$work/regression-issue-74839/entrypoint"
    cf_import "$work/regression-issue-74839" gcr.io/kubernetes-e2e-test-images/regression-issue-74839-amd64:1.0 \
      'ENTRYPOINT ["/entrypoint"]'
  fi
  if ! cf_have k8s.gcr.io/build-image/debian-iptables:buster-v1.3.0; then
    # The storage multiVolume specs' pods and the KubeProxy specs' host-network pod run it: a Linux userland with
    # iptables and conntrack (Debian buster's, in the image). Debian's iptables (nft backend, with the extensions it
    # loads at run time) and conntrack on busybox here, and GNU dd ahead of busybox's: the specs write and read block
    # volumes with `dd oflag=nocache` / `iflag=nocache`, which busybox's dd refuses ("invalid argument 'nocache'").
    # sh is bash, as in agnhost: Debian's busybox sh would run its own dd before PATH's.
    jk_apt_install iptables conntrack bash
    cf_busybox_rootfs "$work/debian-iptables"
    cf_add_binaries "$work/debian-iptables" /usr/sbin/xtables-nft-multi /usr/sbin/conntrack /usr/bin/dd /usr/bin/bash
    ln -sf /usr/bin/bash "$work/debian-iptables/bin/sh"
    mkdir -p "$work/debian-iptables/usr/lib/x86_64-linux-gnu"
    cp -r /usr/lib/x86_64-linux-gnu/xtables "$work/debian-iptables/usr/lib/x86_64-linux-gnu/"
    local tool
    for tool in iptables iptables-save iptables-restore ip6tables ip6tables-save ip6tables-restore; do
      ln -s xtables-nft-multi "$work/debian-iptables/usr/sbin/$tool"
    done
    cf_import "$work/debian-iptables" k8s.gcr.io/build-image/debian-iptables:buster-v1.3.0 'CMD ["sh"]'
  fi
  if ! cf_have k8s.gcr.io/pause:3.2; then
    mkdir -p "$work/pause"
    gcc -static -O2 -DVERSION=v3.2 -o "$work/pause/pause" "$JK_KUBE_TREE/build/pause/linux/pause.c" \
      || jk_die "building pause failed"
    cf_import "$work/pause" k8s.gcr.io/pause:3.2 'ENTRYPOINT ["/pause"]' 'USER 65535:65535'
  fi
  for tag in 1.14-alpine 1.15-alpine; do
    cf_have "docker.io/library/nginx:$tag" && continue
    cf_nginx_rootfs "$work/nginx-$tag"
    cf_import "$work/nginx-$tag" "docker.io/library/nginx:$tag" 'EXPOSE 80' 'CMD ["nginx", "-g", "daemon off;"]'
  done
  rm -rf "$work"
}

# What agnhost's image has: the agnhost binary (built as a static binary only through the tree's make:
# KUBE_STATIC_OVERRIDES) on the image's alpine, with curl, netcat-openbsd, iproute2, bash and bind-tools (Debian's
# here), the agnhost-2 link the entrypoint specs run, /uploads and porter's certificate. Upstream's image also has
# CoreDNS 1.6.2 as /coredns, which the DNS specs run with the Corefile they write (hosts and log); CoreDNS cannot be
# had here, so /coredns is NOT CoreDNS but jk-e2e-coredns (bin/lib/e2e-coredns/main.go, static): a stand-in that
# serves a Corefile's hosts and log plugins as CoreDNS does and refuses at start any other plugin or option.
# Two of Debian's busybox-static 1.35.0 applets fail the specs where alpine's busybox does not, so util-linux's and
# GNU's come ahead of them in PATH (/usr/bin before busybox's /bin):
# - wget: the Service specs poll from agnhost pods with `wget -q -T 1`, and this busybox crashes on -T (segmentation
#   fault, exit 139), so every poll answered nothing;
# - nsenter: host-exec pods run `nsenter --mount=/rootfs/proc/1/ns/mnt -- sh -c CMD` to run CMD with the node's own
#   tools, and this busybox (built to prefer its applets) runs its own sh and applets there instead: the local-volume
#   specs got busybox's losetup, which prints its usage where util-linux's lists the loop devices.
cf_agnhost_rootfs() {
  local dir=$1
  jk_ensure_kube_binaries test/images/agnhost
  jk_ensure_e2e_coredns
  jk_apt_install curl netcat-openbsd iproute2 bash bind9-dnsutils libc-bin wget util-linux
  cf_busybox_rootfs "$dir"
  cp "$JK_KUBE_BIN/agnhost" "$dir/agnhost"
  cp "$JK_KUBE_BIN/jk-e2e-coredns" "$dir/coredns"
  cf_add_binaries "$dir" /usr/bin/curl /usr/bin/nc.openbsd /usr/bin/bash /usr/bin/ip /usr/bin/wget /usr/bin/nsenter \
    $CF_DNS_TOOLS
  ln -sf /usr/bin/nc.openbsd "$dir/usr/local/bin/nc"
  # Debian's busybox ash runs its own applets before PATH (standalone shell), alpine's does not: sh is bash here.
  ln -sf /usr/bin/bash "$dir/bin/sh"
  ln -s agnhost "$dir/agnhost-2"
  mkdir -p "$dir/uploads"
  cp "$JK_KUBE_TREE/test/images/agnhost/porter/localhost.crt" "$JK_KUBE_TREE/test/images/agnhost/porter/localhost.key" \
    "$dir/"
}

# The DNS tools the e2e DNS specs run in agnhost and jessie-dnsutils: bind's dig, host and nslookup, glibc's getent.
CF_DNS_TOOLS="/usr/bin/dig /usr/bin/host /usr/bin/nslookup /usr/bin/getent"

# httpd's image as the specs use it: a web server on port 80 serving /usr/local/apache2/htdocs (index.html: "It
# works!"), started by httpd-foreground, which stops on SIGTERM; busybox's httpd here.
cf_httpd_rootfs() {
  local dir=$1
  cf_busybox_rootfs "$dir"
  mkdir -p "$dir/usr/local/apache2/htdocs" "$dir/usr/local/bin"
  echo '<html><body><h1>It works!</h1></body></html>' >"$dir/usr/local/apache2/htdocs/index.html"
  cat >"$dir/usr/local/bin/httpd-foreground" <<'SCRIPT'
#!/bin/sh
# busybox httpd as PID 1 would ignore SIGTERM: the shell stops it.
httpd -f -p 80 -h /usr/local/apache2/htdocs &
trap 'kill $!; exit 0' TERM INT
wait $!
SCRIPT
  chmod +x "$dir/usr/local/bin/httpd-foreground"
}

# Debian's nginx with the libraries it links, on busybox, serving /usr/share/nginx/html on port 80 as the
# upstream image does.
cf_nginx_rootfs() {
  local dir=$1
  jk_apt_install nginx-light
  cf_busybox_rootfs "$dir"
  cf_add_binaries "$dir" /usr/sbin/nginx
  mkdir -p "$dir/etc/nginx" "$dir/var/log/nginx" "$dir/var/cache/nginx" "$dir/run" "$dir/usr/share/nginx/html" \
    "$dir/var/lib/nginx"
  cp /etc/nginx/mime.types "$dir/etc/nginx/mime.types"
  cat >"$dir/etc/nginx/nginx.conf" <<'CONF'
user nginx;
worker_processes 1;
error_log /dev/stderr warn;
pid /run/nginx.pid;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  access_log /dev/stdout;
  server {
    listen 80;
    location / { root /usr/share/nginx/html; index index.html; }
  }
}
CONF
  echo '<h1>Welcome to nginx!</h1>' >"$dir/usr/share/nginx/html/index.html"
}
