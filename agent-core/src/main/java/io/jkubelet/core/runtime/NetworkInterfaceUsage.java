package io.jkubelet.core.runtime;

/** The counters of one network interface in a pod's network namespace (CRI {@code NetworkInterfaceUsage}). */
public record NetworkInterfaceUsage(String name, long rxBytes, long rxErrors, long txBytes, long txErrors) {}
