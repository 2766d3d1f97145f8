package io.jkubelet.core.admission;

import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;

import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/** Taint and toleration matching (upstream {@code corev1.FindMatchingUntoleratedTaint}, {@code Toleration.ToleratesTaint}). */
public final class Taints {
    public static final String NO_EXECUTE = "NoExecute";

    private Taints() {}

    /** The first taint selected by {@code filter} that no toleration tolerates. */
    public static Optional<Taint> findUntolerated(List<Taint> taints, List<Toleration> tolerations, Predicate<Taint> filter) {
        List<Toleration> tols = tolerations == null ? List.of() : tolerations;
        for (Taint t : taints == null ? List.<Taint>of() : taints) {
            if (filter.test(t) && tols.stream().noneMatch(tol -> tolerates(tol, t))) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    /**
     * An empty effect tolerates every effect; an empty key tolerates every key (validation allows it only
     * with Exists); Exists ignores the value; Equal (or empty) needs the same value.
     */
    public static boolean tolerates(Toleration tol, Taint taint) {
        if (!isEmpty(tol.getEffect()) && !tol.getEffect().equals(taint.getEffect())) {
            return false;
        }
        if (!isEmpty(tol.getKey()) && !tol.getKey().equals(taint.getKey())) {
            return false;
        }
        String op = isEmpty(tol.getOperator()) ? "Equal" : tol.getOperator();
        return switch (op) {
            case "Exists" -> true;
            case "Equal" -> nullToEmpty(tol.getValue()).equals(nullToEmpty(taint.getValue()));
            default -> false;
        };
    }

    private static boolean isEmpty(String s) {
        return s == null || s.isEmpty();
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
