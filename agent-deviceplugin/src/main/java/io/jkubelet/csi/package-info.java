/**
 * The kubelet's CSI client (CSI spec v1 over gRPC on the drivers' unix sockets), behind agent-core's
 * {@link io.jkubelet.core.volume.csi.CsiDriverClient} port. The messages and stubs are generated from
 * {@code src/main/proto/csi/v1/csi.proto} into {@code io.jkubelet.csi.v1}.
 */
package io.jkubelet.csi;
