/**
 * The Docker adapter of the runtime port: {@link io.jkubelet.docker.DockerRuntime} implements
 * {@link io.jkubelet.core.runtime.RuntimeService} and {@link io.jkubelet.core.runtime.ImageService} with
 * docker-java, following the conventions of the kubelet's dockershim (v1.20-v1.23) so that node tooling
 * that knows dockershim's containers recognises ours: container names, labels, the sandbox ("pause")
 * container holding the pod's namespaces, and the log symlinks under {@code /var/log/pods}.
 *
 * <p>Only this package imports docker-java. {@link io.jkubelet.docker.DockerRuntimeFactory} connects to an
 * endpoint such as {@code unix:///var/run/docker.sock} and checks it.
 */
package io.jkubelet.docker;
