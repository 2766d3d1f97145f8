package io.jkubelet.cmd.e2e;

import io.jkubelet.cmd.e2e.cluster.ControlPlane;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

import java.util.Optional;

/**
 * Starts the shared control plane in the background as soon as a run's test plan is known, when the plan holds a
 * class that joins it (a {@link RealClusterBase}): it takes about a minute to come up, which the classes that run
 * before the first such class spend on their own work instead of the run waiting for it. The first class to join
 * waits in {@link ControlPlane#shared()} until the start has finished; a start that failed here is made again there,
 * so its error is that class's, as without this listener. Unit runs hold no such class and start nothing.
 */
public final class ControlPlanePrestart implements TestExecutionListener {

    @Override
    public void testPlanExecutionStarted(TestPlan plan) {
        if (plan.getRoots().stream().flatMap(root -> plan.getDescendants(root).stream())
                .anyMatch(ControlPlanePrestart::joinsTheSharedCluster)) {
            Thread.ofPlatform().daemon().name("control-plane-prestart").start(ControlPlanePrestart::start);
        }
    }

    private static boolean joinsTheSharedCluster(TestIdentifier test) {
        return test.getSource().filter(ClassSource.class::isInstance).map(ClassSource.class::cast)
                .flatMap(ControlPlanePrestart::testClass).map(RealClusterBase.class::isAssignableFrom).orElse(false);
    }

    private static Optional<Class<?>> testClass(ClassSource source) {
        try {
            return Optional.of(source.getJavaClass());
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private static void start() {
        try {
            ControlPlane.shared();
        } catch (Exception | AssertionError e) {
            System.err.println("[control-plane-prestart] the shared control plane did not start in the background ("
                    + e + "); the first class that joins it starts it again");
        }
    }
}
