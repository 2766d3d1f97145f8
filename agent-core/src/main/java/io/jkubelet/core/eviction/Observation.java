package io.jkubelet.core.eviction;

import java.time.Instant;

/**
 * What was observed of one signal (upstream {@code signalObservation}).
 *
 * @param available what is available now, in the signal's unit
 * @param capacity the total a percentage threshold is taken of
 * @param time when it was measured; null when the stats do not say
 */
public record Observation(long available, long capacity, Instant time) {}
