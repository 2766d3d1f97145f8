package io.jkubelet.server.dashboard;

import io.fabric8.kubernetes.api.model.Node;
import io.jkubelet.server.KubeletView;
import io.jkubelet.server.http.Handler;
import io.jkubelet.server.http.Request;
import io.jkubelet.server.http.Response;
import io.jkubelet.server.http.Router;
import io.jkubelet.server.json.KubeJson;
import tools.jackson.core.JacksonException;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The node's dashboard at {@code /dashboard/} (the page cAdvisor served on port 4194, rebuilt on the kubelet's own
 * JSON): the page, its script and style, and the uPlot charting library, all read once from the jar's resources, so
 * the page makes no request outside the kubelet. {@code /dashboard/api/node} is the node as the page shows it
 * (capacity, allocatable, conditions, runtime). Every other path below {@code /dashboard/} is 404; a method other
 * than GET or HEAD is 405.
 */
public final class DashboardHandlers {
    public static final String PATH = "/dashboard/";
    static final String NODE_PATH = PATH + "api/node";
    private static final String OWN = "io/jkubelet/server/dashboard/";
    static final String CONTENT_SECURITY_POLICY = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:";
    /** The WebJar's own record of its version, which names the directory its files are in. */
    private static final String UPLOT_POM = "META-INF/maven/org.webjars.npm/uplot/pom.properties";

    /** A file served as read from the jar. */
    private record Asset(String contentType, byte[] body) {}

    private final KubeletView view;
    private final Map<String, Asset> assets;

    public DashboardHandlers(KubeletView view) {
        this.view = view;
        String uplot = "META-INF/resources/webjars/uplot/" + webJarVersion() + "/dist/";
        Map<String, Asset> a = new LinkedHashMap<>();
        a.put(PATH, load(OWN + "index.html", "text/html; charset=utf-8"));
        a.put(PATH + "dashboard.js", load(OWN + "dashboard.js", "text/javascript; charset=utf-8"));
        a.put(PATH + "dashboard.css", load(OWN + "dashboard.css", "text/css; charset=utf-8"));
        a.put(PATH + "uPlot.iife.min.js", load(uplot + "uPlot.iife.min.js", "text/javascript; charset=utf-8"));
        a.put(PATH + "uPlot.min.css", load(uplot + "uPlot.min.css", "text/css; charset=utf-8"));
        this.assets = Map.copyOf(a);
    }

    /** Registers {@code /dashboard/} (a subtree: {@code /dashboard} redirects to it). */
    public void install(Router.Builder router) {
        router.any(PATH, Handler.blocking(this::serve));
    }

    private Response serve(Request request) {
        if (!request.method().equals("GET") && !request.method().equals("HEAD")) {
            return Response.text(405, "Method Not Allowed: the dashboard only answers GET").withHeader("Allow", "GET, HEAD");
        }
        if (request.path().equals(NODE_PATH)) {
            Optional<Node> node = view.node();
            if (node.isEmpty()) {
                return Response.text(404, "the node is not known yet");
            }
            try {
                return Response.json(KubeJson.mapper().writeValueAsBytes(node.get()));
            } catch (JacksonException e) {
                return Response.text(500, "cannot encode the node: " + e.getMessage());
            }
        }
        Asset asset = assets.get(request.path());
        if (asset == null) {
            return Response.text(404, "no such dashboard file: " + request.path());
        }
        // The page changes with the jar only; no-cache makes the browser check after an upgrade. The policy holds the
        // page to the kubelet's own origin, so that nothing it shows (pod names, log lines) can make it load anything
        // from elsewhere; uPlot sizes its elements with inline styles.
        return Response.of(200, asset.contentType(), asset.body()).withHeader("Cache-Control", "no-cache")
                .withHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    }

    private static String webJarVersion() {
        Properties p = new Properties();
        try (InputStream in = DashboardHandlers.class.getClassLoader().getResourceAsStream(UPLOT_POM)) {
            if (in == null) {
                throw new IllegalStateException("the uPlot WebJar (" + UPLOT_POM + ") is not in the jar");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + UPLOT_POM, e);
        }
        return p.getProperty("version");
    }

    private static Asset load(String resource, String contentType) {
        try (InputStream in = DashboardHandlers.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the dashboard's " + resource + " is not in the jar");
            }
            return new Asset(contentType, in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the dashboard's " + resource, e);
        }
    }
}
