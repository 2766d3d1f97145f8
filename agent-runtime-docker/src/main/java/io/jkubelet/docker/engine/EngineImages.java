package io.jkubelet.docker.engine;

import java.util.List;
import java.util.Map;

/** The {@code /images} calls. */
public final class EngineImages {
    private final DockerEngine engine;

    EngineImages(DockerEngine engine) {
        this.engine = engine;
    }

    /** {@code GET /images/{name}/json}; {@link EngineCallException.NotFound} when it is not here. */
    public ImageInspect inspect(String name) {
        return engine.get("/images/" + name + "/json", ImageInspect.class, "inspect image " + name);
    }

    /** {@code GET /images/json}; {@code all} also lists intermediate images. */
    public List<ImageSummary> list(boolean all, Map<String, List<String>> filters) {
        return List.of(engine.get("/images/json" + new Query().add("all", all).filters(filters),
                ImageSummary[].class, "list images"));
    }

    /**
     * {@code POST /images/create?fromImage=...}: the pull's progress as it comes. A pull that fails after it started
     * still answers 200; its failure is a {@link ProgressMessage#failed() failed} message.
     *
     * @param image a reference with its tag or digest, e.g. {@code 127.0.0.1:5000/jkubelet/busybox:1.0}
     * @param auth the registry's credentials, or null
     */
    public EngineStream<ProgressMessage> pull(String image, AuthConfig auth) {
        Map<String, String> headers = auth == null ? Map.of() : Map.of("X-Registry-Auth", auth.header());
        String path = "/images/create" + new Query().add("fromImage", image);
        return engine.stream(engine.request("POST", path, headers, null, null), ProgressMessage.class,
                "pull image " + image);
    }

    /**
     * {@code DELETE /images/{name}}: what was untagged and deleted.
     *
     * @throws EngineCallException.Conflict when a container uses it (without {@code force})
     */
    public List<Map<String, String>> remove(String name, boolean force, boolean noPrune) {
        @SuppressWarnings("unchecked")
        Map<String, String>[] items = engine.call(engine.request("DELETE", "/images/" + name + new Query()
                .add("force", force).add("noprune", noPrune), Map.of(), null, engine.requestTimeout()),
                Map[].class, "remove image " + name);
        return List.of(items);
    }
}
