package io.jkubelet.core.config;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.jkubelet.core.config.validation.FieldError;
import io.jkubelet.core.config.validation.PodValidator;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Turns a static pod manifest into pods the kubelet can run: decode (YAML or JSON), apply the API
 * defaults, apply the static pod defaults (UID, name, ...), validate; a manifest whose annotations are over their
 * limit is refused before it is decoded ({@link AnnotationBudget}). After {@code tryDecodeSinglePod}
 * and {@code tryDecodePodList} in {@code pkg/kubelet/config/common.go}. Stateless and thread-safe.
 */
public final class StaticPodDecoder {

    private StaticPodDecoder() {
    }

    /** Decodes {@code data} as one {@code v1} Pod. */
    public static DecodeResult<Pod> tryDecodeSinglePod(byte[] data, StaticPodDefaults defaults) {
        Optional<DecodeResult<Pod>> overBudget = annotationsOverBudget(data);
        if (overBudget.isPresent()) {
            return overBudget.get();
        }
        JsonNode tree;
        try {
            tree = PodCodec.readTree(data);
            checkKind(tree, "Pod");
        } catch (IllegalArgumentException e) {
            return new DecodeResult.NotParsed<>(e.getMessage());
        }
        Pod pod;
        try {
            pod = PodCodec.treeToValue(tree, Pod.class);
        } catch (IllegalArgumentException e) {
            return new DecodeResult.NotParsed<>(e.getMessage());
        }
        List<String> errors = defaultAndValidate(pod, defaults, "");
        return errors.isEmpty() ? new DecodeResult.Decoded<>(pod) : new DecodeResult.Invalid<>(errors);
    }

    /** Decodes {@code data} as a {@code v1} PodList; one unusable pod makes the whole list unusable. */
    public static DecodeResult<List<Pod>> tryDecodePodList(byte[] data, StaticPodDefaults defaults) {
        Optional<DecodeResult<List<Pod>>> overBudget = annotationsOverBudget(data);
        if (overBudget.isPresent()) {
            return overBudget.get();
        }
        JsonNode tree;
        PodList list;
        try {
            tree = PodCodec.readTree(data);
            checkKind(tree, "PodList");
            list = PodCodec.treeToValue(tree, PodList.class);
        } catch (IllegalArgumentException e) {
            return new DecodeResult.NotParsed<>(e.getMessage());
        }
        List<Pod> pods = list.getItems() == null ? List.of() : list.getItems();
        for (int i = 0; i < pods.size(); i++) {
            List<String> errors = defaultAndValidate(pods.get(i), defaults, "items[" + i + "].");
            if (!errors.isEmpty()) {
                return new DecodeResult.Invalid<>(errors);
            }
        }
        return new DecodeResult.Decoded<>(pods);
    }

    /** The refusal of a manifest whose annotations are over their limit, found before it is decoded. */
    private static <T> Optional<DecodeResult<T>> annotationsOverBudget(byte[] data) {
        return AnnotationBudget.exceeded(data, PodCodec.isJson(data)).map(error -> new DecodeResult.Invalid<>(List.of(error)));
    }

    private static List<String> defaultAndValidate(Pod pod, StaticPodDefaults defaults, String pathPrefix) {
        if (pod.getMetadata() == null || pod.getMetadata().getName() == null || pod.getMetadata().getName().isEmpty()) {
            return List.of(pathPrefix + "metadata.name: Required value: name is needed for the pod");
        }
        List<FieldError> fieldErrors;
        try {
            PodDefaults.apply(pod);
            defaults.apply(pod);
            fieldErrors = new ArrayList<>(PodValidator.validatePodCreate(pod));
            fieldErrors.addAll(PodValidator.validateStaticPodRestrictions(pod));
        } catch (RuntimeException e) {
            // A shape the defaulting and validation do not expect (the fuzzer found `containers: [null]`, which Go
            // would read as an empty container) is this manifest's error, never the source's.
            return List.of(pathPrefix + "the pod cannot be defaulted and validated: " + e);
        }
        return fieldErrors.stream().map(error -> pathPrefix + error).toList();
    }

    /**
     * The apiserver's decoder needs {@code apiVersion} and {@code kind}, and only core {@code v1}
     * has pods.
     */
    private static void checkKind(JsonNode tree, String kind) {
        if (!tree.isObject()) {
            throw new IllegalArgumentException("Object 'Kind' is missing: the manifest is not an object"
                    + (tree.isNull() ? " (empty document)" : ""));
        }
        String actualKind = text(tree, "kind");
        String apiVersion = text(tree, "apiVersion");
        if (actualKind.isEmpty()) {
            throw new IllegalArgumentException("Object 'Kind' is missing");
        }
        if (apiVersion.isEmpty()) {
            throw new IllegalArgumentException("Object 'apiVersion' is missing");
        }
        if (!actualKind.equals(kind) || !apiVersion.equals("v1")) {
            throw new IllegalArgumentException("expected kind " + kind + " in apiVersion v1, got kind " + actualKind
                    + " in apiVersion " + apiVersion);
        }
    }

    private static String text(JsonNode tree, String field) {
        JsonNode node = tree.get(field);
        return node == null || !node.isString() ? "" : node.asString();
    }
}
