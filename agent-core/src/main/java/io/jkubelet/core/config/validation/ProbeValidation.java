package io.jkubelet.core.config.validation;

import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Lifecycle;
import io.fabric8.kubernetes.api.model.LifecycleHandler;
import io.fabric8.kubernetes.api.model.Probe;

import java.util.ArrayList;
import java.util.List;

/** The apiserver's checks of a container's probes and lifecycle handlers (exactly one handler, thresholds, ports). */
final class ProbeValidation {
    static final List<String> URI_SCHEMES = List.of("HTTP", "HTTPS");

    private ProbeValidation() {}

    static void validateProbe(Probe probe, FieldPath path, boolean successMustBeOne, List<FieldError> errors) {
        if (probe == null) {
            return;
        }
        List<String> handlers = new ArrayList<>();
        if (probe.getExec() != null) {
            handlers.add("exec");
        }
        if (probe.getHttpGet() != null) {
            handlers.add("httpGet");
            validateHttpGet(probe.getHttpGet(), path.child("httpGet"), errors);
        }
        if (probe.getTcpSocket() != null) {
            handlers.add("tcpSocket");
            validatePortNumOrName(probe.getTcpSocket().getPort(), path.child("tcpSocket", "port"), errors);
        }
        if (probe.getGrpc() != null) {
            handlers.add("grpc");
            int port = probe.getGrpc().getPort() == null ? 0 : probe.getGrpc().getPort();
            for (String message : NameValidation.portNumber(port)) {
                errors.add(FieldError.invalid(path.child("grpc", "port"), port, message));
            }
        }
        checkOneHandler(handlers, path, errors);
        FieldChecks.nonNegative(probe.getInitialDelaySeconds(), path.child("initialDelaySeconds"), errors);
        FieldChecks.nonNegative(probe.getTimeoutSeconds(), path.child("timeoutSeconds"), errors);
        FieldChecks.nonNegative(probe.getPeriodSeconds(), path.child("periodSeconds"), errors);
        FieldChecks.nonNegative(probe.getSuccessThreshold(), path.child("successThreshold"), errors);
        FieldChecks.nonNegative(probe.getFailureThreshold(), path.child("failureThreshold"), errors);
        if (successMustBeOne && probe.getSuccessThreshold() != null && probe.getSuccessThreshold() != 1) {
            errors.add(FieldError.invalid(path.child("successThreshold"), probe.getSuccessThreshold(), "must be 1"));
        }
        if (probe.getTerminationGracePeriodSeconds() != null && probe.getTerminationGracePeriodSeconds() <= 0) {
            errors.add(FieldError.invalid(path.child("terminationGracePeriodSeconds"),
                    probe.getTerminationGracePeriodSeconds(), "must be greater than 0"));
        }
    }

    static void validateLifecycle(Lifecycle lifecycle, FieldPath path, List<FieldError> errors) {
        if (lifecycle == null) {
            return;
        }
        validateLifecycleHandler(lifecycle.getPostStart(), path.child("postStart"), errors);
        validateLifecycleHandler(lifecycle.getPreStop(), path.child("preStop"), errors);
    }

    private static void validateLifecycleHandler(LifecycleHandler handler, FieldPath path, List<FieldError> errors) {
        if (handler == null) {
            return;
        }
        List<String> handlers = new ArrayList<>();
        if (handler.getExec() != null) {
            handlers.add("exec");
        }
        if (handler.getHttpGet() != null) {
            handlers.add("httpGet");
            validateHttpGet(handler.getHttpGet(), path.child("httpGet"), errors);
        }
        if (handler.getTcpSocket() != null) {
            handlers.add("tcpSocket");
            validatePortNumOrName(handler.getTcpSocket().getPort(), path.child("tcpSocket", "port"), errors);
        }
        if (handler.getSleep() != null) {
            handlers.add("sleep");
        }
        checkOneHandler(handlers, path, errors);
    }

    private static void checkOneHandler(List<String> handlers, FieldPath path, List<FieldError> errors) {
        if (handlers.isEmpty()) {
            errors.add(FieldError.required(path, "must specify a handler type"));
        } else if (handlers.size() > 1) {
            errors.add(FieldError.forbidden(path.child(handlers.get(1)), "may not specify more than 1 handler type"));
        }
    }

    private static void validateHttpGet(HTTPGetAction action, FieldPath path, List<FieldError> errors) {
        validatePortNumOrName(action.getPort(), path.child("port"), errors);
        if (action.getScheme() != null) {
            FieldChecks.oneOf(action.getScheme(), URI_SCHEMES, path.child("scheme"), errors);
        }
    }

    static void validatePortNumOrName(IntOrString port, FieldPath path, List<FieldError> errors) {
        if (port == null || (port.getIntVal() == null && port.getStrVal() == null)) {
            errors.add(FieldError.required(path, ""));
        } else if (port.getIntVal() != null) {
            for (String message : NameValidation.portNumber(port.getIntVal())) {
                errors.add(FieldError.invalid(path, port.getIntVal(), message));
            }
        } else {
            for (String message : NameValidation.portName(port.getStrVal())) {
                errors.add(FieldError.invalid(path, port.getStrVal(), message));
            }
        }
    }
}
