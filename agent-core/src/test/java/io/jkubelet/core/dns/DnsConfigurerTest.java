package io.jkubelet.core.dns;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodDNSConfigBuilder;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.runtime.DnsConfig;
import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A pod's resolver configuration by DNS policy, as upstream's dns.Configurer makes it. */
class DnsConfigurerTest {
    @TempDir Path dir;
    private Path resolvConf;
    private final LoggingEventRecorder events = new LoggingEventRecorder(new FakeClock());

    @BeforeEach
    void hostResolver() throws IOException {
        resolvConf = Files.writeString(dir.resolve("resolv.conf"), """
                # the host's
                nameserver 10.0.0.2
                nameserver 10.0.0.3
                search old.example
                search corp.example. lab.example .
                options ndots:2 timeout:1
                options ndots:3
                domain ignored.example
                """);
    }

    private DnsConfigurer configurer(String resolverConfig, List<String> clusterDns, String clusterDomain) {
        return new DnsConfigurer(resolverConfig, clusterDns, clusterDomain, List.of("192.168.1.10"), "node-a", events);
    }

    private DnsConfigurer cluster() {
        return configurer(resolvConf.toString(), List.of("10.96.0.10"), "cluster.local");
    }

    @Test
    void theHostsFileIsReadAsUpstreamReadsIt() throws IOException {
        ResolvConf host = ResolvConf.read(resolvConf);

        assertThat(host.servers()).containsExactly("10.0.0.2", "10.0.0.3");
        assertThat(host.searches()).containsExactly("corp.example", "lab.example");
        assertThat(host.options()).containsExactly("timeout:1", "ndots:3");
    }

    @Test
    void clusterFirstGetsTheClusterServersAndSearchesThenTheHostsSearches() throws IOException {
        DnsConfig dns = cluster().podDns(pod("ClusterFirst", false));

        assertThat(dns.servers()).containsExactly("10.96.0.10");
        assertThat(dns.searches()).containsExactly("prod.svc.cluster.local", "svc.cluster.local", "cluster.local",
                "corp.example", "lab.example");
        assertThat(dns.options()).containsExactly("ndots:5");
        assertThat(events.events()).isEmpty();
    }

    @Test
    void defaultAndClusterFirstOnTheHostNetworkGetTheHostsFileInFull() throws IOException {
        DnsConfig host = new DnsConfig(List.of("10.0.0.2", "10.0.0.3"), List.of("corp.example", "lab.example"),
                List.of("timeout:1", "ndots:3"));

        assertThat(cluster().podDns(pod("Default", false))).isEqualTo(host);
        assertThat(cluster().podDns(pod("ClusterFirst", true))).isEqualTo(host);
        assertThat(cluster().podDns(pod("ClusterFirstWithHostNet", true)).servers()).containsExactly("10.96.0.10");
    }

    @Test
    void anEmptyResolvConfGivesHostDnsPodsTheLocalResolverAndNoSearch() throws IOException {
        DnsConfig dns = configurer("", List.of("10.96.0.10"), "cluster.local").podDns(pod("Default", false));

        assertThat(dns).isEqualTo(new DnsConfig(List.of("127.0.0.1"), List.of("."), List.of()));
        DnsConfig v6 = new DnsConfigurer("", List.of(), "", List.of("fd00::10"), "node-a", events)
                .podDns(pod("Default", false));
        assertThat(v6.servers()).containsExactly("::1");
    }

    @Test
    void clusterFirstWithoutClusterDnsFallsBackToDefaultWithWarnings() throws IOException {
        DnsConfig dns = configurer(resolvConf.toString(), List.of(), "cluster.local").podDns(pod("ClusterFirst", false));

        assertThat(dns.servers()).containsExactly("10.0.0.2", "10.0.0.3");
        String message = "kubelet does not have ClusterDNS IP configured and cannot create Pod using \"ClusterFirst\" "
                + "policy. Falling back to \"Default\" policy.";
        assertThat(events.events()).extracting(e -> e.involvedObject().getKind() + " " + e.reason() + " " + e.message())
                .containsExactly("Node MissingClusterDNS " + message,
                        "Pod MissingClusterDNS pod: \"web_prod(u1)\". " + message);
    }

