package io.jkubelet.core.podutil;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Quantity;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;

/** CPU and memory settings from a container's resources (upstream {@code cm/helpers_linux.go}). */
public final class Resources {
    private Resources() {}

    /** The fewest CPU shares the kernel takes; the weight of BestEffort pods. */
    public static final long MIN_SHARES = 2;
    static final long MAX_SHARES = 262144;
    static final long SHARES_PER_CPU = 1024;
    static final long MILLI_CPU_TO_CPU = 1000;
    /** CFS period, 100 ms (cpuCFSQuotaPeriod). */
    public static final long QUOTA_PERIOD_US = 100_000;
    static final long MIN_QUOTA_PERIOD_US = 1000;

    public static long milliCpuToShares(long milliCpu) {
        if (milliCpu == 0) {
            return MIN_SHARES;
        }
        long shares = milliCpu * SHARES_PER_CPU / MILLI_CPU_TO_CPU;
        return Math.max(MIN_SHARES, Math.min(MAX_SHARES, shares));
    }

    public static long milliCpuToQuota(long milliCpu, long periodUs) {
        if (milliCpu == 0) {
            return 0;
        }
        long quota = milliCpu * periodUs / MILLI_CPU_TO_CPU;
        return Math.max(quota, MIN_QUOTA_PERIOD_US);
    }

    public static long milliCpu(Quantity q) {
        if (q == null) {
            return 0;
        }
        return Quantity.getAmountInBytes(q).multiply(BigDecimal.valueOf(1000))
                .setScale(0, RoundingMode.CEILING).longValueExact();
    }

    public static long bytes(Quantity q) {
        if (q == null) {
            return 0;
        }
        return Quantity.getAmountInBytes(q).setScale(0, RoundingMode.CEILING).longValueExact();
    }

    public static Quantity request(Container c, String resource) {
        Map<String, Quantity> req = c.getResources() == null ? null : c.getResources().getRequests();
        Quantity q = req == null ? null : req.get(resource);
        if (q == null) {
            // Requests default to limits when only limits are set, as the API defaulting does.
            return limit(c, resource);
        }
        return q;
    }

    public static Quantity limit(Container c, String resource) {
        Map<String, Quantity> lim = c.getResources() == null ? null : c.getResources().getLimits();
        return lim == null ? null : lim.get(resource);
    }
}
