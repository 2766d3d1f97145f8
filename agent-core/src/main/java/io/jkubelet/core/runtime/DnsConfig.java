package io.jkubelet.core.runtime;

import java.util.List;

/** The resolv.conf the sandbox gets: nameservers, search domains and options. */
public record DnsConfig(List<String> servers, List<String> searches, List<String> options) {
    public DnsConfig {
        servers = List.copyOf(servers);
        searches = List.copyOf(searches);
        options = List.copyOf(options);
    }
}
