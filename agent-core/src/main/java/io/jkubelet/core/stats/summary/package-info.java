/**
 * The kubelet's stats summary API ({@code stats/v1alpha1}, upstream
 * {@code staging/src/k8s.io/kubelet/pkg/apis/stats/v1alpha1/types.go}) as immutable records: what
 * {@code /stats/summary} serves and what the resource metrics are computed from. Optional values
 * ({@code *uint64} upstream, omitted from JSON when nil) are nullable {@link java.lang.Long}s; times are
 * {@link java.time.Instant}s, {@code null} for Go's zero time.
 */
package io.jkubelet.core.stats.summary;