    @Test
    void noneGetsOnlyThePodsDnsConfigAndThePodsConfigIsAddedToAnyPolicy() throws IOException {
        Pod none = withDnsConfig(pod("None", false), List.of("1.1.1.1"), List.of("my.example"));
        Pod cluster = withDnsConfig(pod("ClusterFirst", false), List.of("1.1.1.1", "10.96.0.10"),
                List.of("my.example", "cluster.local"));

        assertThat(cluster().podDns(none)).isEqualTo(new DnsConfig(List.of("1.1.1.1"), List.of("my.example"),
                List.of("ndots:1", "edns0")));
        DnsConfig merged = cluster().podDns(cluster);
        assertThat(merged.servers()).containsExactly("10.96.0.10", "1.1.1.1");
        assertThat(merged.searches()).containsExactly("prod.svc.cluster.local", "svc.cluster.local", "cluster.local",
                "corp.example", "lab.example", "my.example");
        assertThat(merged.options()).containsExactly("ndots:1", "edns0");
    }

    @Test
    void searchesAndNameserversBeyondTheResolversLimitsAreCutWithAnEvent() throws IOException {
        List<String> many = IntStream.range(0, 40).mapToObj(i -> "d" + i + ".example").toList();
        Pod pod = withDnsConfig(pod("None", false), List.of("1.1.1.1", "1.1.1.2", "1.1.1.3", "1.1.1.4"), many);

        DnsConfig dns = cluster().podDns(pod);

        assertThat(dns.servers()).containsExactly("1.1.1.1", "1.1.1.2", "1.1.1.3");
        assertThat(dns.searches()).hasSize(32).containsExactlyElementsOf(many.subList(0, 32));
        assertThat(events.events()).extracting(e -> e.reason() + ": " + e.message()).containsExactly(
                "DNSConfigForming: Nameserver limits were exceeded, some nameservers have been omitted, the applied "
                        + "nameserver line is: 1.1.1.1 1.1.1.2 1.1.1.3",
                "DNSConfigForming: Search Line limits were exceeded, some search paths have been omitted, the applied "
                        + "search line is: " + String.join(" ", many.subList(0, 32)));
    }

    @Test
    void aSearchLineLongerThanTheResolverTakesLosesItsLastDomains() throws IOException {
        String longDomain = "a".repeat(60) + "." + "b".repeat(60) + "." + "c".repeat(60) + ".example";
        List<String> searches = IntStream.range(0, 12).mapToObj(i -> i + longDomain).toList();
        String tooLong = "x".repeat(254);

        DnsConfig dns = cluster().podDns(withDnsConfig(pod("None", false), List.of("1.1.1.1"),
                java.util.stream.Stream.concat(java.util.stream.Stream.of(tooLong), searches.stream()).toList()));

        assertThat(String.join(" ", dns.searches()).length()).isLessThanOrEqualTo(2048);
        assertThat(dns.searches()).doesNotContain(tooLong).containsExactlyElementsOf(searches.subList(0, 10));
    }

    @Test
    void anUnreadableResolvConfFailsNamingTheFile() {
        Path missing = dir.resolve("nope.conf");

        assertThatThrownBy(() -> configurer(missing.toString(), List.of(), "").podDns(pod("Default", false)))
                .isInstanceOf(IOException.class)
                .hasMessage("open " + missing + ": no such file or directory");
    }

    private static Pod pod(String policy, boolean hostNetwork) {
        return new PodBuilder().withNewMetadata().withName("web").withNamespace("prod").withUid("u1").endMetadata()
                .withNewSpec().withDnsPolicy(policy).withHostNetwork(hostNetwork).endSpec().build();
    }

    private static Pod withDnsConfig(Pod pod, List<String> servers, List<String> searches) {
        return new PodBuilder(pod).editSpec().withDnsConfig(new PodDNSConfigBuilder().withNameservers(servers)
                .withSearches(searches).addNewOption().withName("ndots").withValue("1").endOption()
                .addNewOption().withName("edns0").endOption().build()).endSpec().build();
    }
}
