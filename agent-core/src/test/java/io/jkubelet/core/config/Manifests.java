package io.jkubelet.core.config;

import java.nio.charset.StandardCharsets;

/** Manifests the tests share. */
final class Manifests {

    static final String NODE = "Node-1";

    static final String WEB_YAML = """
            apiVersion: v1
            kind: Pod
            metadata:
              name: web
              labels:
                app: web
            spec:
              containers:
              - name: nginx
                image: nginx:1.25
                ports:
                - containerPort: 80
            """;

    static final String WEB_JSON = """
            {"apiVersion": "v1", "kind": "Pod",
             "metadata": {"name": "web", "labels": {"app": "web"}},
             "spec": {"containers": [{"name": "nginx", "image": "nginx:1.25", "ports": [{"containerPort": 80}]}]}}
            """;

    private Manifests() {
    }

    /** A minimal valid pod manifest named {@code name} running {@code image}. */
    static String pod(String name, String image) {
        return """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: %s
                spec:
                  containers:
                  - name: main
                    image: %s
                """.formatted(name, image);
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
