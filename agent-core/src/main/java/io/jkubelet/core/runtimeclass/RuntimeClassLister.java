package io.jkubelet.core.runtimeclass;

import io.fabric8.kubernetes.api.model.node.v1.RuntimeClass;

import java.util.Optional;

/**
 * The cluster's RuntimeClasses ({@code node.k8s.io/v1}) as the kubelet keeps them: upstream's RuntimeClass lister, an
 * informer's cache, which the Node authorizer lets every node list and watch. Thread-safe; a lookup never calls the
 * apiserver.
 */
public interface RuntimeClassLister {
    /** The RuntimeClass of that name as last listed or watched; empty when there is none (or none listed yet). */
    Optional<RuntimeClass> get(String name);
}
