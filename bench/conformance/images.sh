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

# Imports the root filesystem $1 as image $2 with docker import changes $3...
cf_import() {
  local dir=$1 image=$2; shift 2
  local changes=(-c 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin')
  for c in "$@"; do changes+=(-c "$c"); done
  tar -C "$dir" -c . | docker import "${changes[@]}" - "$image" >/dev/null || jk_die "docker import of $image failed"
}

cf_have() { docker image inspect "$1" >/dev/null 2>&1; }

# The images cf_ensure_images makes, by the names the specs (and a CRI runtime's image list) give them.
CF_IMAGES=(docker.io/library/busybox:1.29 gcr.io/kubernetes-e2e-test-images/nonroot:1.0
  k8s.gcr.io/e2e-test-images/agnhost:2.21 gcr.io/kubernetes-e2e-test-images/nonewprivs:1.0 k8s.gcr.io/pause:3.2
  docker.io/library/nginx:1.14-alpine)

# The same images in containerd's k8s.io namespace (where its CRI plugin looks), copied from Docker's engine as
# jk_ensure_containerd_images copies jkubelet's own; nothing can be pulled there either. Only the missing ones.
cf_ensure_containerd_images() {
  local missing=() image
  for image in "${CF_IMAGES[@]}"; do
    jk_ctr images ls -q "name==$image" 2>/dev/null | grep -q . || missing+=("$image")
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
    # agnhost builds as a static binary only through the tree's make (KUBE_STATIC_OVERRIDES).
    jk_ensure_kube_binaries test/images/agnhost
    cf_busybox_rootfs "$work/agnhost"
    cp "$JK_KUBE_BIN/agnhost" "$work/agnhost/agnhost"
    # What the image's Dockerfile adds on alpine: curl, netcat-openbsd, iproute2, bash (Debian's here), the
    # agnhost-2 link the entrypoint specs run, /uploads and porter's certificate.
    jk_apt_install curl netcat-openbsd iproute2 bash
    cf_add_binaries "$work/agnhost" /usr/bin/curl /usr/bin/nc.openbsd /usr/bin/bash /usr/bin/ip
    ln -sf /usr/bin/nc.openbsd "$work/agnhost/usr/local/bin/nc"
    # Debian's busybox ash runs its own applets before PATH (standalone shell), alpine's does not: sh is bash here.
    ln -sf /usr/bin/bash "$work/agnhost/bin/sh"
    ln -s agnhost "$work/agnhost/agnhost-2"
    mkdir -p "$work/agnhost/uploads"
    cp "$JK_KUBE_TREE/test/images/agnhost/porter/localhost.crt" "$JK_KUBE_TREE/test/images/agnhost/porter/localhost.key" \
      "$work/agnhost/"
    cf_import "$work/agnhost" k8s.gcr.io/e2e-test-images/agnhost:2.21 'ENTRYPOINT ["/agnhost"]' 'CMD ["pause"]'
  fi
  if ! cf_have gcr.io/kubernetes-e2e-test-images/nonewprivs:1.0; then
    # The tree's test/images/nonewprivs: a setuid Go program that prints its effective uid.
    cf_busybox_rootfs "$work/nonewprivs"
    mkdir -p "$work/nonewprivs/usr/local/bin"
    jk_ensure_kube_binaries test/images/nonewprivs
    cp "$JK_KUBE_BIN/nonewprivs" "$work/nonewprivs/usr/local/bin/nnp"
    chmod u+s "$work/nonewprivs/usr/local/bin/nnp"
    cf_import "$work/nonewprivs" gcr.io/kubernetes-e2e-test-images/nonewprivs:1.0 'CMD ["nnp"]'
  fi
  if ! cf_have k8s.gcr.io/pause:3.2; then
    mkdir -p "$work/pause"
    gcc -static -O2 -DVERSION=v3.2 -o "$work/pause/pause" "$JK_KUBE_TREE/build/pause/linux/pause.c" \
      || jk_die "building pause failed"
    cf_import "$work/pause" k8s.gcr.io/pause:3.2 'ENTRYPOINT ["/pause"]' 'USER 65535:65535'
  fi
  if ! cf_have docker.io/library/nginx:1.14-alpine; then
    cf_nginx_rootfs "$work/nginx"
    cf_import "$work/nginx" docker.io/library/nginx:1.14-alpine 'EXPOSE 80' \
      'CMD ["nginx", "-g", "daemon off;"]'
  fi
  rm -rf "$work"
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

# dockerd's default runtime becomes a wrapper of runc that rewrites a negative oomScoreAdj to 0 (reloaded with
# SIGHUP: runtimes and default-runtime are live-reloadable); cf_default_runtime_runc puts runc back.
CF_DAEMON_JSON=/etc/docker/daemon.json
cf_default_runtime_clamped() {
  local wrapper=/usr/local/libexec/jkubelet-runc-oom-clamp
  mkdir -p "$(dirname "$wrapper")"
  cat >"$wrapper" <<'WRAPPER'
#!/bin/sh
# runc, with a negative oomScoreAdj in the bundle's config.json raised to 0 (no CAP_SYS_RESOURCE here).
bundle=
prev=
for a in "$@"; do
  [ "$prev" = "--bundle" ] || [ "$prev" = "-b" ] && bundle=$a
  prev=$a
done
if [ -n "$bundle" ] && [ -f "$bundle/config.json" ]; then
  sed -i 's/"oomScoreAdj":-[0-9]*/"oomScoreAdj":0/' "$bundle/config.json"
fi
exec /usr/sbin/runc "$@"
WRAPPER
  chmod +x "$wrapper"
  [ -f "$CF_DAEMON_JSON" ] && cp "$CF_DAEMON_JSON" "$CF_DAEMON_JSON.jkubelet-saved"
  mkdir -p /etc/docker
  echo "{\"runtimes\": {\"oom-clamp\": {\"path\": \"$wrapper\"}}, \"default-runtime\": \"oom-clamp\"}" >"$CF_DAEMON_JSON"
  pkill -HUP -x dockerd
  sleep 2
}

cf_default_runtime_runc() {
  if [ -f "$CF_DAEMON_JSON.jkubelet-saved" ]; then
    mv "$CF_DAEMON_JSON.jkubelet-saved" "$CF_DAEMON_JSON"
  else
    rm -f "$CF_DAEMON_JSON"
  fi
  pkill -HUP -x dockerd || true
}
