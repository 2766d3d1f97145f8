package io.jkubelet.core.dns;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Upstream's {@code CheckLimitsForResolvConf}: whether the host's resolver file leaves room for the cluster's search
 * domains within the resolver's limits, so that an operator hears of it before pods lose search domains. The kubelet
 * asks every 30 s and says the answer as a {@code CheckLimitsForResolvConf} warning on the node.
 */
public final class ResolvConfLimits {
    /** The node event's reason. */
    public static final String REASON = "CheckLimitsForResolvConf";

    /** How often the kubelet checks the file, as upstream. */
    static final long CHECK_PERIOD_SECONDS = 30;

    private ResolvConfLimits() {}

    /**
     * Checks the file now and every 30 s on {@code timers}, telling {@code warning} what is wrong each time it does not
     * fit; nothing when {@code resolvConf} is empty (the node's pods get no host resolver file).
     */
    public static void checkPeriodically(String resolvConf, String clusterDomain, ScheduledExecutorService timers,
                                         Consumer<String> warning) {
        if (resolvConf.isEmpty()) {
            return;
        }
        timers.scheduleWithFixedDelay(() -> check(resolvConf, clusterDomain).ifPresent(warning), 0, CHECK_PERIOD_SECONDS,
                TimeUnit.SECONDS);
    }

    /**
     * @param resolvConf {@code resolvConf}, not empty
     * @param clusterDomain {@code clusterDomain}; when set, its three search domains come first and count
     * @return what is wrong with the file, or empty when it fits
     */
    public static Optional<String> check(String resolvConf, String clusterDomain) {
        ResolvConf host;
        try {
            host = ResolvConf.read(Path.of(resolvConf));
        } catch (NoSuchFileException e) {
            return Optional.of("open " + resolvConf + ": no such file or directory");
        } catch (IOException e) {
            return Optional.of(e.getMessage());
        }
        int domainLimit = DnsConfigurer.MAX_SEARCH_PATHS - (clusterDomain.isEmpty() ? 0 : 3);
        if (host.searches().size() > domainLimit) {
            return Optional.of("Resolv.conf file '" + resolvConf + "' contains search line consisting of more than "
                    + domainLimit + " domains!");
        }
        if (host.searches().stream().anyMatch(s -> s.length() > DnsConfigurer.MAX_SEARCH_DOMAIN_LENGTH)) {
            return Optional.of("Resolv.conf file \"" + resolvConf + "\" contains a search path which length is more "
                    + "than allowed " + DnsConfigurer.MAX_SEARCH_DOMAIN_LENGTH + " chars!");
        }
        if (String.join(" ", host.searches()).length() > DnsConfigurer.MAX_SEARCH_LIST_CHARS) {
            return Optional.of("Resolv.conf file '" + resolvConf + "' contains search line which length is more than "
                    + "allowed " + DnsConfigurer.MAX_SEARCH_LIST_CHARS + " chars!");
        }
        return Optional.empty();
    }
}
