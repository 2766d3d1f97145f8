package io.jkubelet.core.dns;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodDNSConfig;
import io.fabric8.kubernetes.api.model.PodDNSConfigOption;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.References;
import io.jkubelet.core.podutil.PodSpecs;
import io.jkubelet.core.runtime.DnsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * A pod's resolver configuration (upstream {@code dns.Configurer.GetPodDNS}), given to the runtime in full:
 * <ul>
 *   <li>{@code ClusterFirst} (off the host network) and {@code ClusterFirstWithHostNet}: the cluster's DNS servers only,
 *   the cluster's search domains then the host's, {@code ndots:5}; without {@code clusterDNS}, a
 *   {@code MissingClusterDNS} warning and the {@code Default} policy;</li>
 *   <li>{@code Default} (and {@code ClusterFirst} on the host network): the host's file, {@code resolvConf}; when that
 *   is "" the pod gets the local machine's resolver ({@code 127.0.0.1}, or {@code ::1} on an IPv6 node) and search
 *   {@code .}, so that host lookups are off;</li>
 *   <li>{@code None}: nothing but the pod's {@code dnsConfig}.</li>
 * </ul>
 * The pod's {@code dnsConfig} is then added, and the result cut to the resolver's limits (3 nameservers, 32 search
 * domains of at most 253 characters, 2048 characters in all) with a {@code DNSConfigForming} warning.
 */
public final class DnsConfigurer {
    private static final Logger log = LoggerFactory.getLogger(DnsConfigurer.class);

    /** Upstream's {@code defaultDNSOptions} for cluster-first pods. */
    static final List<String> CLUSTER_OPTIONS = List.of("ndots:5");
    static final int MAX_NAMESERVERS = 3;
    static final int MAX_SEARCH_PATHS = 32;
    static final int MAX_SEARCH_LIST_CHARS = 2048;
    /** A longer search domain makes some resolvers (glibc 2.28) abort. */
    static final int MAX_SEARCH_DOMAIN_LENGTH = 253;

    private final String resolverConfig;
    private final List<String> clusterDns;
    private final String clusterDomain;
    private final List<String> nodeIps;
    private final String nodeName;
    private final EventRecorder recorder;

    /**
     * @param resolverConfig {@code resolvConf}: the host's resolver file; "" gives host-DNS pods no host resolver
     * @param clusterDns {@code clusterDNS}
     * @param clusterDomain {@code clusterDomain}; "" adds no cluster search domains
     * @param nodeIps the node's IPs, whose families choose the local resolver when {@code resolvConf} is ""
     */
    public DnsConfigurer(String resolverConfig, List<String> clusterDns, String clusterDomain, List<String> nodeIps,
                         String nodeName, EventRecorder recorder) {
        this.resolverConfig = resolverConfig;
        this.clusterDns = List.copyOf(clusterDns);
        this.clusterDomain = clusterDomain;
        this.nodeIps = List.copyOf(nodeIps);
        this.nodeName = nodeName;
        this.recorder = recorder;
    }

    /**
     * @throws IOException when {@code resolvConf} cannot be read or parsed (the pod's sandbox cannot be made then, as
     *     upstream's), naming the file
     */
    public DnsConfig podDns(Pod pod) throws IOException {
        ResolvConf host = hostDns();
        List<String> servers = new ArrayList<>(host.servers());
        List<String> searches = new ArrayList<>(host.searches());
        List<String> options = new ArrayList<>(host.options());
        switch (policy(pod)) {
            case NONE -> {
                servers.clear();
                searches.clear();
                options.clear();
            }
            case CLUSTER -> {
                if (!clusterDns.isEmpty()) {
                    servers = new ArrayList<>(clusterDns);
                    searches = clusterSearches(pod, searches);
                    options = new ArrayList<>(CLUSTER_OPTIONS);
                } else {
                    missingClusterDns(pod);
                    hostResolverOff(servers, searches);
                }
            }
            case HOST -> hostResolverOff(servers, searches);
        }
        PodDNSConfig extra = pod.getSpec().getDnsConfig();
        if (extra != null) {
            servers = distinct(servers, extra.getNameservers());
            searches = distinct(searches, extra.getSearches());
            options = mergeOptions(options, extra.getOptions());
        }
        return new DnsConfig(fitNameservers(servers, pod), fitSearches(searches, pod), options);
    }

    private enum Policy { NONE, CLUSTER, HOST }

    /** Upstream's {@code getPodDNSType}; an unknown policy is taken as ClusterFirst, as upstream falls back. */
    private static Policy policy(Pod pod) {
        String policy = pod.getSpec().getDnsPolicy() == null ? "ClusterFirst" : pod.getSpec().getDnsPolicy();
        return switch (policy) {
            case "None" -> Policy.NONE;
            case "ClusterFirstWithHostNet" -> Policy.CLUSTER;
            case "ClusterFirst" -> PodSpecs.hostNetwork(pod) ? Policy.HOST : Policy.CLUSTER;
            case "Default" -> Policy.HOST;
            default -> {
                log.error("Failed to get DNS type for pod {}: invalid DNSPolicy={}. Falling back to DNSClusterFirst "
                        + "policy.", PodSpecs.format(pod), policy);
                yield Policy.CLUSTER;
            }
        };
    }

