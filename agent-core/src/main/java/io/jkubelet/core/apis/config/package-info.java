/**
 * The kubelet's configuration, {@code kubelet.config.k8s.io/v1beta1} {@code KubeletConfiguration}:
 * the model ({@link io.jkubelet.core.apis.config.KubeletConfiguration}), its v1.30 defaults, strict
 * loading of the {@code --config} file, validation, and Go-compatible JSON and durations.
 */
package io.jkubelet.core.apis.config;
