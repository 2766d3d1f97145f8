package io.jkubelet.core.stats.history;

import java.util.Arrays;

/**
 * The last {@code capacity} usage samples of one node, pod or container, oldest overwritten first. Samples are
 * kept in primitive arrays (a time and one {@code long} per {@link Metric}), so that a full ring of 90 samples
 * costs about 4 KiB whatever its values, and nothing is allocated per sample.
 *
 * <p>Network counters arrive cumulative and are kept as rates (bytes per second since the previous sample), which
 * is what a chart shows; a counter that went back (a new sandbox) starts over with no rate.
 *
 * <p>Thread-safe: the stats thread records, any thread reads a copy.
 */
public final class UsageRing {
    /** A sample's value that was not measured (no CPU rate in a container's first round, no network for a container). */
    public static final long MISSING = Long.MIN_VALUE;

    /** What each sample holds, with the names {@code /stats/history} gives them. */
    public enum Metric {
        CPU_NANO_CORES("cpuNanoCores"),
        MEMORY_WORKING_SET_BYTES("memoryWorkingSetBytes"),
        RX_BYTES_PER_SECOND("rxBytesPerSecond"),
        TX_BYTES_PER_SECOND("txBytesPerSecond"),
        FS_USED_BYTES("fsUsedBytes");

        private final String jsonName;

        Metric(String jsonName) {
            this.jsonName = jsonName;
        }

        public String jsonName() {
            return jsonName;
        }
    }

    private static final int METRICS = Metric.values().length;

    private final long[] timesMillis;
    /** {@code values[i * METRICS + metric.ordinal()]} belongs to {@code timesMillis[i]}. */
    private final long[] values;
    private int next;
    private int size;
    private long lastRxBytes = MISSING;
    private long lastTxBytes = MISSING;
    private long lastNetworkMillis;

    public UsageRing(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("ring capacity must be positive, got " + capacity);
        }
        this.timesMillis = new long[capacity];
        this.values = new long[capacity * METRICS];
    }

    /**
     * Appends one sample; {@link #MISSING} for what was not measured.
     *
     * @param rxBytes the cumulative bytes received, turned into a rate against the previous sample's
     * @param txBytes the cumulative bytes sent, likewise
     */
    public synchronized void record(long timeMillis, long cpuNanoCores, long memoryWorkingSetBytes, long rxBytes,
                                    long txBytes, long fsUsedBytes) {
        if (size > 0 && timeMillis <= timesMillis[(next - 1 + timesMillis.length) % timesMillis.length]) {
            return; // the same round twice, or a clock that went back: the chart's time axis must only go forward
        }
        int base = next * METRICS;
        values[base + Metric.CPU_NANO_CORES.ordinal()] = cpuNanoCores;
        values[base + Metric.MEMORY_WORKING_SET_BYTES.ordinal()] = memoryWorkingSetBytes;
        values[base + Metric.RX_BYTES_PER_SECOND.ordinal()] = rate(rxBytes, lastRxBytes, timeMillis);
        values[base + Metric.TX_BYTES_PER_SECOND.ordinal()] = rate(txBytes, lastTxBytes, timeMillis);
        values[base + Metric.FS_USED_BYTES.ordinal()] = fsUsedBytes;
        timesMillis[next] = timeMillis;
        lastRxBytes = rxBytes;
        lastTxBytes = txBytes;
        lastNetworkMillis = timeMillis;
        next = (next + 1) % timesMillis.length;
        size = Math.min(size + 1, timesMillis.length);
    }

    private long rate(long counter, long previous, long timeMillis) {
        if (counter == MISSING || previous == MISSING || counter < previous || timeMillis <= lastNetworkMillis) {
            return MISSING;
        }
        return (counter - previous) * 1000 / (timeMillis - lastNetworkMillis);
    }

    /** The time of the newest sample, or {@link #MISSING} when there is none. */
    public synchronized long lastMillis() {
        return size == 0 ? MISSING : timesMillis[(next - 1 + timesMillis.length) % timesMillis.length];
    }

    /** A copy of the samples, oldest first. */
    public synchronized Series read() {
        int capacity = timesMillis.length;
        int first = (next - size + capacity) % capacity;
        long[] times = new long[size];
        long[][] columns = new long[METRICS][size];
        for (int i = 0; i < size; i++) {
            int slot = (first + i) % capacity;
            times[i] = timesMillis[slot];
            for (int m = 0; m < METRICS; m++) {
                columns[m][i] = values[slot * METRICS + m];
            }
        }
        return new Series(times, columns);
    }

    /** How many samples the ring keeps. */
    public int capacity() {
        return timesMillis.length;
    }

    /**
     * Samples oldest first, one column per {@link Metric}.
     *
     * @param timesMillis each sample's collection time, Unix milliseconds
     */
    public record Series(long[] timesMillis, long[][] columns) {
        public long[] column(Metric metric) {
            return columns[metric.ordinal()];
        }

        public int size() {
            return timesMillis.length;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Series s && Arrays.equals(timesMillis, s.timesMillis) && Arrays.deepEquals(columns, s.columns);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(timesMillis) * 31 + Arrays.deepHashCode(columns);
        }

        @Override
        public String toString() {
            return "Series" + Arrays.toString(timesMillis);
        }
    }
}
