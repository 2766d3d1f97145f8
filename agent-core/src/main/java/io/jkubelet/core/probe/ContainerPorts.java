package io.jkubelet.core.probe;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.IntOrString;

/**
 * Resolves the {@code port} of an {@code httpGet} / {@code tcpSocket} action (upstream
 * {@code probe.ResolveContainerPort}): a number, or the name of one of the container's
 * {@code ports[]}, or (upstream's "last ditch effort") a number written as a string.
 */
public final class ContainerPorts {
    private ContainerPorts() {}

    /**
     * @throws ProbeException naming the port and the container when the name is not among
     *     {@code container.ports[].name} or the number is outside 1–65535
     */
    public static int resolve(IntOrString port, Container container) throws ProbeException {
        if (port == null || (port.getIntVal() == null && port.getStrVal() == null)) {
            throw new ProbeException("port of container \"" + container.getName() + "\" is not set");
        }
        int number;
        if (port.getIntVal() != null) {
            number = port.getIntVal();
        } else {
            String name = port.getStrVal();
            Integer byName = findByName(container, name);
            if (byName != null) {
                number = byName;
            } else {
                try {
                    number = Integer.parseInt(name);
                } catch (NumberFormatException e) {
                    throw new ProbeException("port " + GoFormat.quote(name) + " not found in the ports of container "
                            + GoFormat.quote(container.getName()));
                }
            }
        }
        if (number > 0 && number < 65536) {
            return number;
        }
        throw new ProbeException("invalid port number: " + number + " (container " + GoFormat.quote(container.getName())
                + ", port " + (port.getIntVal() != null ? port.getIntVal() : GoFormat.quote(port.getStrVal())) + ")");
    }

    private static Integer findByName(Container container, String name) {
        if (container.getPorts() == null) {
            return null;
        }
        for (ContainerPort p : container.getPorts()) {
            if (name.equals(p.getName())) {
                return p.getContainerPort() == null ? 0 : p.getContainerPort();
            }
        }
        return null;
    }
}
