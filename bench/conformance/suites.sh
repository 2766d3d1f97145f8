# The runner's suites: which of upstream's v1.20.2 e2e specs each one runs, as ginkgo focus and skip regular
# expressions, in passes (a parallel one, and for some a serial one of the suite's [Serial] specs on one ginkgo node).
# Sourced by bench/conformance/run; bench/conformance/report names the suites in this order.
#
# Ginkgo (v1, vendored in the tree) matches a regexp against "Kubernetes e2e suite [Top Level] <the spec's full name>",
# so "suite \[Top Level\] \[sig-apps\] " selects the specs whose outermost describe is [sig-apps] (and not those that
# only mention it, as "[sig-storage] ... [sig-apps]" does).
CF_SUITES=(node conformance node-wide storage apps network)

# What no suite runs: specs that break the node or the cluster on purpose, flaky ones, feature-gated ones, and those
# bound to a cloud provider (load balancers, cloud disks, Windows).
CF_SKIP_ALWAYS='\[Disruptive\]|\[Flaky\]|\[Feature:|\[Provider:|\[sig-cloud-provider|\[sig-windows\]|LoadBalancer|load balancer|ESIPP'
# In-tree storage drivers with a server or a cloud behind them (nfs, iscsi, gluster, ceph, rbd, cloud disks) and the
# CSI drivers, whose images cannot be had here; dynamic provisioning of in-tree drivers needs a cloud.
CF_SKIP_STORAGE='\[Driver: (aws|azure-disk|azure-file|ceph|cinder|csi-hostpath|gcepd|gluster|iscsi|nfs|pd\.csi\.storage\.gke\.io|rbd|vsphere|windows-gcepd)\]|\[Testpattern: Dynamic PV|CSI mock volume|Pod Disks|Regional PD|Multi-AZ|gce-localssd|PersistentVolumes NFS|PersistentVolumes GCEPD|GlusterFS|Dynamic Provisioning|\[sig-storage\] Volumes (NFS|GlusterFS|iSCSI|Ceph)|[Ff]lex[Vv]olume|Detaching volumes'

# One smoke spec per suite (bin/test runs them for jkubelet): each regexp names exactly one spec.
declare -A CF_SMOKE=(
  [node]='\[k8s\.io\] Pods should get a host IP \[NodeConformance\]'
  [conformance]='\[sig-network\] DNS should provide DNS for the cluster  \[Conformance\]'
  [node-wide]='\[k8s\.io\] Security Context When creating a pod with privileged should run the container as privileged when true'
  [storage]='\[sig-storage\] HostPath should support r/w \[NodeConformance\]'
  [apps]='\[sig-apps\] ReplicaSet should serve a basic image on each replica with a public image'
  [network]='\[sig-network\] Services should serve a basic endpoint from pods'
)

# cf_suite SUITE: the suite's passes in CF_PASS_NAMES, CF_PASS_NODES (ginkgo nodes), CF_PASS_FOCUS, CF_PASS_SKIP.
cf_suite() {
  CF_PASS_NAMES=(parallel) CF_PASS_NODES=("${CF_NODES:-3}") CF_PASS_FOCUS=() CF_PASS_SKIP=()
  local serial= serial_skip=$CF_SKIP_ALWAYS
  case "$1" in
    node)
      # Today's NodeConformance set, as the first runs had it.
      CF_PASS_FOCUS=('\[NodeConformance\]') CF_PASS_SKIP=('\[Serial\]|\[Disruptive\]|\[Flaky\]|\[Slow\]') ;;
    conformance)
      CF_PASS_FOCUS=('\[Conformance\]') CF_PASS_SKIP=('\[Serial\]|\[Disruptive\]')
      serial='\[Serial\].*\[Conformance\]|\[Conformance\].*\[Serial\]' serial_skip='\[Disruptive\]' ;;
    node-wide)
      CF_PASS_FOCUS=('suite \[Top Level\] \[(k8s\.io|sig-node)\] ') CF_PASS_SKIP=("\\[Serial\\]|$CF_SKIP_ALWAYS")
      serial='suite \[Top Level\] \[(k8s\.io|sig-node)\] .*\[Serial\]' ;;
    storage)
      CF_PASS_FOCUS=('\[sig-storage\]') CF_PASS_SKIP=("\\[Serial\\]|$CF_SKIP_ALWAYS|$CF_SKIP_STORAGE")
      serial='\[sig-storage\].*\[Serial\]|\[Serial\].*\[sig-storage\]' serial_skip="$CF_SKIP_ALWAYS|$CF_SKIP_STORAGE" ;;
    apps)
      CF_PASS_FOCUS=('suite \[Top Level\] \[sig-apps\] ') CF_PASS_SKIP=("\\[Serial\\]|$CF_SKIP_ALWAYS")
      serial='suite \[Top Level\] \[sig-apps\] .*\[Serial\]' ;;
    network)
      CF_PASS_FOCUS=('suite \[Top Level\] \[sig-network\] ') CF_PASS_SKIP=("\\[Serial\\]|$CF_SKIP_ALWAYS")
      serial='suite \[Top Level\] \[sig-network\] .*\[Serial\]' ;;
    *) return 1 ;;
  esac
  if [ -n "$serial" ]; then
    CF_PASS_NAMES+=(serial) CF_PASS_NODES+=(1) CF_PASS_FOCUS+=("$serial")
    CF_PASS_SKIP+=("$serial_skip")
  fi
}

# cf_smoke [SUITE]: one parallel pass of the smoke specs of SUITE, or of every suite.
cf_smoke() {
  local suite focus=
  for suite in "${@:-${CF_SUITES[@]}}"; do
    [ -n "${CF_SMOKE[$suite]:-}" ] || return 1
    focus="${focus:+$focus|}${CF_SMOKE[$suite]}"
  done
  CF_SMOKE_COUNT=$#
  [ $# -eq 0 ] && CF_SMOKE_COUNT=${#CF_SUITES[@]}
  CF_PASS_NAMES=(smoke) CF_PASS_NODES=("${CF_NODES:-3}") CF_PASS_FOCUS=("$focus") CF_PASS_SKIP=('')
}
