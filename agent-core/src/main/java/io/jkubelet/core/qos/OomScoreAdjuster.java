package io.jkubelet.core.qos;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sets the agent's own {@code oom_score_adj} and knows how low the machine lets scores go.
 *
 * <p>Real nodes give the kubelet {@code CAP_SYS_RESOURCE}, so any value in [-1000, 1000] can be
 * set. Without it (containers, some CI machines) the kernel refuses to lower a process's score below
 * the floor it inherited ({@code oom_score_adj_min}, usually 0), and a container asked to run with a
 * lower score then fails to start in runc. The adjuster finds that floor once, by trying values on its
 * own process and restoring the original afterwards; from then on {@link #clamp} raises every wanted
 * value to the floor, so pods still start, and one warning says so.
 *
 * <p>Thread-safe.
 */
public final class OomScoreAdjuster {

    private static final Logger log = LoggerFactory.getLogger(OomScoreAdjuster.class);
    /** The kernel's range of oom_score_adj. */
    public static final int MIN = -1000;
    public static final int MAX = 1000;

    private final OomScoreAdjFile file;
    private boolean probed;
    private volatile int lowestAllowed = MIN;

    public OomScoreAdjuster(OomScoreAdjFile file) {
        this.file = file;
    }

    /** The adjuster of this process ({@code /proc/self/oom_score_adj}). */
    public static OomScoreAdjuster forSelf() {
        return new OomScoreAdjuster(OomScoreAdjFile.self());
    }

    /**
     * Sets this process's score to {@code wanted}, or to the lowest allowed value when the machine
     * forbids going that low. Idempotent.
     *
     * @return the value set
     * @throws IOException when the file cannot be read or written for another reason
     */
    public synchronized int apply(int wanted) throws IOException {
        checkRange(wanted);
        probe();
        int value = clamp(wanted);
        file.write(value);
        return value;
    }

    /**
     * Finds, once, the lowest score the machine allows; later calls return at once. The file holds its
     * original value afterwards.
     *
     * @return the lowest allowed value ({@value #MIN} when nothing is forbidden)
     */
    public synchronized int probe() throws IOException {
        if (probed) {
            return lowestAllowed;
        }
        int original = file.read();
        int lowest;
        if (tryWrite(MIN)) {
            lowest = MIN;
        } else {
            // Invariant: lo is refused, hi is allowed (the current value always is).
            int lo = MIN;
            int hi = original;
            while (hi - lo > 1) {
                int mid = lo + (hi - lo) / 2;
                if (tryWrite(mid)) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            lowest = hi;
        }
        // Raising a score is always allowed: put the original back.
        file.write(original);
        lowestAllowed = lowest;
        probed = true;
        if (lowest > MIN) {
            log.warn("This machine does not allow oom_score_adj below {} (the process lacks CAP_SYS_RESOURCE; "
                    + "probed {}): lower values wanted for the kubelet ({}), pod sandboxes ({}) and Guaranteed "
                    + "containers ({}) are raised to {}", lowest, file.describe(),
                    OomScorePolicy.KUBELET_OOM_SCORE_ADJ, OomScorePolicy.POD_INFRA_OOM_SCORE_ADJ,
                    OomScorePolicy.GUARANTEED_OOM_SCORE_ADJ, lowest);
        }
        return lowest;
    }

    /** Whether the machine forbids some scores (known once {@link #probe} or {@link #apply} ran). */
    public boolean restricted() {
        return lowestAllowed > MIN;
    }

    /** The lowest score allowed; {@value #MIN} until a restriction is found. */
    public int lowestAllowed() {
        return lowestAllowed;
    }

    /** The score to ask for instead of {@code wanted}: {@code max(wanted, lowestAllowed())}. */
    public int clamp(int wanted) {
        return Math.max(wanted, lowestAllowed);
    }

    private boolean tryWrite(int value) throws IOException {
        try {
            file.write(value);
            return true;
        } catch (IOException e) {
            if (isForbidden(e)) {
                return false;
            }
            throw e;
        }
    }

    /** EACCES or EPERM: the kernel's answer to a score below the floor. */
    static boolean isForbidden(IOException e) {
        if (e instanceof AccessDeniedException) {
            return true;
        }
        String message = e.getMessage();
        return message != null
                && (message.contains("Permission denied") || message.contains("Operation not permitted"));
    }

    private static void checkRange(int value) {
        if (value < MIN || value > MAX) {
            throw new IllegalArgumentException("oom_score_adj " + value + " must be between " + MIN + " and "
                    + MAX + ", inclusive");
        }
    }
}
