/**
 * The CRI adapter of the runtime port: {@link io.jkubelet.core.runtime.RuntimeService} and
 * {@link io.jkubelet.core.runtime.ImageService} on any runtime that serves CRI v1 ({@code runtime.v1.RuntimeService},
 * {@code runtime.v1.ImageService}) over gRPC on a unix socket, such as containerd's CRI plugin or CRI-O. Only this
 * package sees gRPC and the CRI's generated types ({@code io.jkubelet.cri.v1}).
 */
package io.jkubelet.cri;
