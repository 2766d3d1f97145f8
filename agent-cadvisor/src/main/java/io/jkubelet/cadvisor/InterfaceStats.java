package io.jkubelet.cadvisor;

/**
 * The counters of one network interface, as cAdvisor's {@code InterfaceStats} holds them (the ones the kubelet
 * reports): what {@link NetDev} reads of a line of {@code /proc/<pid>/net/dev}.
 */
public record InterfaceStats(String name, long rxBytes, long rxErrors, long txBytes, long txErrors) {}
