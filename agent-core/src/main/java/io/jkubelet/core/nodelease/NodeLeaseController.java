package io.jkubelet.core.nodelease;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.jkubelet.core.apierrors.ApiException;
import io.jkubelet.core.nodestatus.NodeStatusDiff;
import io.jkubelet.core.nodestatus.Sleeper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Keeps the node's Lease ({@code kube-node-lease/<node>}) renewed (upstream lease controller): every
 * {@code renewInterval} (0.25 × {@code nodeLeaseDurationSeconds}, with 4% jitter) the last known lease is
 * updated with a new {@code renewTime}; when that fails, the lease is read or created with back-off (200ms
 * doubling to 7s) and the update retried up to 5 times. The lease carries an owner reference to the Node
 * once the Node exists, so that deleting the Node deletes its lease. Errors are logged, never thrown out of
 * the loop.
 */
public final class NodeLeaseController implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(NodeLeaseController.class);
    public static final String LEASE_NAMESPACE = "kube-node-lease";
    /** Upstream {@code nodeLeaseRenewIntervalFraction}. */
    public static final double RENEW_INTERVAL_FRACTION = 0.25;
    static final int MAX_UPDATE_RETRIES = 5;
    static final Duration INITIAL_BACKOFF = Duration.ofMillis(200);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(7);
    static final double JITTER = 0.04;

    private final LeaseClient client;
    private final String nodeName;
    private final int leaseDurationSeconds;
    private final Clock clock;
    private final Sleeper sleeper;
    private volatile Lease latestLease;
    private volatile Thread loop;

    public NodeLeaseController(LeaseClient client, String nodeName, int leaseDurationSeconds, Clock clock,
            Sleeper sleeper) {
        this.client = client;
        this.nodeName = nodeName;
        this.leaseDurationSeconds = leaseDurationSeconds;
        this.clock = clock;
        this.sleeper = sleeper;
    }

    public Duration renewInterval() {
        return Duration.ofMillis((long) (leaseDurationSeconds * 1000L * RENEW_INTERVAL_FRACTION));
    }

    public void start() {
        loop = Thread.ofPlatform().daemon().name("node-lease").start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    sync();
                    long jitter = (long) (renewInterval().toMillis() * JITTER * ThreadLocalRandom.current().nextDouble());
                    sleeper.sleep(renewInterval().plusMillis(jitter));
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    log.error("Node lease sync failed: {}", e.toString());
                }
            }
        });
    }

    /** One renewal. */
    public void sync() throws InterruptedException {
        Lease latest = latestLease;
        if (latest != null) {
            try {
                latestLease = update(newLease(latest));
                return;
            } catch (ApiException e) {
                log.info("failed to update lease using latest lease, fallback to ensure lease: {}", e.getMessage());
            }
        }
        EnsuredLease ensured = backoffEnsureLease();
        if (ensured.created()) {
            // a fresh lease already carries this renewal
            latestLease = ensured.lease();
            return;
        }
        retryUpdateLease(ensured.lease());
    }

    /** The last lease written or read; null before the first success. */
    public Lease latestLease() {
        return latestLease;
    }

    private record EnsuredLease(Lease lease, boolean created) {}

    private EnsuredLease backoffEnsureLease() throws InterruptedException {
        Duration sleep = INITIAL_BACKOFF.dividedBy(2); // doubled before the first wait
        while (true) {
            try {
                return ensureLease();
            } catch (ApiException e) {
                sleep = sleep.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : sleep.multipliedBy(2);
                log.error("failed to ensure lease exists, will retry in {}: {}", sleep, e.getMessage());
                sleeper.sleep(sleep);
            }
        }
    }

    private EnsuredLease ensureLease() {
        Lease lease = client.getLease(LEASE_NAMESPACE, nodeName);
        if (lease == null) {
            Lease created = client.createLease(newLease(null));
            return new EnsuredLease(created, true);
        }
        return new EnsuredLease(lease, false);
    }

    private void retryUpdateLease(Lease base) throws InterruptedException {
        for (int i = 0; i < MAX_UPDATE_RETRIES; i++) {
            try {
                latestLease = update(newLease(base));
                return;
            } catch (ApiException e) {
                log.error("failed to update lease: {}", e.getMessage());
                if (e.code() == 409) {
                    base = backoffEnsureLease().lease();
                }
            }
        }
        log.error("failed {} attempts to update lease", MAX_UPDATE_RETRIES);
    }

    private Lease update(Lease lease) {
        return client.updateLease(lease);
    }

    /** A copy of {@code base} (or a new lease) renewed now, with the node as owner when it is known. */
    Lease newLease(Lease base) {
        Lease lease = base == null
                ? new LeaseBuilder().withNewMetadata().withName(nodeName).withNamespace(LEASE_NAMESPACE).endMetadata()
                        .withNewSpec().withHolderIdentity(nodeName).withLeaseDurationSeconds(leaseDurationSeconds)
                        .endSpec().build()
                : NodeStatusDiff.copy(base, Lease.class);
        // MicroTime: microsecond precision
        lease.getSpec().setRenewTime(ZonedDateTime.ofInstant(clock.instant().truncatedTo(ChronoUnit.MICROS), ZoneOffset.UTC));
        if (lease.getMetadata().getOwnerReferences() == null || lease.getMetadata().getOwnerReferences().isEmpty()) {
            setNodeOwner(lease);
        }
        return lease;
    }

    /** Upstream {@code setNodeOwnerFunc}: the Node as owner, once it exists. */
    private void setNodeOwner(Lease lease) {
        Node node;
        try {
            node = client.getNode(nodeName);
        } catch (ApiException e) {
            log.error("failed to get node {} when trying to set owner ref to the node lease: {}", nodeName, e.getMessage());
            return;
        }
        if (node != null && node.getMetadata().getUid() != null) {
            lease.getMetadata().setOwnerReferences(List.of(new OwnerReferenceBuilder().withApiVersion("v1")
                    .withKind("Node").withName(nodeName).withUid(node.getMetadata().getUid()).build()));
        }
    }

    @Override
    public void close() {
        Thread t = loop;
        if (t != null) {
            t.interrupt();
        }
    }
}
