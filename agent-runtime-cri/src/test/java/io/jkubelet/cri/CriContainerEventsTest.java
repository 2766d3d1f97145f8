package io.jkubelet.cri;

import io.jkubelet.core.runtime.RuntimeEvent;
import io.jkubelet.cri.v1.CriApi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.jkubelet.core.runtime.RuntimeEvent.Type.CREATED;
import static io.jkubelet.core.runtime.RuntimeEvent.Type.DELETED;
import static io.jkubelet.core.runtime.RuntimeEvent.Type.STARTED;
import static io.jkubelet.core.runtime.RuntimeEvent.Type.STOPPED;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Container events on a CRI runtime without GetContainerEvents ({@link CriContainerEvents}): each list of the fake
 * runtime's containers compared with the one before. The test lists itself; the events' own period never comes.
 */
class CriContainerEventsTest extends FakeCriTestBase {

    private final List<RuntimeEvent> events = new ArrayList<>();
    private String existing;
    private CriContainerEvents watch;

    @BeforeEach
    void watchAfterOneContainer() {
        existing = createdContainer("before", NGINX);
        watch = new CriContainerEvents(cri::listContainers, events::add, Duration.ofDays(1));
    }

    @AfterEach
    void stopWatching() {
        watch.close();
    }

    @Test
    void aContainersLifeIsOneEventPerChangeOfStateWithItsPodsUid() {
        String id = cri.createContainer("sandbox-1", containerConfig("app", NGINX), sandboxConfig("pod"));
        watch.relist();
        cri.startContainer(id);
        watch.relist();
        watch.relist();
        cri.stopContainer(id, Duration.ofSeconds(1));
        watch.relist();
        cri.removeContainer(id);
        watch.relist();

        assertThat(events).containsExactly(new RuntimeEvent(id, "uid-pod", CREATED), new RuntimeEvent(id, "uid-pod", STARTED),
                new RuntimeEvent(id, "uid-pod", STOPPED), new RuntimeEvent(id, "uid-pod", DELETED));
        assertThat(events).extracting(RuntimeEvent::containerId).doesNotContain(existing);
    }

    @Test
    void aContainerThatRanAndExitedBetweenTwoListsStillStarted() {
        String id = cri.createContainer("sandbox-1", containerConfig("job", NGINX), sandboxConfig("pod"));
        cri.startContainer(id);
        cri.stopContainer(id, Duration.ofSeconds(1));
        cri.startContainer(existing);
        cri.stopContainer(existing, Duration.ofSeconds(1));

        watch.relist();

        assertThat(events).containsExactlyInAnyOrder(new RuntimeEvent(id, "uid-pod", CREATED),
                new RuntimeEvent(id, "uid-pod", STARTED), new RuntimeEvent(id, "uid-pod", STOPPED),
                new RuntimeEvent(existing, "uid-pod", STARTED), new RuntimeEvent(existing, "uid-pod", STOPPED));
    }

    @Test
    void aContainerOfNoPodHasAnEmptyPodUidAndNothingIsSentOnceClosed() {
        fake.runtime.put("sandbox-1", CriApi.ContainerStatus.newBuilder().setId("loose")
                .setState(CriApi.ContainerState.CONTAINER_RUNNING).build());
        watch.relist();
        assertThat(events).containsExactly(new RuntimeEvent("loose", "", CREATED), new RuntimeEvent("loose", "", STARTED));

        watch.close();
        cri.removeContainer("loose");
        watch.relist();
        assertThat(events).hasSize(2);
    }
}
