package io.jkubelet.cmd.certificate;

import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;

import java.net.http.HttpClient;

/** fabric8's JDK HTTP client with the kubelet's {@link RotatingClientTls} in place of a context built from files. */
public final class RotatingTlsHttpClientFactory extends JdkHttpClientFactory {
    private final RotatingClientTls tls;

    public RotatingTlsHttpClientFactory(RotatingClientTls tls) {
        this.tls = tls;
    }

    @Override
    protected void additionalConfig(HttpClient.Builder builder) {
        builder.sslContext(tls.context());
    }
}
