/**
 * Quality of service: a pod's QoS class, the {@code oom_score_adj} policy for the kubelet, sandboxes
 * and containers, and the adjuster that applies it within what the machine allows.
 */
package io.jkubelet.core.qos;
