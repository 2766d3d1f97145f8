package io.jkubelet.core.admission;

/**
 * The answer of an admit handler (upstream {@code lifecycle.PodAdmitResult}).
 *
 * @param reason a brief CamelCase reason ({@code OutOfcpu}, {@code NodeAffinity}, ...); the rejected pod's
 *     status reason and the event's reason
 * @param message the human-readable reason, as upstream words it
 */
public record PodAdmitResult(boolean admit, String reason, String message) {

    public static final PodAdmitResult ADMIT = new PodAdmitResult(true, "", "");

    public static PodAdmitResult reject(String reason, String message) {
        return new PodAdmitResult(false, reason, message);
    }
}
