package io.jkubelet.docker.engine;

import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The {@code /containers} calls. */
public final class EngineContainers {
    private final DockerEngine engine;

    EngineContainers(DockerEngine engine) {
        this.engine = engine;
    }

    /**
     * {@code POST /containers/create}.
     *
     * @throws EngineCallException.Conflict when the name is in use
     * @throws EngineCallException.NotFound when the image is not there
     */
    public IdResponse create(String name, ContainerConfig config) {
        return engine.post("/containers/create" + new Query().add("name", name), config, IdResponse.class,
                "create container " + name);
    }

    /**
     * {@code POST /containers/{id}/update}: the cgroup settings given (those left null are kept), as dockershim's
     * {@code UpdateContainerResources}.
     */
    public void update(String id, UpdateConfig config) {
        engine.post("/containers/" + id + "/update", config, UpdateResponse.class, "update container " + id);
    }

    /** The Engine API's {@code UpdateConfig}, the part of it the kubelet sets. */
    public record UpdateConfig(Long cpuShares, Long cpuPeriod, Long cpuQuota, Long memory, String cpusetCpus) {}

    /** What the engine answers an update: warnings, if any. */
    public record UpdateResponse(List<String> warnings) {}

    /** {@code POST /containers/{id}/start}; {@link EngineCallException.NotModified} when it already runs. */
    public void start(String id) {
        engine.send("POST", "/containers/" + id + "/start", null, null, "start container " + id);
    }

    /**
     * {@code POST /containers/{id}/stop}: SIGTERM (or the container's stop signal), SIGKILL after {@code grace}.
     * The call waits up to the grace period plus the request timeout; {@link EngineCallException.NotModified} when it
     * was not running.
     */
    public void stop(String id, Duration grace) {
        Duration wait = requestTimeout() == null ? null : grace.plus(requestTimeout());
        engine.send("POST", "/containers/" + id + "/stop" + new Query().add("t", grace.toSeconds()), null, wait,
                "stop container " + id);
    }

    /** {@code POST /containers/{id}/kill} with a signal such as {@code SIGKILL} or {@code 9}. */
    public void kill(String id, String signal) {
        engine.send("POST", "/containers/" + id + "/kill" + new Query().add("signal", signal), null, null,
                "kill container " + id);
    }

    /** {@code DELETE /containers/{id}}; a running one only with {@code force} (else a 409). */
    public void remove(String id, boolean force, boolean volumes) {
        engine.send("DELETE", "/containers/" + id + new Query().add("force", force).add("v", volumes), null, null,
                "remove container " + id);
    }

    /** {@code GET /containers/{id}/json}. */
    public ContainerInspect inspect(String id) {
        return engine.get("/containers/" + id + "/json", ContainerInspect.class, "inspect container " + id);
    }

    /**
     * {@code GET /containers/json}.
     *
     * @param all also containers that do not run
     * @param filters e.g. {@code label} to {@code ["io.kubernetes.docker.type=podsandbox"]}, {@code id}, {@code status}
     */
    public List<ContainerSummary> list(boolean all, Map<String, List<String>> filters) {
        ContainerSummary[] list = engine.get("/containers/json" + new Query().add("all", all).filters(filters),
                ContainerSummary[].class, "list containers");
        return List.of(list);
    }

    /** {@code POST /containers/{id}/resize}: the TTY's size. */
    public void resize(String id, int height, int width) {
        engine.send("POST", "/containers/" + id + "/resize" + new Query().add("h", height).add("w", width), null,
                null, "resize container " + id);
    }

    /**
     * {@code POST /containers/{id}/attach}, upgraded: the container's stdin (when asked) and its output from now on,
     * raw with a TTY, else in {@link LogFrames}.
     */
    public HijackedStream attach(String id, boolean stdin, boolean stdout, boolean stderr) {
        String path = "/containers/" + id + "/attach" + new Query().add("stream", true).add("stdin", stdin)
                .add("stdout", stdout).add("stderr", stderr);
        return engine.upgrade(engine.request("POST", path, Map.of(), null, null), "attach to container " + id);
    }

    /**
     * {@code GET /containers/{id}/logs}: raw bytes with a TTY, else {@link LogFrames}; a follow ends when the
     * container does or when the stream is closed.
     */
    public InputStream logs(String id, LogsOptions options) {
        String path = "/containers/" + id + "/logs" + new Query().add("stdout", options.stdout())
                .add("stderr", options.stderr()).add("follow", options.follow()).add("since", options.since())
                .add("tail", options.tail()).add("timestamps", options.timestamps());
        return engine.open(engine.request("GET", path, Map.of(), null, options.follow() ? null : requestTimeout()),
                "logs of container " + id).body();
    }

    /** {@code GET /containers/{id}/stats?stream=false&one-shot=true}: one sample without waiting for a second. */
    public ContainerStats stats(String id) {
        return engine.get("/containers/" + id + "/stats" + new Query().add("stream", false).add("one-shot", true),
                ContainerStats.class, "stats of container " + id);
    }

    private Duration requestTimeout() {
        return engine.requestTimeout();
    }

    /**
     * What {@link #logs} asks for.
     *
     * @param since seconds since the epoch (with a fraction), or null
     * @param tail the last lines to give, or null for all
     */
    public record LogsOptions(boolean stdout, boolean stderr, boolean follow, String since, Integer tail,
                              boolean timestamps) {
        public static LogsOptions all() {
            return new LogsOptions(true, true, false, null, null, false);
        }
    }
}
