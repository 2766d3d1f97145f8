package io.jkubelet.core.nodestatus;

/**
 * Whether the node is short of memory, disk or process IDs: the eviction manager's answers, which the pressure
 * conditions report (upstream {@code evictionManager.IsUnderMemoryPressure} and friends). Implementations must be
 * thread-safe.
 */
public interface NodePressure {
    /** A node that reports no pressure: nothing watches its resources. */
    NodePressure NONE = new NodePressure() {
        @Override
        public boolean memoryPressure() {
            return false;
        }

        @Override
        public boolean diskPressure() {
            return false;
        }

        @Override
        public boolean pidPressure() {
            return false;
        }
    };

    boolean memoryPressure();

    boolean diskPressure();

    boolean pidPressure();
}
