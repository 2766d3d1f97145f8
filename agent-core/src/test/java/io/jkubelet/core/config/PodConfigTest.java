package io.jkubelet.core.config;

import static io.jkubelet.core.config.PodOperation.ADD;
import static io.jkubelet.core.config.PodOperation.DELETE;
import static io.jkubelet.core.config.PodOperation.RECONCILE;
import static io.jkubelet.core.config.PodOperation.REMOVE;
import static io.jkubelet.core.config.PodOperation.SET;
import static io.jkubelet.core.config.PodOperation.UPDATE;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PodConfigTest {

    private static final Instant T0 = Instant.parse("2024-05-01T10:00:00.5Z");

    private final List<String> events = new ArrayList<>();
    private final MutableClock clock = new MutableClock(T0);
    private PodConfig config;
    private PodUpdateSink file;
    private PodUpdateSink api;

    @BeforeEach
    void setUp() {
        config = new PodConfig((pod, reason, message) -> events.add(reason + ": " + message), clock);
        file = config.channel(PodSources.FILE);
        api = config.channel(PodSources.API);
    }

    private static Pod pod(String uid, String name, String image) {
        return new PodBuilder()
                .withNewMetadata().withUid(uid).withName(name).withNamespace("default").endMetadata()
                .withNewSpec().addNewContainer().withName("c").withImage(image).endContainer().endSpec()
                .withNewStatus().withPhase("Pending").endStatus()
                .build();
    }

    /** Everything PodConfig has emitted so far, as "OP source [names]". */
    private List<String> drain() {
        List<PodUpdate> updates = new ArrayList<>();
        config.updates().drainTo(updates);
        return updates.stream().map(u -> u.op() + " " + u.source() + " "
                + u.pods().stream().map(p -> p.getMetadata().getName()).toList()).toList();
    }

    private List<PodUpdate> drainUpdates() {
        List<PodUpdate> updates = new ArrayList<>();
        config.updates().drainTo(updates);
        return updates;
    }

    @Test
    void firstSetAddsThePodsAndMarksTheSourceSeen() {
        file.send(PodUpdate.set(PodSources.FILE, List.of(pod("1", "a", "busybox"), pod("2", "b", "busybox"))));

        List<PodUpdate> updates = drainUpdates();
        assertThat(updates).hasSize(1);
        assertThat(updates.getFirst().op()).isEqualTo(ADD);
        assertThat(updates.getFirst().pods()).allSatisfy(p -> assertThat(p.getMetadata().getAnnotations())
                .containsEntry(ConfigAnnotations.CONFIG_SOURCE, "file")
                .containsEntry(ConfigAnnotations.CONFIG_FIRST_SEEN, "2024-05-01T10:00:00.5Z"));
        assertThat(config.seenAllSources(Set.of("file", "api"))).isFalse();
    }

    @Test
    void anEmptyFirstSetSendsTheSourceReadySignalOnce() {
        file.send(PodUpdate.set(PodSources.FILE, List.of()));
        file.send(PodUpdate.set(PodSources.FILE, List.of()));

        assertThat(drain()).containsExactly("ADD file []");
    }

    @Test
    void seenAllSourcesNeedsASetFromEverySourceAndTheirMention() {
        assertThat(config.sources()).containsExactlyInAnyOrder("file", "api");
        file.send(PodUpdate.set(PodSources.FILE, List.of()));
        assertThat(config.seenAllSources(Set.of("file", "api"))).isFalse();

        api.send(new PodUpdate(List.of(pod("1", "a", "busybox")), ADD, PodSources.API));
        assertThat(config.seenAllSources(Set.of("file", "api"))).as("an ADD is not a SET").isFalse();

        api.send(PodUpdate.set(PodSources.API, List.of()));
        assertThat(config.seenAllSources(Set.of("file", "api"))).isTrue();
        assertThat(config.seenAllSources(Set.of("file"))).as("the sync loop has not heard of api yet").isFalse();
    }

    @Test
    void anUnchangedSetEmitsNothing() {
        file.send(PodUpdate.set(PodSources.FILE, List.of(pod("1", "a", "busybox"))));
        drain();

        file.send(PodUpdate.set(PodSources.FILE, List.of(pod("1", "a", "busybox"))));

        assertThat(drain()).isEmpty();
    }

    @Test
    void aSpecChangeIsAnUpdateThatKeepsTheFirstSeenTime() {
        file.send(PodUpdate.set(PodSources.FILE, List.of(pod("1", "a", "busybox:1"))));
        drain();
        clock.set(T0.plusSeconds(60));

        file.send(PodUpdate.set(PodSources.FILE, List.of(pod("1", "a", "busybox:2"))));

        List<PodUpdate> updates = drainUpdates();
        assertThat(updates).singleElement().satisfies(u -> {
            assertThat(u.op()).isEqualTo(UPDATE);
            Pod updated = u.pods().getFirst();
            assertThat(updated.getSpec().getContainers().getFirst().getImage()).isEqualTo("busybox:2");
            assertThat(updated.getMetadata().getAnnotations())
                    .containsEntry(ConfigAnnotations.CONFIG_FIRST_SEEN, "2024-05-01T10:00:00.5Z")
                    .containsEntry(ConfigAnnotations.CONFIG_SOURCE, "file");
        });
    }

    @Test
    void labelsAndNonLocalAnnotationsAreSemantic() {
        file.send(PodUpdate.set(PodSources.FILE, List.of(pod("1", "a", "busybox"))));
        drain();

        Pod labelled = pod("1", "a", "busybox");
        labelled.getMetadata().setLabels(java.util.Map.of("tier", "web"));
        file.send(PodUpdate.set(PodSources.FILE, List.of(labelled)));
        assertThat(drain()).containsExactly("UPDATE file [a]");

        Pod annotated = PodCodec.deepCopy(labelled);
        annotated.getMetadata().setAnnotations(java.util.Map.of("note", "x"));
        file.send(PodUpdate.set(PodSources.FILE, List.of(annotated)));
        assertThat(drain()).containsExactly("UPDATE file [a]");

        Pod localOnly = PodCodec.deepCopy(annotated);
        localOnly.getMetadata().setAnnotations(java.util.Map.of("note", "x", ConfigAnnotations.CONFIG_MIRROR, "h"));
        file.send(PodUpdate.set(PodSources.FILE, List.of(localOnly)));
        assertThat(drain()).as("local annotations are the kubelet's own").isEmpty();
    }

    @Test
    void aStatusOnlyChangeIsAReconcile() {
        api.send(PodUpdate.set(PodSources.API, List.of(pod("1", "a", "busybox"))));
        drain();
        Pod running = pod("1", "a", "busybox");
        running.getStatus().setPhase("Running");

        api.send(PodUpdate.set(PodSources.API, List.of(running)));

        List<PodUpdate> updates = drainUpdates();
        assertThat(updates).singleElement().satisfies(u -> {
            assertThat(u.op()).isEqualTo(RECONCILE);
            assertThat(u.pods().getFirst().getStatus().getPhase()).isEqualTo("Running");
        });
    }

    @Test
    void settingTheDeletionTimestampIsADelete() {
        api.send(PodUpdate.set(PodSources.API, List.of(pod("1", "a", "busybox"))));
        drain();
        Pod deleting = pod("1", "a", "busybox");
        deleting.getMetadata().setDeletionTimestamp("2024-05-01T10:01:00Z");
        deleting.getMetadata().setDeletionGracePeriodSeconds(30L);

        api.send(PodUpdate.set(PodSources.API, List.of(deleting)));

        List<PodUpdate> updates = drainUpdates();
        assertThat(updates).singleElement().satisfies(u -> {
            assertThat(u.op()).isEqualTo(DELETE);
            assertThat(u.pods().getFirst().getMetadata().getDeletionGracePeriodSeconds()).isEqualTo(30L);
        });
    }

    @Test
    void aPodMissingFromTheSetIsRemoved() {
        file.send(PodUpdate.set(PodSources.FILE, List.of(pod("1", "a", "busybox"), pod("2", "b", "busybox"))));
        drain();

        file.send(PodUpdate.set(PodSources.FILE, List.of(pod("2", "b", "busybox"))));

        assertThat(drain()).containsExactly("REMOVE file [a]");
    }

    @Test
    void oneSetEmitsRemoveAddUpdateDeleteReconcileInThatOrder() {
        api.send(PodUpdate.set(PodSources.API, List.of(pod("1", "gone", "busybox"), pod("2", "changed", "busybox:1"),
                pod("3", "deleted", "busybox"), pod("4", "status", "busybox"))));
        drain();
        Pod deleted = pod("3", "deleted", "busybox");
        deleted.getMetadata().setDeletionTimestamp("2024-05-01T10:01:00Z");
        Pod status = pod("4", "status", "busybox");
        status.getStatus().setPhase("Running");

        api.send(PodUpdate.set(PodSources.API, List.of(status, deleted, pod("2", "changed", "busybox:2"),
                pod("5", "new", "busybox"))));

        assertThat(drain()).containsExactly("REMOVE api [gone]", "ADD api [new]", "UPDATE api [changed]",
                "DELETE api [deleted]", "RECONCILE api [status]");
    }

    @Test
    void sourcesDoNotTouchEachOthersPods() {
        file.send(PodUpdate.set(PodSources.FILE, List.of(pod("f", "static", "busybox"))));
        api.send(PodUpdate.set(PodSources.API, List.of(pod("a", "bound", "busybox"))));
        assertThat(drain()).containsExactly("ADD file [static]", "ADD api [bound]");

        api.send(PodUpdate.set(PodSources.API, List.of()));

        assertThat(drain()).containsExactly("REMOVE api [bound]");
        assertThat(config.mergedState()).extracting(p -> p.getMetadata().getName()).containsExactly("static");
    }

    @Test
    void incrementalOperationsFromASource() {
        api.send(new PodUpdate(List.of(pod("1", "a", "busybox")), ADD, PodSources.API));
        api.send(new PodUpdate(List.of(pod("1", "a", "busybox:2")), UPDATE, PodSources.API));
        api.send(new PodUpdate(List.of(pod("1", "a", "busybox:2")), REMOVE, PodSources.API));
        api.send(new PodUpdate(List.of(pod("1", "a", "busybox:2")), REMOVE, PodSources.API));

        assertThat(drain()).containsExactly("ADD api [a]", "UPDATE api [a]", "REMOVE api [a]");
    }

    @Test
    void theLaterOfTwoPodsWithOneFullNameIsDroppedAndReportedOnce() {
        Pod first = pod("1", "web-node", "busybox:1");
        Pod second = pod("2", "web-node", "busybox:2");

        file.send(PodUpdate.set(PodSources.FILE, List.of(first, second)));
        file.send(PodUpdate.set(PodSources.FILE, List.of(first, second)));

        List<PodUpdate> updates = drainUpdates();
        assertThat(updates).singleElement().satisfies(u -> assertThat(u.pods())
                .extracting(p -> p.getMetadata().getUid()).containsExactly("1"));
        assertThat(events).containsExactly("FailedValidation: Error validating pod web-node_default from file due to"
                + " duplicate pod name \"web-node\", ignoring");

        // Once the first one is gone, the second one is no longer a duplicate.
        file.send(PodUpdate.set(PodSources.FILE, List.of(second)));
        assertThat(drain()).containsExactly("REMOVE file [web-node]", "ADD file [web-node]");
    }

    @Test
    void podsAreCopiedInAndOut() {
        Pod sent = pod("1", "a", "busybox");
        file.send(PodUpdate.set(PodSources.FILE, List.of(sent)));
        assertThat(sent.getMetadata().getAnnotations()).as("the sender's pod is not annotated").isEmpty();

        Pod received = drainUpdates().getFirst().pods().getFirst();
        received.getSpec().getContainers().getFirst().setImage("mutated");
        file.send(PodUpdate.set(PodSources.FILE, List.of(pod("1", "a", "busybox"))));

        assertThat(drain()).as("mutating a received pod changes nothing in PodConfig").isEmpty();
    }

    @Test
    void syncSendsEveryPodAsOneSet() throws InterruptedException {
        file.send(PodUpdate.set(PodSources.FILE, List.of(pod("1", "a", "busybox"))));
        api.send(PodUpdate.set(PodSources.API, List.of(pod("2", "b", "busybox"))));
        drain();

        config.sync();

        List<PodUpdate> updates = drainUpdates();
        assertThat(updates).singleElement().satisfies(u -> {
            assertThat(u.op()).isEqualTo(SET);
            assertThat(u.source()).isEqualTo(PodSources.ALL);
            assertThat(u.pods()).extracting(p -> p.getMetadata().getName()).containsExactlyInAnyOrder("a", "b");
        });
    }

    @Test
    void theQueueHoldsFiftyUpdates() {
        assertThat(config.updates().remainingCapacity()).isEqualTo(PodConfig.UPDATES_CAPACITY).isEqualTo(50);
    }

    /** A clock the test moves by hand. */
    static final class MutableClock extends Clock {
        private volatile Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        void set(Instant instant) {
            now = instant;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
