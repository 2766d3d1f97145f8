/**
 * The kubelet's configuration, {@code kubelet.config.k8s.io/v1beta1} {@code KubeletConfiguration}:
 * the model ({@link io.jkubelet.core.apis.config.KubeletConfiguration}), its v1.30 defaults, strict
 * loading of the {@code --config} file, validation, and Go-compatible JSON and durations.
 *
 * <p>The model's immutable implementations and builders are generated at compile time by Immutables,
 * in the style set here.
 */
@Value.Style(
        // Go's zero values: a primitive nobody set is 0 or false, a pointer (a boxed or nullable field) is null.
        validationMethod = Value.Style.ValidationMethod.NONE,
        // JDK collections, which keep insertion order and, like Go, allow null elements; never Guava's,
        // which is on the class path (grpc) but not a dependency of the model.
        jdkOnly = true,
        // Values are made with builders only: no with-copies, so a value has no method that yields a changed one.
        defaults = @Value.Immutable(copy = false),
        // A nested object is set through its parent's builder: builder.authenticationBuilder().anonymousBuilder().
        attributeBuilderDetection = true,
        // Callers see the abstract types and their Builder, never the generated classes.
        visibility = Value.Style.ImplementationVisibility.PACKAGE,
        overshadowImplementation = true,
        // The generated code uses only JDK and Jackson annotations, so that it needs no other jar at run time.
        allowedClasspathAnnotations = {Override.class})
package io.jkubelet.core.apis.config;

import org.immutables.value.Value;
