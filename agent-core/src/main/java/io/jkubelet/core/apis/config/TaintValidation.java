package io.jkubelet.core.apis.config;

import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Upstream's rules for {@code registerWithTaints}: each taint must pass {@code CheckTaintValidation}
 * (pkg/util/taints: a qualified-name key, a label-value value, a known effect) and must not carry
 * {@code timeAdded}.
 */
final class TaintValidation {
    private static final Pattern QUALIFIED_NAME_PART = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
    private static final Pattern DNS_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final Set<String> TAINT_EFFECTS = Set.of("NoSchedule", "PreferNoSchedule", "NoExecute");

    private TaintValidation() {
    }

    static void validateRegisterWithTaints(KubeletConfiguration kc, List<String> errors) {
        if (kc.registerWithTaints() == null) {
            return;
        }
        for (Taint taint : kc.registerWithTaints()) {
            String problem = taintProblem(taint);
            if (problem != null) {
                errors.add("invalid taint: " + taint + " (" + problem + ")");
            }
            if (taint.timeAdded() != null) {
                errors.add(ConfigRules.PREFIX + "taint.TimeAdded is not nil");
            }
        }
    }

    private static String taintProblem(Taint taint) {
        String keyProblem = qualifiedNameProblem(taint.key());
        if (keyProblem != null) {
            return "invalid taint key: " + keyProblem;
        }
        if (!taint.value().isEmpty()
                && (taint.value().length() > 63 || !QUALIFIED_NAME_PART.matcher(taint.value()).matches())) {
            return "invalid taint value: must be no more than 63 characters of alphanumerics, '-', '_' or '.', "
                    + "starting and ending with an alphanumeric";
        }
        if (!taint.effect().isEmpty() && !TAINT_EFFECTS.contains(taint.effect())) {
            return "invalid taint effect: " + taint.effect()
                    + ", unsupported taint effect, supported values are NoSchedule, PreferNoSchedule, NoExecute";
        }
        return null;
    }

    private static String qualifiedNameProblem(String key) {
        String name = key;
        int slash = key.indexOf('/');
        if (slash >= 0) {
            String prefix = key.substring(0, slash);
            name = key.substring(slash + 1);
            if (prefix.isEmpty() || prefix.length() > 253 || !DNS_SUBDOMAIN.matcher(prefix).matches()) {
                return "prefix part must be a lowercase DNS subdomain";
            }
        }
        if (name.isEmpty() || name.length() > 63 || !QUALIFIED_NAME_PART.matcher(name).matches()) {
            return "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
                    + "with an alphanumeric character, at most 63 characters";
        }
        return null;
    }
}
