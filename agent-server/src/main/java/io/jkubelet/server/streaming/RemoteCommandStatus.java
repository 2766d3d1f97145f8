package io.jkubelet.server.streaming;

import java.nio.charset.StandardCharsets;
import java.util.List;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * How an exec or attach ended, as upstream's remotecommand server reports it on the error channel (3):
 * under v4 and v5 a {@code metav1.Status} JSON object (Success; Failure with reason {@code
 * NonZeroExitCode} and an {@code ExitCode} cause; or an internal error); before v4 nothing on success and
 * the failure's message otherwise.
 *
 * @param status {@code Success} or {@code Failure}
 * @param message empty for success
 * @param reason empty for success
 * @param causeReason the cause's {@code reason}, or null for none
 * @param causeMessage the cause's {@code message}
 * @param code the HTTP-style code, 0 for none
 */
record RemoteCommandStatus(String status, String message, String reason, String causeReason, String causeMessage, int code) {

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    static RemoteCommandStatus success() {
        return new RemoteCommandStatus("Success", "", "", null, null, 0);
    }

    /**
     * The command exited with {@code exitCode} (not 0). The message follows the CRI runtimes' exit error
     * ({@code error executing command [sh -c exit 3], exit code 3}), which upstream wraps.
     */
    static RemoteCommandStatus nonZeroExit(List<String> command, int exitCode) {
        String error = "error executing command [" + String.join(" ", command) + "], exit code " + exitCode;
        return new RemoteCommandStatus("Failure", "command terminated with non-zero exit code: " + error, "NonZeroExitCode",
                "ExitCode", Integer.toString(exitCode), 0);
    }

    /** Upstream's {@code apierrors.NewInternalError(err)}. */
    static RemoteCommandStatus internalError(String error) {
        return new RemoteCommandStatus("Failure", "Internal error occurred: " + error, "InternalError", "", error, 500);
    }

    boolean isSuccess() {
        return status.equals("Success");
    }

    /** The v4/v5 encoding: {@code metav1.Status} as Go marshals it (empty fields left out). */
    byte[] toJson() {
        ObjectNode root = JSON.createObjectNode();
        root.putObject("metadata");
        root.put("status", status);
        if (!message.isEmpty()) {
            root.put("message", message);
        }
        if (!reason.isEmpty()) {
            root.put("reason", reason);
        }
        if (causeMessage != null) {
            ObjectNode cause = root.putObject("details").putArray("causes").addObject();
            if (!causeReason.isEmpty()) {
                cause.put("reason", causeReason);
            }
            cause.put("message", causeMessage);
        }
        if (code != 0) {
            root.put("code", code);
        }
        return root.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The pre-v4 encoding: nothing for success, else the message. */
    byte[] toV1() {
        return isSuccess() ? new byte[0] : message.getBytes(StandardCharsets.UTF_8);
    }
}
