package io.jkubelet.cmd;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code --node-ip}: unset, {@code 0.0.0.0} and {@code ::} choose the node's address as upstream's node address setter:
 * the node's name if it is an IP, its DNS addresses on this machine, the default route's interface.
 */
class NodeIpsTest {

    private static InetAddress ip(String literal) throws UnknownHostException {
        return InetAddress.getByName(literal);
    }

    private final FakeHostNetwork network = new FakeHostNetwork();

    @Test
    void givenAddressesAreKept() {
        assertThat(NodeIps.resolve(List.of("192.168.1.7", "fd00::7"), "node-a", network))
                .containsExactly("192.168.1.7", "fd00::7");
        assertThat(NodeIps.resolve(List.of("192.168.1.7"), "node-a", network)).containsExactly("192.168.1.7");
    }

    @Test
    void unsetTheDefaultRoutesInterfaceGivesTheAddressNotTheFirstInterfaceThatIsUp() {
        // jk-cni0 (10.88.0.1) is up and listed before eth0; the default route leaves through eth0.
        assertThat(NodeIps.resolve(List.of(), "node-a", network)).containsExactly("192.0.2.2");
        assertThat(NodeIps.resolve(List.of("0.0.0.0"), "node-a", network)).containsExactly("192.0.2.2");
        assertThat(NodeIps.resolve(List.of("::"), "node-a", network)).containsExactly("fd00::2");
    }

    @Test
    void aNodeNameThatIsAnIpIsTheAddress() {
        assertThat(NodeIps.resolve(List.of(), "198.51.100.4", network)).containsExactly("198.51.100.4");
    }

    @Test
    void theNodeNamesFirstAddressOnThisMachineComesBeforeTheDefaultRoute() {
        // As /etc/hosts often says: the name is loopback first (never the node's), then an address of this machine.
        network.dns.put("node-a", FakeHostNetwork.ips("127.0.1.1", "10.88.0.1"));
        assertThat(NodeIps.resolve(List.of(), "node-a", network)).containsExactly("10.88.0.1");
    }

    @Test
    void namedAddressesOfThePreferredFamilyComeFirstElseTheFirstOfTheOther() {
        network.dns.put("node-a", FakeHostNetwork.ips("fd00::2", "172.17.0.1"));
        assertThat(NodeIps.resolve(List.of(), "node-a", network)).containsExactly("172.17.0.1");
        assertThat(NodeIps.resolve(List.of("::"), "node-a", network)).containsExactly("fd00::2");
        network.dns.put("node-a", FakeHostNetwork.ips("fd00::2"));
        assertThat(NodeIps.resolve(List.of(), "node-a", network)).containsExactly("fd00::2");
    }

    @Test
    void namedAddressesNotOnThisMachineOrLinkLocalAreNotTheNodesAndTheDefaultRouteDecides() {
        network.dns.put("node-a", FakeHostNetwork.ips("203.0.113.9", "fe80::fc:ff:fe00:1", "127.0.0.1"));
        assertThat(NodeIps.resolve(List.of(), "node-a", network)).containsExactly("192.0.2.2");
    }

    @Test
    void withNothingFoundTheNodeIsLoopback() {
        network.routes = "Iface\tDestination\tGateway\n";
        network.ipv6Routes = null;
        assertThat(NodeIps.resolve(List.of(), "node-a", network)).containsExactly("127.0.0.1");
        assertThat(NodeIps.resolve(List.of("::"), "node-a", network)).containsExactly("::1");
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
