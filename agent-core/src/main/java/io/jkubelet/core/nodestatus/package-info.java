/**
 * The node object this kubelet registers and keeps current (upstream {@code kubelet_node_status.go} and
 * {@code pkg/kubelet/nodestatus}): the initial node, the status setters (addresses, capacity and allocatable,
 * node info, images, conditions), the change test that keeps unchanged statuses off the wire, and the loop
 * that registers the node and patches its status.
 */
package io.jkubelet.core.nodestatus;
