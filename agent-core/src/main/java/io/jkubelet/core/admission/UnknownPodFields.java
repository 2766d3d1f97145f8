package io.jkubelet.core.admission;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.config.validation.FieldPath;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The fields of a pod's spec that this kubelet's model does not know at all: a manifest's (or a newer apiserver's)
 * fields that decoding kept aside in fabric8's {@code additionalProperties}. Upstream's decoder drops such fields
 * silently; a field of a newer API may change what the pod may do, so this kubelet refuses the pod instead, naming it
 * (a misspelt field is named the same way). Pure and thread-safe.
 */
final class UnknownPodFields {
    private static final String MODEL_PACKAGE = Pod.class.getPackageName();
    private static final String ADDITIONAL_PROPERTIES = "additionalProperties";

    /**
     * Each model class's serialised fields: where it keeps the unknown ones first, then the known ones by name, so that
     * a pod's unknown fields are named in one order, each object's before those of the objects in it.
     */
    private static final ClassValue<List<Field>> FIELDS = new ClassValue<>() {
        @Override
        protected List<Field> computeValue(Class<?> type) {
            List<Field> fields = new ArrayList<>();
            for (Field f : type.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())
                        && (f.isAnnotationPresent(JsonProperty.class) || f.getName().equals(ADDITIONAL_PROPERTIES))) {
                    f.setAccessible(true);
                    fields.add(f);
                }
            }
            fields.sort(Comparator.comparing((Field f) -> !f.getName().equals(ADDITIONAL_PROPERTIES))
                    .thenComparing(f -> f.isAnnotationPresent(JsonProperty.class)
                            ? f.getAnnotation(JsonProperty.class).value() : ""));
            return List.copyOf(fields);
        }
    };

    private UnknownPodFields() {
    }

    static List<UnsupportedPodFields.Use> of(Pod pod) {
        List<UnsupportedPodFields.Use> uses = new ArrayList<>();
        if (pod.getSpec() != null) {
            walk(pod.getSpec(), FieldPath.root("spec"), uses);
        }
        return uses;
    }

    private static void walk(Object value, FieldPath path, List<UnsupportedPodFields.Use> uses) {
        if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                walk(list.get(i), path.index(i), uses);
            }
            return;
        }
        if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> walk(v, path.key(String.valueOf(k)), uses));
            return;
        }
        if (value == null || !isModel(value.getClass())) {
            return;
        }
        for (Field f : FIELDS.get(value.getClass())) {
            Object child;
            try {
                child = f.get(value);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException("cannot read " + f, e);
            }
            if (f.getName().equals(ADDITIONAL_PROPERTIES)) {
                if (child instanceof Map<?, ?> unknown) {
                    unknown.keySet().forEach(k -> uses.add(new UnsupportedPodFields.Use(path.child(String.valueOf(k)),
                            "a field this kubelet does not know")));
                }
            } else {
                walk(child, path.child(f.getAnnotation(JsonProperty.class).value()), uses);
            }
        }
    }

    /** A model object to look into: not a quantity or an int-or-string, which hold a value, not fields. */
    private static boolean isModel(Class<?> type) {
        return type.getPackageName().equals(MODEL_PACKAGE) && type != Quantity.class && type != IntOrString.class;
    }
}
