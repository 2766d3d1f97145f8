package io.jkubelet.cmd.certificate;

import java.io.IOException;
import java.util.Optional;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * The TLS context of the kubelet's apiserver client when the kubelet manages its client certificate (upstream's
 * {@code UpdateTransport}): every new connection authenticates with the current pair; {@link #use} switches to a new
 * pair and retires the connections of the old one, so that they are closed and opened again with it. Each pair gets
 * a context of its own, so no session of the old identity is resumed. Thread-safe.
 */
public final class RotatingClientTls {
    private final TrustManager[] trust;
    private volatile SSLContext current;
    /** The engines of the current pair's connections; weak, so closed connections' engines go with them. */
    private final Set<RetirableSslEngine> engines = Collections.newSetFromMap(Collections.synchronizedMap(new WeakHashMap<>()));
    private final SSLContext context;

    /**
     * @param pair the client certificate to start with; none connects without one (the apiserver then sees an
     *     anonymous client)
     * @param trust the kubeconfig's trust in the apiserver
     */
    public RotatingClientTls(Optional<CertificatePair> pair, TrustManager[] trust) throws GeneralSecurityException {
        this.trust = trust;
        this.current = contextFor(pair.orElse(null));
        this.context = new SSLContext(new Spi(), current.getProvider(), current.getProtocol()) { };
    }

    /** The context to give the HTTP client, once. */
    public SSLContext context() {
        return context;
    }

    /** New connections use {@code pair}; open ones, of the pair before, fail at their next read or write. */
    public void use(CertificatePair pair) throws GeneralSecurityException {
        current = contextFor(pair);
        RetirableSslEngine[] old;
        synchronized (engines) {
            old = engines.toArray(RetirableSslEngine[]::new);
            engines.clear();
        }
        for (RetirableSslEngine e : old) {
            e.retire();
        }
    }

    private SSLContext contextFor(CertificatePair pair) throws GeneralSecurityException {
        KeyManager[] keys = null;
        if (pair != null) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            try {
                store.load(null, null);
            } catch (IOException e) {
                throw new GeneralSecurityException(e);
            }
            store.setKeyEntry("client", pair.key(), new char[0], pair.chain().toArray(X509Certificate[]::new));
            KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(store, new char[0]);
            keys = factory.getKeyManagers();
        }
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(keys, trust, new SecureRandom());
        return ssl;
    }

    private RetirableSslEngine track(SSLEngine engine) {
        RetirableSslEngine e = new RetirableSslEngine(engine);
        engines.add(e);
        return e;
    }

    /** Every call goes to the current pair's context; engines are tracked for retirement. */
    private final class Spi extends SSLContextSpi {
        @Override
        protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom sr) {
            throw new UnsupportedOperationException("the kubelet's client TLS context is initialised by itself");
        }

        @Override
        protected SSLSocketFactory engineGetSocketFactory() {
            return current.getSocketFactory();
        }

        @Override
        protected SSLServerSocketFactory engineGetServerSocketFactory() {
            return current.getServerSocketFactory();
        }

        @Override
        protected SSLEngine engineCreateSSLEngine() {
            return track(current.createSSLEngine());
        }

        @Override
        protected SSLEngine engineCreateSSLEngine(String host, int port) {
            return track(current.createSSLEngine(host, port));
        }

        @Override
        protected SSLSessionContext engineGetServerSessionContext() {
            return current.getServerSessionContext();
        }

        @Override
        protected SSLSessionContext engineGetClientSessionContext() {
            return current.getClientSessionContext();
        }

        @Override
        protected SSLParameters engineGetDefaultSSLParameters() {
            return current.getDefaultSSLParameters();
        }

        @Override
        protected SSLParameters engineGetSupportedSSLParameters() {
            return current.getSupportedSSLParameters();
        }
    }
}
