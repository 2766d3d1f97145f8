package io.jkubelet.core.config.validation;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The apiserver's checks of a container's resources: names, quantities, requests not above limits. */
final class ResourceValidation {
    private ResourceValidation() {}

    static void validateResources(ResourceRequirements resources, FieldPath path, List<FieldError> errors) {
        if (resources == null) {
            return;
        }
        Map<String, BigDecimal> limits = validateResourceList(FieldChecks.nullToEmpty(resources.getLimits()), path.child("limits"),
                errors);
        Map<String, BigDecimal> requests = validateResourceList(FieldChecks.nullToEmpty(resources.getRequests()),
                path.child("requests"), errors);
        for (Map.Entry<String, BigDecimal> request : requests.entrySet()) {
            BigDecimal limit = limits.get(request.getKey());
            if (limit != null && request.getValue().compareTo(limit) > 0) {
                errors.add(FieldError.invalid(path.child("requests").key(request.getKey()),
                        resources.getRequests().get(request.getKey()).toString(),
                        "must be less than or equal to " + request.getKey() + " limit of "
                                + resources.getLimits().get(request.getKey())));
            }
        }
    }

    /** Checks names and quantities; returns the values of the valid entries. */
    private static Map<String, BigDecimal> validateResourceList(Map<String, Quantity> list, FieldPath path,
            List<FieldError> errors) {
        Map<String, BigDecimal> values = new HashMap<>();
        for (Map.Entry<String, Quantity> entry : list.entrySet()) {
            String resource = entry.getKey();
            FieldPath entryPath = path.key(resource);
            boolean validName = true;
            for (String message : NameValidation.qualifiedName(resource)) {
                errors.add(FieldError.invalid(path, resource, message));
                validName = false;
            }
            if (validName && !resource.contains("/") && !PodValidator.STANDARD_CONTAINER_RESOURCES.contains(resource)
                    && !resource.startsWith("hugepages-")) {
                errors.add(FieldError.invalid(path, resource, "must be a standard resource for containers"));
            }
            String text = entry.getValue() == null ? "" : entry.getValue().toString();
            BigDecimal value;
            try {
                value = QuantityFormat.parse(text);
            } catch (IllegalArgumentException e) {
                errors.add(FieldError.invalid(entryPath, text, e.getMessage()));
                continue;
            }
            if (value.signum() < 0) {
                errors.add(FieldError.invalid(entryPath, text, "must be greater than or equal to 0"));
                continue;
            }
            values.put(resource, value);
        }
        return values;
    }
}
