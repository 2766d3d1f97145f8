package io.jkubelet.cmd.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The shaded {@code jkubelet.jar} holds only what the agent can load. The JDK keeps a jar's whole central directory
 * in the heap of the process that runs it (the {@code ZipFile}'s copy of it and an index, about 130 bytes an entry),
 * so every entry costs a running agent memory whether or not its class is ever loaded (issue 14; docs/benchmarks.md,
 * "Where an idle agent's memory goes").
 *
 * <p>The families agent-cmd/pom.xml's shade filters leave out are read from the pom itself, and each must be both
 * absent and unnamed: no class left in the jar may name a class in it, in a descriptor or as a string for reflection.
 * A dependency upgrade that starts using one fails here rather than with a {@code NoClassDefFoundError} on a node.
 */
class JarContentsIT {
    /**
     * 27,729 entries when this was written (35,382 before grpc-netty-shaded, Micrometer and the unreachable families
     * left), plus room for the agent's own growth.
     */
    private static final int MAX_ENTRIES = 29_500;

    /** Left out by dependency changes rather than filters: each was a whole second copy or an unused library. */
    private static final List<String> GONE = List.of(
            "io/grpc/netty/shaded/", // grpc-netty-shaded's relocated Netty: gRPC runs on the servers' Netty
            "META-INF/native/libio_grpc_netty_shaded", // its native epoll and tcnative libraries
            "io/micrometer/", // Micrometer's Prometheus registry, which nothing used: the client is used directly
            "org/HdrHistogram/",
            "io/prometheus/metrics/shaded/"); // the client's protobuf exposition format and its protobuf-java

    /** Strings that begin like a left-out family's class but are not classes (system property names). */
    private static final Set<String> NOT_CLASSES = Set.of("org.bouncycastle.mime.max_depth");

    /** A left-out tree in the pom: {@code <exclude>org/bouncycastle/oer/**</exclude>}. */
    private static final Pattern TREE = Pattern.compile("<exclude>([A-Za-z][A-Za-z0-9_./-]*/)\\*\\*</exclude>");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_$]+(?:[/.][A-Za-z0-9_$]+)*");

    private static final List<String> entries = new ArrayList<>();
    private static final List<String> trees = new ArrayList<>();

    @BeforeAll
    static void readJarAndPom() throws IOException {
        try (ZipFile jar = new ZipFile(Agent.jar())) {
            jar.stream().map(ZipEntry::getName).forEach(entries::add);
        }
        Matcher m = TREE.matcher(Files.readString(Path.of("pom.xml")));
        while (m.find()) {
            if (!m.group(1).startsWith("META-INF/versions/")) { // one library's older copies: checked on their own
                trees.add(m.group(1));
            }
        }
    }

    @Test
    void theJarStaysUnderItsEntryBound() {
        assertThat(entries.size())
                .as("jkubelet.jar has %d entries, more than %d. Each costs a running agent about 130 bytes of heap "
                        + "(the JDK keeps the central directory there). See which dependency brought them "
                        + "(unzip -Z1 agent-cmd/target/jkubelet.jar | awk -F/ '{print $1\"/\"$2\"/\"$3}' | sort | uniq -c "
                        + "| sort -rn) and leave out what the agent can never load (agent-cmd/pom.xml's shade filters; "
                        + "bench/jar-reachability shows what nothing reaches), or raise the bound here saying why",
                        entries.size(), MAX_ENTRIES)
                .isLessThanOrEqualTo(MAX_ENTRIES);
    }

    @Test
    void theFamiliesLeftOutStayOut() {
        assertThat(trees).as("the shade filters of agent-cmd/pom.xml").contains(
                "org/bouncycastle/oer/", "com/google/api/", "META-INF/native-image/");
        List<String> back = new ArrayList<>();
        for (String entry : entries) {
            for (String tree : concat(trees, GONE)) {
                if (entry.startsWith(tree) || entry.startsWith("META-INF/versions/") && entry.contains("/" + tree)) {
                    back.add(entry);
                }
            }
        }
        assertThat(back).as("entries the agent never loads are back in the jar (a dependency moved them or the shade "
                + "filters of agent-cmd/pom.xml changed; see the comments there)").isEmpty();
        assertThat(entries).as("the older copies of junixsocket's multi-release classes (Java 21's is loaded)")
                .noneMatch(e -> e.matches("META-INF/versions/(9|14|15|16|20)/org/newsclub/.+"));
        assertThat(entries).as("Maven's poms (the pom.properties stay)").noneMatch(e -> e.matches("META-INF/maven/.+/pom\\.xml"));
    }

    @Test
    void noClassLeftNamesALeftOutClass() throws IOException {
        List<String> packages = trees.stream().filter(t -> t.startsWith("org/") || t.startsWith("com/")).toList();
        Set<String> roots = new TreeSet<>();
        packages.forEach(p -> roots.add(p.substring(0, p.indexOf('/', p.indexOf('/') + 1))));
        Set<String> named = new TreeSet<>();
        try (ZipFile jar = new ZipFile(Agent.jar())) {
            for (ZipEntry e : Collections.list(jar.entries())) {
                if (!e.getName().endsWith(".class")) {
                    continue;
                }
                String text = new String(jar.getInputStream(e).readAllBytes(), StandardCharsets.ISO_8859_1);
                for (String root : roots) {
                    for (String form : List.of(root, root.replace('/', '.'))) {
                        for (int i = text.indexOf(form); i >= 0; i = text.indexOf(form, i + 1)) {
                            Matcher m = NAME.matcher(text).region(i, text.length());
                            String name = m.lookingAt() ? m.group() : form;
                            String slashed = name.replace('.', '/');
                            if (!NOT_CLASSES.contains(name) && packages.stream().anyMatch(slashed::startsWith)) {
                                named.add(e.getName() + " names " + name);
                            }
                        }
                    }
                }
            }
        }
        assertThat(named).as("classes in the jar name classes the shade filters of agent-cmd/pom.xml leave out: "
                + "they would fail with NoClassDefFoundError; keep the family (drop its <exclude>)").isEmpty();
    }

    @Test
    void whatTheAgentLoadsIsThere() {
        assertThat(entries).as("the entries the agent needs").contains(
                "io/jkubelet/cadvisor/CgroupReader.class", // the agent-cadvisor module (cgroups, /proc)
                "META-INF/native/libnetty_transport_native_epoll_x86_64.so", // the CRI endpoint's unix socket
                "io/grpc/netty/NettyChannelBuilder.class",
                "com/google/rpc/Status.class", // grpc-protobuf's StatusProto
                "org/bouncycastle/pkcs/PKCS10CertificationRequest.class", // the TLS bootstrap's CSR
                "org/bouncycastle/openssl/PEMParser.class",
                "org/bouncycastle/jce/provider/BouncyCastleProvider.class", // installed by Netty's PEM reader
                "META-INF/versions/21/org/newsclub/net/unix/AFSocket.class", // dbus-java's transport
                "META-INF/maven/org.webjars.npm/uplot/pom.properties"); // the dashboard's uPlot version
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
