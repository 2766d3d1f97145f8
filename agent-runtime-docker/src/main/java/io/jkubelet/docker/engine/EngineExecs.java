package io.jkubelet.docker.engine;

import java.util.Map;

/** The exec calls: {@code /containers/{id}/exec} and {@code /exec/{id}/...}. */
public final class EngineExecs {
    private final DockerEngine engine;

    EngineExecs(DockerEngine engine) {
        this.engine = engine;
    }

    /** {@code POST /containers/{id}/exec}: the exec's id; {@link EngineCallException.Conflict} when it is not running. */
    public IdResponse create(String containerId, ExecConfig config) {
        return engine.post("/containers/" + containerId + "/exec", config, IdResponse.class,
                "create exec in container " + containerId);
    }

    /** {@code POST /exec/{id}/start} detached: the process runs on its own; {@link #inspect} tells its end. */
    public void startDetached(String execId) {
        engine.send("POST", "/exec/" + execId + "/start", new StartConfig(true, false), null, "start exec " + execId);
    }

    /** {@code POST /exec/{id}/start}, upgraded: the process's stdin and output. */
    public HijackedStream start(String execId, boolean tty) {
        return engine.upgrade(engine.request("POST", "/exec/" + execId + "/start", Map.of(),
                new StartConfig(false, tty), null), "start exec " + execId);
    }

    /** {@code GET /exec/{id}/json}. */
    public ExecInspect inspect(String execId) {
        return engine.get("/exec/" + execId + "/json", ExecInspect.class, "inspect exec " + execId);
    }

    /** {@code POST /exec/{id}/resize}: the exec's TTY size. */
    public void resize(String execId, int height, int width) {
        engine.send("POST", "/exec/" + execId + "/resize" + new Query().add("h", height).add("w", width), null, null,
                "resize exec " + execId);
    }

    /** The body of an exec's start. */
    record StartConfig(Boolean detach, Boolean tty) {}
}
