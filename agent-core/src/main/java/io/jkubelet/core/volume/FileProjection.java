package io.jkubelet.core.volume;

/**
 * One file of a volume written by the {@link AtomicWriter}: its content, its permission bits (e.g. {@code 0644}) and
 * the user it is given to, null for the kubelet's own (upstream's {@code FsUser}: a projected token's reader).
 */
public record FileProjection(byte[] data, int mode, Long fsUser) {
    /** A file of the kubelet's user. */
    public FileProjection(byte[] data, int mode) {
        this(data, mode, null);
    }
}
