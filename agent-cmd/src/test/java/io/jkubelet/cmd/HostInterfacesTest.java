package io.jkubelet.cmd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jkubelet.cmd.HostInterfaces.NoHostAddressException;
import io.jkubelet.cmd.HostInterfaces.Route;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/** The machine's default address as upstream's {@code ChooseHostInterface} finds it: by the default route. */
class HostInterfacesTest {
    private final FakeHostNetwork network = new FakeHostNetwork();

    private static InetAddress ip(String literal) {
        return FakeHostNetwork.ips(literal).getFirst();
    }

    @Test
    void theDefaultRoutesOfBothTablesAreThoseToAnyDestinationIpv6OnesWithAGateway() throws Exception {
        assertThat(HostInterfaces.defaultRoutes(FakeHostNetwork.ROUTES, false)).containsExactly(new Route("eth0", false));
        // Loopback's "unreachable" default route has no gateway.
        assertThat(HostInterfaces.defaultRoutes(FakeHostNetwork.IPV6_ROUTES, true)).containsExactly(new Route("eth0", true));
    }

    @Test
    void theAddressIsTheDefaultRouteInterfacesNotTheFirstInterfaceThatIsUp() throws Exception {
        assertThat(HostInterfaces.choose(network, false)).isEqualTo(ip("192.0.2.2"));
        // IPv6 first: the IPv6 default route's interface, its global address (not its link-local one).
        assertThat(HostInterfaces.choose(network, true)).isEqualTo(ip("fd00::2"));
    }

    @Test
    void withoutAnAddressOfThePreferredFamilyTheOtherFamilysRouteIsTaken() throws Exception {
        network.with(new HostNetwork.Interface("eth0", true, false, FakeHostNetwork.ips("fd00::2")));
        assertThat(HostInterfaces.choose(network, false)).isEqualTo(ip("fd00::2"));
    }

    @Test
    void aDefaultRouteThroughAnInterfaceThatIsDownGivesNoAddress() {
        network.with(new HostNetwork.Interface("eth0", false, false, FakeHostNetwork.ips("192.0.2.2", "fd00::2")));
        assertThatThrownBy(() -> HostInterfaces.choose(network, false)).isInstanceOf(NoHostAddressException.class)
                .hasMessage("unable to select an IP from default routes.");
    }

    @Test
    void noDefaultRouteIsUpstreamsError() {
        network.routes = FakeHostNetwork.ROUTES.replace("eth0\t00000000\t010200C0", "eth0\t000100C0\t010200C0");
        network.ipv6Routes = null;
        assertThatThrownBy(() -> HostInterfaces.choose(network, false)).isInstanceOf(NoHostAddressException.class)
                .hasMessage("no default routes found in \"/proc/net/route\" or \"/proc/net/ipv6_route\"");
    }

    @Test
    void aRouteThroughAnUnknownInterfaceIsAnError() {
        network.routes = FakeHostNetwork.ROUTES.replace("eth0\t00000000", "wg0\t00000000");
        assertThatThrownBy(() -> HostInterfaces.choose(network, false)).isInstanceOf(NoHostAddressException.class)
                .hasMessage("route ip+net: no such network interface wg0");
    }

    @Test
    void aLineThatIsNoRouteIsAnErrorNamingTheTable() {
        assertThatThrownBy(() -> HostInterfaces.defaultRoutes("eth0 0000zz00 010200C0 0003\n", false))
                .isInstanceOf(NoHostAddressException.class)
                .hasMessage("invalid route in /proc/net/route: \"eth0 0000zz00 010200C0 0003\"");
    }

    @Test
    void withoutARoutingTableTheFirstGlobalAddressOfAnInterfaceThatIsUpIsTaken() throws Exception {
        network.routes = null;
        network.with(new HostNetwork.Interface("jk-cni0", false, false, FakeHostNetwork.ips("10.88.0.1")));
        // lo is loopback, jk-cni0 down, eth0's link-local address is not global: eth0's IPv4 address.
        assertThat(HostInterfaces.choose(network, false)).isEqualTo(ip("192.0.2.2"));
        assertThat(HostInterfaces.choose(network, true)).isEqualTo(ip("fd00::2"));
        network.interfaces.clear();
        assertThatThrownBy(() -> HostInterfaces.choose(network, false)).hasMessage("no interfaces found on host.");
    }

    @Test
    void globalUnicastIsGos() {
        assertThat(HostInterfaces.isGlobalUnicast(ip("10.88.0.1"))).isTrue();
        assertThat(HostInterfaces.isGlobalUnicast(ip("fd00::2"))).isTrue();
        assertThat(HostInterfaces.isGlobalUnicast(ip("127.0.0.1"))).isFalse();
        assertThat(HostInterfaces.isGlobalUnicast(ip("fe80::1"))).isFalse();
        assertThat(HostInterfaces.isGlobalUnicast(ip("224.0.0.1"))).isFalse();
        assertThat(HostInterfaces.isGlobalUnicast(ip("255.255.255.255"))).isFalse();
        assertThat(HostInterfaces.isGlobalUnicast(ip("0.0.0.0"))).isFalse();
    }
}
