package io.jkubelet.core.status;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.podutil.PodSpecs;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/** A pod's phase from its container statuses (upstream {@code getPhase}). */
public final class PodPhases {
    private PodPhases() {}

    public static final String PENDING = "Pending";
    public static final String RUNNING = "Running";
    public static final String SUCCEEDED = "Succeeded";
    public static final String FAILED = "Failed";
    public static final String UNKNOWN = "Unknown";

    public static boolean isTerminal(String phase) {
        return SUCCEEDED.equals(phase) || FAILED.equals(phase);
    }

    /**
     * The phase of a pod from the statuses of all its containers, init containers included.
     *
     * @param podIsTerminal the pod's workers finished it: its containers will not run again
     */
    public static String getPhase(Pod pod, List<ContainerStatus> allStatuses, boolean podIsTerminal, boolean staticPod) {
        Map<String, ContainerStatus> info = byName(allStatuses);
        int pendingInitialization = 0;
        int failedInitialization = 0;
        for (Container c : PodSpecs.initContainers(pod)) {
            if (PodSpecs.isRestartableInitContainer(c)) {
                continue; // sidecars are counted with the regular containers below
            }
            ContainerStatus s = info.get(c.getName());
            if (s == null) {
                pendingInitialization++;
            } else if (s.getState().getRunning() != null) {
                pendingInitialization++;
            } else if (s.getState().getTerminated() != null) {
                if (s.getState().getTerminated().getExitCode() != 0) {
                    failedInitialization++;
                }
            } else if (s.getState().getWaiting() != null) {
                if (lastTerminated(s)) {
                    if (s.getLastState().getTerminated().getExitCode() != 0) {
                        failedInitialization++;
                    }
                } else {
                    pendingInitialization++;
                }
            } else {
                pendingInitialization++;
            }
        }

        int unknown = 0, running = 0, waiting = 0, stopped = 0, succeeded = 0;
        for (Container c : PodSpecs.initContainers(pod)) {
            if (!PodSpecs.isRestartableInitContainer(c)) {
                continue;
            }
            ContainerStatus s = info.get(c.getName());
            if (s == null) {
                unknown++;
            } else if (s.getState().getRunning() != null) {
                if (!Boolean.TRUE.equals(s.getStarted())) {
                    pendingInitialization++;
                }
                running++;
            } else if (s.getState().getTerminated() != null) {
                // a stopped sidecar does not decide the phase
            } else if (s.getState().getWaiting() != null) {
                if (!lastTerminated(s)) {
                    pendingInitialization++;
                    waiting++;
                }
            } else {
                pendingInitialization++;
                unknown++;
            }
        }
        boolean anyRegularStarted = false;
        for (Container c : PodSpecs.containers(pod)) {
            ContainerStatus s = info.get(c.getName());
            if (s == null) {
                unknown++;
                continue;
            }
            if (s.getState().getRunning() != null) {
                running++;
            } else if (s.getState().getTerminated() != null) {
                stopped++;
                if (s.getState().getTerminated().getExitCode() == 0) {
                    succeeded++;
                }
            } else if (s.getState().getWaiting() != null) {
                if (lastTerminated(s)) {
                    stopped++;
                } else {
                    waiting++;
                }
            } else {
                unknown++;
            }
            if (s.getState().getRunning() != null || s.getState().getTerminated() != null) {
                anyRegularStarted = true;
            }
        }

        String restartPolicy = PodSpecs.restartPolicy(pod);
        if (failedInitialization > 0 && PodSpecs.RESTART_NEVER.equals(restartPolicy)) {
            return FAILED;
        }
        // Restarting sidecars do not send an initialised pod back to Pending once app containers ran.
        if ((pendingInitialization > 0 && !anyRegularStarted) || waiting > 0) {
            return PENDING;
        }
        if (running > 0 && unknown == 0) {
            return RUNNING;
        }
        if (running == 0 && stopped > 0 && unknown == 0) {
            // Static pods are not made terminal here yet, as upstream (kubernetes#116484).
            if (podIsTerminal && !staticPod) {
                return stopped == succeeded ? SUCCEEDED : FAILED;
            }
            if (PodSpecs.RESTART_ALWAYS.equals(restartPolicy)) {
                return RUNNING;
            }
            if (stopped == succeeded) {
                return SUCCEEDED;
            }
            if (PodSpecs.RESTART_NEVER.equals(restartPolicy)) {
                return FAILED;
            }
            return RUNNING;
        }
        return PENDING;
    }

    private static boolean lastTerminated(ContainerStatus s) {
        return s.getLastState() != null && s.getLastState().getTerminated() != null;
    }

    private static Map<String, ContainerStatus> byName(List<ContainerStatus> l) {
        return l.stream().collect(Collectors.toMap(ContainerStatus::getName, Function.identity(), (a, b) -> a));
    }
}
