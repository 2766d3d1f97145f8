package io.jkubelet.server.auth;

import java.util.ArrayList;
import java.util.List;

/**
 * Who made a request, as the apiserver's authenticators name users.
 *
 * @param name the user name ({@code system:anonymous} for anonymous requests)
 * @param groups the user's groups
 */
public record UserInfo(String name, List<String> groups) {

    /** The anonymous user's name and group. */
    public static final String ANONYMOUS = "system:anonymous";
    public static final String UNAUTHENTICATED = "system:unauthenticated";

    /** The group every authenticated (non-anonymous) user is added to. */
    public static final String AUTHENTICATED = "system:authenticated";

    public UserInfo {
        groups = List.copyOf(groups);
    }

    public static UserInfo anonymous() {
        return new UserInfo(ANONYMOUS, List.of(UNAUTHENTICATED));
    }

    /** This user with {@code system:authenticated} added to its groups, unless it is there already. */
    UserInfo withAuthenticatedGroup() {
        if (groups.contains(AUTHENTICATED)) {
            return this;
        }
        List<String> all = new ArrayList<>(groups);
        all.add(AUTHENTICATED);
        return new UserInfo(name, all);
    }
}
