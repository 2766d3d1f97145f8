package io.jkubelet.cmd.certificate;

import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x500.style.IETFUtils;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The names a certificate was issued for: its subject's common name and organizations, its DNS names and IP
 * addresses (addresses as {@link InetAddress#getHostAddress()} writes them, so that one compares with a template's).
 */
record CertificateNames(String commonName, List<String> organizations, List<String> dnsNames, List<String> ipAddresses) {
    private static final int DNS_NAME = 2;
    private static final int IP_ADDRESS = 7;

    static CertificateNames of(X509Certificate certificate) {
        X500Name subject = X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded());
        String cn = "";
        for (RDN rdn : subject.getRDNs(BCStyle.CN)) {
            cn = IETFUtils.valueToString(rdn.getFirst().getValue());
        }
        List<String> orgs = new ArrayList<>();
        for (RDN rdn : subject.getRDNs(BCStyle.O)) {
            orgs.add(IETFUtils.valueToString(rdn.getFirst().getValue()));
        }
        List<String> dns = new ArrayList<>();
        List<String> ips = new ArrayList<>();
        Collection<List<?>> sans;
        try {
            sans = certificate.getSubjectAlternativeNames();
        } catch (CertificateParsingException e) {
            sans = null;
        }
        if (sans != null) {
            for (List<?> san : sans) {
                int type = (Integer) san.get(0);
                if (type == DNS_NAME) {
                    dns.add((String) san.get(1));
                } else if (type == IP_ADDRESS) {
                    ips.add(normalAddress((String) san.get(1)));
                }
            }
        }
        return new CertificateNames(cn, orgs, dns, ips);
    }

    /** A literal address in one spelling (IPv6 has several); no name is looked up for a literal. */
    static String normalAddress(String literal) {
        try {
            return InetAddress.getByName(literal).getHostAddress();
        } catch (UnknownHostException e) {
            return literal;
        }
    }
}
