package io.jkubelet.cmd.certificate;

import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.ExtensionsGenerator;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequestBuilder;

import java.io.IOException;
import java.io.StringWriter;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * What a certificate is asked for (client-go's {@code x509.CertificateRequest} template): the subject, and for a
 * serving certificate the node's host names and addresses. It makes the PKCS#10 request, signed by a fresh key.
 *
 * @param commonName {@code system:node:<name>}
 * @param organizations {@code system:nodes}
 * @param dnsNames subject alternative names (serving certificates)
 * @param ipAddresses subject alternative addresses, as literals (serving certificates)
 */
public record CsrTemplate(String commonName, List<String> organizations, List<String> dnsNames, List<String> ipAddresses) {

    public CsrTemplate {
        organizations = List.copyOf(organizations);
        dnsNames = List.copyOf(dnsNames);
        ipAddresses = ipAddresses.stream().map(CertificateNames::normalAddress).toList();
    }

    /** The node's client identity: {@code system:node:<name>} in {@code system:nodes}. */
    public static CsrTemplate nodeClient(String nodeName) {
        return new CsrTemplate("system:node:" + nodeName, List.of("system:nodes"), List.of(), List.of());
    }

    /** A new ECDSA P-256 key, as the certificate manager makes for each request. */
    public static KeyPair newKey() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }

    /** The PEM {@code CERTIFICATE REQUEST} for this template, signed by {@code key}. */
    public String toPem(KeyPair key) throws GeneralSecurityException {
        X500NameBuilder subject = new X500NameBuilder(BCStyle.INSTANCE);
        organizations.forEach(o -> subject.addRDN(BCStyle.O, o));
        subject.addRDN(BCStyle.CN, commonName);
        JcaPKCS10CertificationRequestBuilder request = new JcaPKCS10CertificationRequestBuilder(subject.build(), key.getPublic());
        List<GeneralName> names = new ArrayList<>();
        dnsNames.forEach(n -> names.add(new GeneralName(GeneralName.dNSName, n)));
        ipAddresses.forEach(a -> names.add(new GeneralName(GeneralName.iPAddress, a)));
        try {
            if (!names.isEmpty()) {
                ExtensionsGenerator extensions = new ExtensionsGenerator();
                extensions.addExtension(Extension.subjectAlternativeName, false,
                        new GeneralNames(names.toArray(GeneralName[]::new)));
                request.addAttribute(PKCSObjectIdentifiers.pkcs_9_at_extensionRequest, extensions.generate());
            }
            String algorithm = "EC".equals(key.getPrivate().getAlgorithm()) ? "SHA256withECDSA" : "SHA256withRSA";
            StringWriter out = new StringWriter();
            try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
                writer.writeObject(request.build(new JcaContentSignerBuilder(algorithm).build(key.getPrivate())));
            }
            return out.toString();
        } catch (IOException | OperatorCreationException e) {
            throw new GeneralSecurityException("cannot make a certificate request for " + commonName + ": " + e.getMessage(), e);
        }
    }
}
