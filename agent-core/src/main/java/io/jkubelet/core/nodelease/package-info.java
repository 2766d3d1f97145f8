/**
 * The node's heartbeat Lease in {@code kube-node-lease} (upstream {@code component-helpers/apimachinery/lease}
 * controller with the kubelet's node owner reference).
 */
package io.jkubelet.core.nodelease;
