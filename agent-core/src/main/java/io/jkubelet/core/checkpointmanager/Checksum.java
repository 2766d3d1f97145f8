package io.jkubelet.core.checkpointmanager;

import java.nio.charset.StandardCharsets;

/**
 * The checksum upstream writes into its checkpoints (upstream {@code checkpointmanager/checksum}): FNV-32a of the data
 * as go-spew prints it with {@code %#v} ({@code hashutil.DeepHashObject}), kept as a Go {@code uint64}. The data's
 * printing is the checkpoint type's ({@link GoSpew}); a checksum only matches upstream's when that printing does.
 */
public final class Checksum {
    private static final int FNV32_OFFSET = 0x811c9dc5;
    private static final int FNV32_PRIME = 0x01000193;

    private Checksum() {}

    /** The checksum of data that go-spew prints as {@code spewed}. */
    public static long of(String spewed) {
        int hash = FNV32_OFFSET;
        for (byte b : spewed.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= FNV32_PRIME;
        }
        return Integer.toUnsignedLong(hash);
    }

    /**
     * Upstream {@code Checksum.Verify}.
     *
     * @throws CheckpointException.Corrupt when {@code written} is not the checksum of the data
     */
    public static void verify(long written, String spewed) throws CheckpointException.Corrupt {
        if (written != of(spewed)) {
            throw new CheckpointException.Corrupt();
        }
    }
}