    private ResolvConf hostDns() throws IOException {
        if (resolverConfig.isEmpty()) {
            return new ResolvConf(List.of(), List.of(), List.of());
        }
        try {
            return ResolvConf.read(Path.of(resolverConfig));
        } catch (NoSuchFileException e) {
            throw new IOException("open " + resolverConfig + ": no such file or directory", e);
        } catch (IOException e) {
            throw new IOException("Encountered error while parsing resolv conf file " + resolverConfig + ". Error: "
                    + e.getMessage(), e);
        }
    }

    /**
     * With {@code resolvConf} "", the runtime would otherwise use its own default (Docker copies the host's file):
     * the local machine's resolver and an empty search path keep host lookups off, as upstream says.
     */
    private void hostResolverOff(List<String> servers, List<String> searches) {
        if (!resolverConfig.isEmpty()) {
            return;
        }
        for (String ip : nodeIps) {
            servers.add(ip.contains(":") ? "::1" : "127.0.0.1");
        }
        if (servers.isEmpty()) {
            servers.add("127.0.0.1");
        }
        searches.clear();
        searches.add(".");
    }

    /** The cluster's search domains, then the host's, each once (upstream's {@code generateSearchesForDNSClusterFirst}). */
    private List<String> clusterSearches(Pod pod, List<String> hostSearches) {
        if (clusterDomain.isEmpty()) {
            return hostSearches;
        }
        String namespace = pod.getMetadata().getNamespace();
        return distinct(List.of(namespace + ".svc." + clusterDomain, "svc." + clusterDomain, clusterDomain),
                hostSearches);
    }

    private void missingClusterDns(Pod pod) {
        String message = "kubelet does not have ClusterDNS IP configured and cannot create Pod using \"ClusterFirst\" "
                + "policy. Falling back to \"Default\" policy.";
        recorder.event(References.node(nodeName), EventRecorder.WARNING, "MissingClusterDNS", message);
        recorder.event(References.pod(pod), EventRecorder.WARNING, "MissingClusterDNS",
                "pod: \"" + PodSpecs.format(pod) + "\". " + message);
    }

    private List<String> fitNameservers(List<String> servers, Pod pod) {
        if (servers.size() <= MAX_NAMESERVERS) {
            return servers;
        }
        List<String> kept = servers.subList(0, MAX_NAMESERVERS);
        forming(pod, "Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver "
                + "line is: " + String.join(" ", kept));
        return kept;
    }

    /** Upstream's {@code formDNSSearchFitsLimits}: at most 32 domains, none too long, 2048 characters in all. */
    private List<String> fitSearches(List<String> searches, Pod pod) {
        boolean exceeded = searches.size() > MAX_SEARCH_PATHS;
        List<String> kept = new ArrayList<>();
        for (String search : searches.subList(0, Math.min(MAX_SEARCH_PATHS, searches.size()))) {
            if (search.length() > MAX_SEARCH_DOMAIN_LENGTH) {
                exceeded = true;
            } else {
                kept.add(search);
            }
        }
        int length = String.join(" ", kept).length();
        while (length > MAX_SEARCH_LIST_CHARS) {
            length -= kept.removeLast().length() + 1;
            exceeded = true;
        }
        if (exceeded) {
            forming(pod, "Search Line limits were exceeded, some search paths have been omitted, the applied search "
                    + "line is: " + String.join(" ", kept));
        }
        return kept;
    }

    private void forming(Pod pod, String message) {
        recorder.event(References.pod(pod), EventRecorder.WARNING, "DNSConfigForming", message);
        log.error("{} (pod {})", message, PodSpecs.format(pod));
    }

    private static List<String> distinct(List<String> first, List<String> then) {
        LinkedHashSet<String> all = new LinkedHashSet<>(first);
        if (then != null) {
            all.addAll(then);
        }
        return new ArrayList<>(all);
    }

    /** Upstream's {@code mergeDNSOptions}: by name, the pod's over the base's. */
    private static List<String> mergeOptions(List<String> base, List<PodDNSConfigOption> podOptions) {
        Map<String, String> byName = new LinkedHashMap<>();
        for (String option : base) {
            int colon = option.indexOf(':');
            byName.put(colon < 0 ? option : option.substring(0, colon), colon < 0 ? "" : option.substring(colon + 1));
        }
        if (podOptions != null) {
            for (PodDNSConfigOption option : podOptions) {
                byName.put(option.getName(), option.getValue() == null ? "" : option.getValue());
            }
        }
        List<String> merged = new ArrayList<>();
        byName.forEach((name, value) -> merged.add(value.isEmpty() ? name : name + ":" + value));
        return merged;
    }
}
