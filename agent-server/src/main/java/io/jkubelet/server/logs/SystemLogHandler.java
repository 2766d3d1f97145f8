package io.jkubelet.server.logs;

import io.jkubelet.server.http.Handler;
import io.jkubelet.server.http.Request;
import io.jkubelet.server.http.Response;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * {@code GET /logs/} and {@code /logs/{logpath}}: the files and directories under the node's log directory
 * ({@code /var/log}), as upstream serves them with {@code http.StripPrefix("/logs/",
 * http.FileServer(http.Dir("/var/log/")))}: a directory answers Go's listing ({@code <pre>} of links, sorted,
 * directories with a trailing slash), a file answers its bytes with Content-Length, Last-Modified and a
 * content type from its extension or its first bytes; a directory asked without its trailing slash, or a
 * file with one, is redirected (301, relative Location); {@code If-Modified-Since} gets 304; a missing path
 * gets {@code 404 page not found}, an unreadable one {@code 403 Forbidden}.
 *
 * <p>The path is cleaned as Go's {@code path.Clean} does, so {@code ..} never climbs above the root. Unlike
 * Go's {@code http.Dir}, which follows symlinks wherever they point (the known "pod escape through a mounted
 * /var/log" hole), a path whose real location is outside the root answers 404 as if it did not exist: a pod
 * that can write under {@code /var/log} must not be able to read the rest of the node through the kubelet.
 * Thread-safe.
 */
public final class SystemLogHandler implements Handler {

    /** Upstream's {@code logsPath}. */
    public static final String PATH = "/logs/";

    private static final DateTimeFormatter HTTP_DATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

    /** Go's built-in {@code mime} table (used before sniffing), for the extensions it knows. */
    private static final Map<String, String> MIME_TYPES = Map.ofEntries(
            Map.entry(".avif", "image/avif"),
            Map.entry(".css", "text/css; charset=utf-8"),
            Map.entry(".gif", "image/gif"),
            Map.entry(".htm", "text/html; charset=utf-8"),
            Map.entry(".html", "text/html; charset=utf-8"),
            Map.entry(".jpeg", "image/jpeg"),
            Map.entry(".jpg", "image/jpeg"),
            Map.entry(".js", "text/javascript; charset=utf-8"),
            Map.entry(".json", "application/json"),
            Map.entry(".mjs", "text/javascript; charset=utf-8"),
            Map.entry(".pdf", "application/pdf"),
            Map.entry(".png", "image/png"),
            Map.entry(".svg", "image/svg+xml"),
            Map.entry(".wasm", "application/wasm"),
            Map.entry(".webp", "image/webp"),
            Map.entry(".xml", "text/xml; charset=utf-8"));

    private final Path root;

    /** Serves the files under {@code root} (the kubelet: {@code /var/log}). */
    public SystemLogHandler(Path root) {
        this.root = Objects.requireNonNull(root, "root").toAbsolutePath().normalize();
    }

    @Override
    public boolean mayBlock() {
        return true;
    }

    @Override
    public Response handle(Request request) throws IOException {
        String urlPath = request.path().startsWith(PATH) ? request.path().substring(PATH.length()) : "";
        if (!urlPath.startsWith("/")) {
            urlPath = "/" + urlPath;
        }
        if (urlPath.endsWith("/index.html")) {
            return localRedirect(request, "./");
        }
        String name = clean(urlPath);
        Path target;
        try {
            target = name.equals("/") ? root : root.resolve(name.substring(1));
        } catch (InvalidPathException e) {
            return Response.goError(500, "500 Internal Server Error");
        }
        BasicFileAttributes attrs;
        try {
            attrs = Files.readAttributes(target, BasicFileAttributes.class);
            if (!insideRoot(target)) {
                return notFound();
            }
        } catch (NoSuchFileException | NotDirectoryException e) {
            return notFound();
        } catch (AccessDeniedException e) {
            return forbidden();
        } catch (IOException e) {
            // ENOTDIR when a parent is a file comes as a plain FileSystemException: Go maps it to 404 too.
            return notFoundOr500(target);
        }
        if (attrs.isDirectory()) {
            if (!urlPath.endsWith("/")) {
                return localRedirect(request, baseName(urlPath) + "/");
            }
            Path index = target.resolve("index.html");
            if (Files.isRegularFile(index) && insideRoot(index)) {
                return serveFile(request, index, Files.readAttributes(index, BasicFileAttributes.class));
            }
            if (notModified(request, attrs.lastModifiedTime().toInstant())) {
                return notModifiedResponse();
            }
            return listing(target).withHeader("Last-Modified", HTTP_DATE.format(attrs.lastModifiedTime().toInstant()));
        }
        if (urlPath.endsWith("/")) {
            return localRedirect(request, "../" + baseName(urlPath));
        }
        return serveFile(request, target, attrs);
    }

    private Response serveFile(Request request, Path file, BasicFileAttributes attrs) throws IOException {
        Instant modified = attrs.lastModifiedTime().toInstant();
        if (notModified(request, modified)) {
            return notModifiedResponse();
        }
        long size = attrs.size();
        String contentType;
        try {
            contentType = contentType(file);
        } catch (AccessDeniedException e) {
            return forbidden();
        }
        return Response.streaming(200, contentType, out -> {
                    try (InputStream in = Files.newInputStream(file)) {
                        // Exactly the announced length, as Go's io.CopyN: a file that grew is cut there.
                        byte[] buf = new byte[64 * 1024];
                        long left = size;
                        while (left > 0) {
                            int n = in.read(buf, 0, (int) Math.min(buf.length, left));
                            if (n < 0) {
                                throw new IOException(file + " shrank while it was sent");
                            }
                            out.write(buf, 0, n);
                            left -= n;
                        }
                    }
                })
                .withHeader("Last-Modified", HTTP_DATE.format(modified))
                .withHeader("Content-Length", Long.toString(size));
    }

