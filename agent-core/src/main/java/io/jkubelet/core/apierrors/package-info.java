/**
 * How the apiserver refused a request, or that no answer came (upstream {@code k8s.io/apimachinery/pkg/api/errors}),
 * in the core's own type: the ports through which the core talks to the apiserver throw it, so that no consumer
 * depends on the HTTP client behind them.
 */
package io.jkubelet.core.apierrors;
