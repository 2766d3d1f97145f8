package io.jkubelet.cmd;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code --node-ip}: unset, {@code 0.0.0.0} and {@code ::} choose the default address of a family, as upstream. */
class NodeIpsTest {

    private static InetAddress ip(String literal) throws UnknownHostException {
        return InetAddress.getByName(literal);
    }

    @Test
    void unsetOrZeroPrefersIpv4AndFallsBackToIpv6() throws Exception {
        List<InetAddress> both = List.of(ip("2001:db8::5"), ip("10.0.0.5"));
        assertThat(NodeIps.resolve(List.of(), both)).containsExactly("10.0.0.5");
        assertThat(NodeIps.resolve(List.of("0.0.0.0"), both)).containsExactly("10.0.0.5");
        assertThat(NodeIps.resolve(List.of(), List.of(ip("2001:db8::5")))).containsExactly("2001:db8::5");
    }

    @Test
    void doubleColonPrefersIpv6AndFallsBackToIpv4() throws Exception {
        assertThat(NodeIps.resolve(List.of("::"), List.of(ip("10.0.0.5"), ip("2001:db8::5")))).containsExactly("2001:db8::5");
        assertThat(NodeIps.resolve(List.of("::"), List.of(ip("10.0.0.5")))).containsExactly("10.0.0.5");
    }

    @Test
    void givenAddressesAreKept() throws Exception {
        assertThat(NodeIps.resolve(List.of("192.168.1.7", "fd00::7"), List.of(ip("10.0.0.5"))))
                .containsExactly("192.168.1.7", "fd00::7");
    }

    @Test
    void ipv6IsPrintedInItsShortForm() throws Exception {
        assertThat(NodeIps.format(ip("2001:0db8:0000:0000:0000:0000:0000:0005"))).isEqualTo("2001:db8::5");
        assertThat(NodeIps.format(ip("2001:db8:0:1:0:0:0:1"))).isEqualTo("2001:db8:0:1::1");
        assertThat(NodeIps.format(ip("fe80::1:0:0:1"))).isEqualTo("fe80::1:0:0:1");
        assertThat(NodeIps.format(ip("2001:db8:1:1:1:1:1:1"))).isEqualTo("2001:db8:1:1:1:1:1:1");
        assertThat(NodeIps.format(ip("::1"))).isEqualTo("::1");
    }
}
