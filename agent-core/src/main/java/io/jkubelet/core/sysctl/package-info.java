/**
 * Which sysctls pods may set (upstream {@code pkg/kubelet/sysctl} and component-helpers' {@code node/util/sysctl}):
 * the safe set, the node's {@code allowedUnsafeSysctls}, the kernel namespace each sysctl lives in, and the
 * admission that refuses a pod setting any other ({@code SysctlForbidden}).
 */
package io.jkubelet.core.sysctl;
