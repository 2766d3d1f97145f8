package io.jkubelet.core.nodeshutdown;

/**
 * One priority range's share of the node's shutdown (upstream {@code ShutdownGracePeriodByPodPriority}): pods of this
 * priority up to the next range's get {@code shutdownGracePeriodSeconds} to stop.
 */
public record ShutdownGracePeriod(int priority, long shutdownGracePeriodSeconds) {}
