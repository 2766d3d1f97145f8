/**
 * Validation of pods from static sources: the part of the apiserver's {@code ValidatePodCreate}
 * ({@code pkg/apis/core/validation}) that matters to a node, with the same field paths, error types
 * and messages, so a kubelet user recognises each error.
 */
package io.jkubelet.core.config.validation;
