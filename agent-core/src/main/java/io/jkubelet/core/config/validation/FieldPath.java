package io.jkubelet.core.config.validation;

/**
 * A path to a field of an object, printed as the apiserver prints it:
 * {@code spec.containers[0].resources.limits[cpu]}. Immutable.
 */
public final class FieldPath {

    private final FieldPath parent;
    private final String segment;

    private FieldPath(FieldPath parent, String segment) {
        this.parent = parent;
        this.segment = segment;
    }

    public static FieldPath root(String name) {
        return new FieldPath(null, name);
    }

    /** A field of this one: {@code child("a", "b")} is {@code .a.b}. */
    public FieldPath child(String name, String... more) {
        FieldPath path = new FieldPath(this, "." + name);
        for (String next : more) {
            path = new FieldPath(path, "." + next);
        }
        return path;
    }

    /** An element of this list: {@code [i]}. */
    public FieldPath index(int i) {
        return new FieldPath(this, "[" + i + "]");
    }

    /** An entry of this map: {@code [key]}. */
    public FieldPath key(String key) {
        return new FieldPath(this, "[" + key + "]");
    }

    @Override
    public String toString() {
        return parent == null ? segment : parent + segment;
    }
}
