package io.jkubelet.core.dns;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A resolver configuration file as upstream's {@code parseResolvConf} reads it: {@code nameserver} lines accumulate,
 * the last {@code search} line wins (trailing dots dropped, {@code .} left out), {@code options} merge by name with
 * the later one winning; comments and other lines are ignored.
 *
 * @param servers the nameservers, in order
 * @param searches the search domains
 * @param options resolver options such as {@code ndots:2}
 */
public record ResolvConf(List<String> servers, List<String> searches, List<String> options) {
    /** Upstream reads at most this much of the file (its {@code maxResolvConfLength}). */
    static final int MAX_LENGTH = 10 << 20;

    public ResolvConf {
        servers = List.copyOf(servers);
        searches = List.copyOf(searches);
        options = List.copyOf(options);
    }

    /**
     * @throws IOException when the file cannot be read, is larger than upstream reads, or has a {@code nameserver}
     *     line without an address
     */
    public static ResolvConf read(Path file) throws IOException {
        byte[] content;
        try (InputStream in = Files.newInputStream(file)) {
            content = in.readNBytes(MAX_LENGTH + 1);
        }
        if (content.length > MAX_LENGTH) {
            throw new IOException("the read limit is reached");
        }
        return parse(new String(content, StandardCharsets.UTF_8));
    }

    /** @throws IOException for a {@code nameserver} line without an address (upstream's "nameserver list is empty") */
    static ResolvConf parse(String content) throws IOException {
        List<String> servers = new ArrayList<>();
        List<String> searches = new ArrayList<>();
        Map<String, String> options = new LinkedHashMap<>();
        for (String line : content.split("\n", -1)) {
            String trimmed = line.strip();
            if (trimmed.startsWith("#") || trimmed.isEmpty()) {
                continue;
            }
            String[] fields = trimmed.split("\\s+");
            switch (fields[0]) {
                case "nameserver" -> {
                    if (fields.length < 2) {
                        throw new IOException("nameserver list is empty ");
                    }
                    servers.add(fields[1]);
                }
                case "search" -> {
                    // The same domain with and without its trailing dot counts once, so limits are not hit early.
                    searches.clear();
                    for (int i = 1; i < fields.length; i++) {
                        if (!fields[i].equals(".")) {
                            searches.add(fields[i].endsWith(".") ? fields[i].substring(0, fields[i].length() - 1)
                                    : fields[i]);
                        }
                    }
                }
                case "options" -> {
                    for (int i = 1; i < fields.length; i++) {
                        String name = fields[i].split(":", 2)[0];
                        options.remove(name);
                        options.put(name, fields[i]);
                    }
                }
                default -> { } // domain, sortlist, ...: not passed on, as upstream
            }
        }
        return new ResolvConf(servers, searches, List.copyOf(options.values()));
    }
}