    /** Go's {@code dirList}: entries sorted by name, directories (not symlinks to them) with a slash. */
    private static Response listing(Path dir) throws IOException {
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                names.add(Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS) ? name + "/" : name);
            }
        } catch (AccessDeniedException e) {
            return forbidden();
        }
        // Go sorts by the bare name (before the slash is added), comparing bytes.
        names.sort((a, b) -> compareBytes(stripSlash(a), stripSlash(b)));
        StringBuilder html = new StringBuilder("<!doctype html>\n<meta name=\"viewport\" content=\"width=device-width\">\n<pre>\n");
        for (String name : names) {
            html.append("<a href=\"").append(hrefOf(name)).append("\">").append(escapeHtml(name)).append("</a>\n");
        }
        html.append("</pre>\n");
        return Response.of(200, "text/html; charset=utf-8", html.toString().getBytes(StandardCharsets.UTF_8));
    }

    private boolean insideRoot(Path p) throws IOException {
        Path real = p.toRealPath();
        return real.startsWith(root.toRealPath());
    }

    private Response notFoundOr500(Path target) {
        // A parent that is not a directory: Go's mapDirOpenError answers "not exist".
        Path parent = target.getParent();
        while (parent != null && parent.startsWith(root)) {
            if (Files.isRegularFile(parent)) {
                return notFound();
            }
            parent = parent.getParent();
        }
        return Response.goError(500, "500 Internal Server Error");
    }

    private static boolean notModified(Request request, Instant modified) {
        String since = request.header("If-Modified-Since");
        if (since == null || since.isEmpty() || !(request.method().equals("GET") || request.method().equals("HEAD"))) {
            return false;
        }
        try {
            Instant t = ZonedDateTime.parse(since, HTTP_DATE).toInstant();
            return !modified.truncatedTo(ChronoUnit.SECONDS).isAfter(t);
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    private static Response notModifiedResponse() {
        return Response.of(304, null, new byte[0]);
    }

    private static Response notFound() {
        return Response.goError(404, "404 page not found");
    }

    private static Response forbidden() {
        return Response.goError(403, "403 Forbidden");
    }

    /** Go's {@code localRedirect}: 301 to a relative location, the query kept, no body. */
    private static Response localRedirect(Request request, String location) {
        String target = request.rawQuery().isEmpty() ? location : location + "?" + request.rawQuery();
        return Response.of(301, null, new byte[0]).withHeader("Location", target);
    }

    private static String contentType(Path file) throws IOException {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        if (dot >= 0) {
            String type = MIME_TYPES.get(name.substring(dot).toLowerCase(Locale.ROOT));
            if (type != null) {
                return type;
            }
        }
        byte[] head;
        try (InputStream in = Files.newInputStream(file)) {
            head = in.readNBytes(512);
        }
        return sniff(head);
    }

    /** The text/binary part of Go's {@code DetectContentType}, which is what log files meet. */
    static String sniff(byte[] head) {
        int i = 0;
        while (i < head.length && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r' || head[i] == '\f')) {
            i++;
        }
        String start = new String(head, i, Math.min(head.length - i, 14), StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
        if (start.startsWith("<!doctype html") || start.startsWith("<html")) {
            return "text/html; charset=utf-8";
        }
        if (start.startsWith("<?xml")) {
            return "text/xml; charset=utf-8";
        }
        if (head.length >= 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b) {
            return "application/x-gzip";
        }
        for (byte b : head) {
            int c = b & 0xff;
            if (c <= 0x08 || c == 0x0b || (c >= 0x0e && c <= 0x1a) || (c >= 0x1c && c <= 0x1f)) {
                return "application/octet-stream";
            }
        }
        return "text/plain; charset=utf-8";
    }

    /** Go's {@code path.Clean} of a rooted path. */
    static String clean(String p) {
        Deque<String> parts = new ArrayDeque<>();
        for (String s : p.split("/")) {
            if (s.isEmpty() || s.equals(".")) {
                continue;
            }
            if (s.equals("..")) {
                parts.pollLast();
            } else {
                parts.addLast(s);
            }
        }
        return "/" + String.join("/", parts);
    }

    private static String baseName(String urlPath) {
        String trimmed = urlPath;
        while (trimmed.length() > 1 && trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        int slash = trimmed.lastIndexOf('/');
        String base = slash < 0 ? trimmed : trimmed.substring(slash + 1);
        return base.isEmpty() ? "/" : base;
    }

    /** Go's {@code url.URL{Path: name}.String()}: path escaping, and {@code ./} before a first segment with a colon. */
    static String hrefOf(String name) {
        StringBuilder b = new StringBuilder();
        for (byte raw : name.getBytes(StandardCharsets.UTF_8)) {
            int c = raw & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || "-_.~$&+,/:;=@".indexOf(c) >= 0) {
                b.append((char) c);
            } else {
                b.append('%').append(String.format("%02X", c));
            }
        }
        String escaped = b.toString();
        int slash = escaped.indexOf('/');
        String first = slash < 0 ? escaped : escaped.substring(0, slash);
        return first.contains(":") ? "./" + escaped : escaped;
    }

    /** Go's {@code htmlReplacer}. */
    static String escapeHtml(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&#34;").replace("'", "&#39;");
    }

    private static String stripSlash(String name) {
        return name.endsWith("/") ? name.substring(0, name.length() - 1) : name;
    }

    private static int compareBytes(String a, String b) {
        return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }
}
