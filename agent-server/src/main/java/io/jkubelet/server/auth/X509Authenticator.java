package io.jkubelet.server.auth;

import io.jkubelet.server.http.Request;
import java.security.GeneralSecurityException;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateParsingException;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/**
 * Client certificates against {@code authentication.x509.clientCAFile} (the apiserver library's x509
 * authenticator with its {@code CommonNameUserConversion}): a chain that verifies up to one of the CAs
 * for client authentication names the user by its subject's CN and the groups by its O values.
 */
public final class X509Authenticator implements Authenticator {

    /** {@code id-kp-clientAuth}. */
    private static final String CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";
    private static final String ANY_USAGE = "2.5.29.37.0";

    private final Set<TrustAnchor> anchors;
    private final Clock clock;

    public X509Authenticator(List<X509Certificate> clientCAs, Clock clock) {
        if (clientCAs.isEmpty()) {
            throw new IllegalArgumentException("x509 authentication needs at least one client CA");
        }
        Set<TrustAnchor> set = new HashSet<>();
        for (X509Certificate ca : clientCAs) {
            set.add(new TrustAnchor(ca, null));
        }
        this.anchors = Set.copyOf(set);
        this.clock = clock;
    }

    @Override
    public Optional<UserInfo> authenticate(Request request, List<X509Certificate> chain) throws AuthenticationException {
        if (chain.isEmpty()) {
            return Optional.empty();
        }
        X509Certificate leaf = chain.get(0);
        verify(chain);
        List<String> usages;
        try {
            usages = leaf.getExtendedKeyUsage();
        } catch (CertificateParsingException e) {
            throw new AuthenticationException("verifying certificate " + describe(leaf) + " failed: " + e.getMessage(), e);
        }
        if (usages != null && !usages.contains(CLIENT_AUTH) && !usages.contains(ANY_USAGE)) {
            throw new AuthenticationException("verifying certificate " + describe(leaf)
                    + " failed: x509: certificate specifies an incompatible key usage");
        }
        String commonName = null;
        List<String> organizations = new ArrayList<>();
        for (Rdn rdn : rdns(leaf)) {
            if (rdn.getType().equalsIgnoreCase("CN") && commonName == null) {
                commonName = rdn.getValue().toString();
            } else if (rdn.getType().equalsIgnoreCase("O")) {
                organizations.add(rdn.getValue().toString());
            }
        }
        if (commonName == null || commonName.isEmpty()) {
            throw new AuthenticationException("common name of user/client cert is empty");
        }
        return Optional.of(new UserInfo(commonName, organizations));
    }

    private void verify(List<X509Certificate> chain) throws AuthenticationException {
        try {
            PKIXParameters params = new PKIXParameters(anchors);
            params.setRevocationEnabled(false);
            params.setDate(Date.from(clock.instant()));
            // The path excludes the anchor itself, should a client send its CA too.
            List<X509Certificate> path = new ArrayList<>();
            for (X509Certificate c : chain) {
                if (anchors.stream().noneMatch(a -> a.getTrustedCert().equals(c))) {
                    path.add(c);
                }
            }
            if (path.isEmpty()) {
                throw new AuthenticationException("verifying certificate " + describe(chain.get(0))
                        + " failed: the client sent only a CA certificate");
            }
            CertPathValidator.getInstance("PKIX").validate(CertificateFactory.getInstance("X.509").generateCertPath(path), params);
        } catch (GeneralSecurityException e) {
            throw new AuthenticationException("verifying certificate " + describe(chain.get(0)) + " failed: " + e.getMessage(), e);
        }
    }

    private static List<Rdn> rdns(X509Certificate cert) throws AuthenticationException {
        try {
            return new LdapName(cert.getSubjectX500Principal().getName()).getRdns();
        } catch (InvalidNameException e) {
            throw new AuthenticationException("client certificate subject " + cert.getSubjectX500Principal() + " cannot be read", e);
        }
    }

    private static String describe(X509Certificate cert) {
        return "SN=" + cert.getSerialNumber() + ", subject=\"" + cert.getSubjectX500Principal().getName() + "\"";
    }
}
