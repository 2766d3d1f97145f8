// jk-cluster-dns: the test cluster's DNS (bin/control-plane starts it), serving the records of the Kubernetes DNS
// specification (https://github.com/kubernetes/dns/blob/master/docs/specification.md) that CoreDNS's `kubernetes`
// plugin serves, from the apiserver's Services and Endpoints (informers: a change is served as soon as it is seen).
// CoreDNS cannot be had on these machines; this is built from the Kubernetes tree's vendor/ (miekg/dns, client-go) by
// bin/lib/kube-build.sh. What it serves, under --domain (cluster.local):
//
//	<svc>.<ns>.svc.<domain>                A: the ClusterIP; for a headless Service its ready endpoints' addresses
//	                                         (and the not-ready ones with publishNotReadyAddresses); CNAME for an
//	                                         ExternalName Service
//	<host>.<svc>.<ns>.svc.<domain>         A: a headless Service's endpoint, <host> being the endpoint's hostname (a
//	                                         pod's spec.hostname when its spec.subdomain is <svc>) or its address
//	                                         with dashes (10-0-0-7)
//	_<port>._<proto>.<svc>.<ns>.svc.<domain>  SRV: the named port of the Service (a ClusterIP Service: one record to
//	                                         <svc>.<ns>.svc.<domain>; a headless one: a record per endpoint)
//	<svc>.<ns>.svc.<domain> SRV            SRV of every named port
//	<a-b-c-d>.<ns>.pod.<domain>            A: a-b-c-d ("pods insecure", as kubeadm configures CoreDNS)
//	<reversed IP>.in-addr.arpa PTR          a ClusterIP's Service name, an endpoint's <host>.<svc>.<ns>.svc.<domain>
//	<domain> SOA / NS                      the zone's SOA
//
// Any other name in the domain is NXDOMAIN; names outside it (and PTR of addresses no Service has) are forwarded to the
// nameservers of the host's resolv.conf (loopback ones skipped), SERVFAIL when none answers. A record not there is
// NODATA (NOERROR with the SOA). AAAA is never answered (the test cluster is IPv4). Not served: wildcard queries,
// pod records verified against pods ("pods verified"), federation, EndpointSlices (Endpoints are read, as CoreDNS
// 1.7 did).
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"strconv"
	"strings"

	"github.com/miekg/dns"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/clientcmd"
)

func main() {
	kubeconfig := flag.String("kubeconfig", "", "the kubeconfig of the DNS's identity (list and watch Services, Endpoints, Namespaces)")
	listen := flag.String("listen", "0.0.0.0:53", "address:port to serve on, UDP and TCP")
	domain := flag.String("domain", "cluster.local", "the cluster domain")
	ttl := flag.Uint("ttl", 5, "TTL of the records served (seconds), as the kubernetes plugin's default")
	resolvConf := flag.String("resolv-conf", "/etc/resolv.conf", "where the nameservers to forward other names to are")
	flag.Parse()

	config, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		log.Fatalf("kubeconfig %s: %v", *kubeconfig, err)
	}
	client, err := kubernetes.NewForConfig(config)
	if err != nil {
		log.Fatalf("client: %v", err)
	}
	factory := informers.NewSharedInformerFactory(client, 0)
	s := &server{
		zone:       dns.Fqdn(strings.ToLower(*domain)),
		ttl:        uint32(*ttl),
		services:   factory.Core().V1().Services().Lister(),
		endpoints:  factory.Core().V1().Endpoints().Lister(),
		namespaces: factory.Core().V1().Namespaces().Lister(),
		upstreams:  upstreams(*resolvConf),
	}
	stop := make(chan struct{})
	factory.Start(stop)
	for informer, synced := range factory.WaitForCacheSync(stop) {
		if !synced {
			log.Fatalf("the informer of %v did not sync", informer)
		}
	}
	log.Printf("serving %s on %s (udp, tcp); forwarding other names to %v", s.zone, *listen, s.upstreams)
	errs := make(chan error, 2)
	for _, network := range []string{"udp", "tcp"} {
		srv := &dns.Server{Addr: *listen, Net: network, Handler: s}
		go func() { errs <- srv.ListenAndServe() }()
	}
	log.Fatal(<-errs)
}

// upstreams are the non-loopback nameservers of resolv.conf, as CoreDNS's `forward . /etc/resolv.conf` (its loop
// plugin refuses a loopback one, which could be this server).
func upstreams(resolvConf string) []string {
	cc, err := dns.ClientConfigFromFile(resolvConf)
	if err != nil {
		log.Printf("no nameservers to forward to (%v): names outside the cluster domain get SERVFAIL", err)
		return nil
	}
	var out []string
	for _, ns := range cc.Servers {
		if ip := net.ParseIP(ns); ip != nil && !ip.IsLoopback() {
			out = append(out, net.JoinHostPort(ns, cc.Port))
		}
	}
	return out
}

type server struct {
	zone       string
	ttl        uint32
	services   listers.ServiceLister
	endpoints  listers.EndpointsLister
	namespaces listers.NamespaceLister
	upstreams  []string
}

func (s *server) ServeDNS(w dns.ResponseWriter, r *dns.Msg) {
	if len(r.Question) != 1 || r.Opcode != dns.OpcodeQuery {
		m := new(dns.Msg)
		m.SetRcode(r, dns.RcodeNotImplemented)
		w.WriteMsg(m)
		return
	}
	q := r.Question[0]
	name := strings.ToLower(q.Name)
	m := new(dns.Msg)
	m.SetReply(r)
	m.RecursionAvailable = true
	switch {
	case dns.IsSubDomain(s.zone, name):
		m.Authoritative = true
		s.answerInZone(m, q, name)
	case q.Qtype == dns.TypePTR && dns.IsSubDomain("in-addr.arpa.", name) && s.answerPTR(m, q, name):
		m.Authoritative = true
	default:
		s.forward(w, r)
		return
	}
	if m.Rcode == dns.RcodeSuccess && len(m.Answer) == 0 || m.Rcode == dns.RcodeNameError {
		m.Ns = []dns.RR{s.soa()}
	}
	s.write(w, r, m)
}

// write sends the answer, truncated (TC, no records) when it does not fit the client's UDP buffer.
func (s *server) write(w dns.ResponseWriter, r *dns.Msg, m *dns.Msg) {
	if _, udp := w.RemoteAddr().(*net.UDPAddr); udp {
		size := dns.MinMsgSize
		if opt := r.IsEdns0(); opt != nil && int(opt.UDPSize()) > size {
			size = int(opt.UDPSize())
		}
		if m.Len() > size {
			m.Truncated = true
			m.Answer, m.Ns, m.Extra = nil, nil, nil
		}
	}
	w.WriteMsg(m)
}

// answerInZone answers a name of the cluster domain: <...>.svc.<zone>, <...>.pod.<zone> or the zone itself.
func (s *server) answerInZone(m *dns.Msg, q dns.Question, name string) {
	rel := dns.SplitDomainName(strings.TrimSuffix(strings.TrimSuffix(name, s.zone), "."))
	switch {
	case len(rel) == 0:
		if q.Qtype == dns.TypeSOA || q.Qtype == dns.TypeANY {
			m.Answer = append(m.Answer, s.soa())
		}
	case rel[len(rel)-1] == "svc":
		s.answerService(m, q, name, rel[:len(rel)-1])
	case rel[len(rel)-1] == "pod":
		s.answerPod(m, q, name, rel[:len(rel)-1])
	default:
		m.Rcode = dns.RcodeNameError
	}
}

// answerService answers <labels>.svc.<zone>, labels being [], [ns], [svc ns], [host svc ns] or [_port _proto svc ns].
func (s *server) answerService(m *dns.Msg, q dns.Question, name string, labels []string) {
	if len(labels) == 0 {
		return // svc.<zone> exists, with no records of its own
	}
	ns := labels[len(labels)-1]
	if _, err := s.namespaces.Get(ns); err != nil {
		m.Rcode = dns.RcodeNameError
		return
	}
	if len(labels) == 1 {
		return
	}
	svc, err := s.services.Services(ns).Get(labels[len(labels)-2])
	if err != nil {
		m.Rcode = dns.RcodeNameError
		return
	}
	ep, _ := s.endpoints.Endpoints(ns).Get(svc.Name)
	switch len(labels) {
	case 2:
		s.answerServiceName(m, q, name, svc, ep)
	case 3:
		s.answerEndpointHost(m, q, name, svc, ep, labels[0])
	case 4:
		if !strings.HasPrefix(labels[0], "_") || !strings.HasPrefix(labels[1], "_") {
			m.Rcode = dns.RcodeNameError
			return
		}
		s.answerPortSRV(m, q, name, svc, ep, labels[0][1:], labels[1][1:])
	default:
		m.Rcode = dns.RcodeNameError
	}
}

func (s *server) answerServiceName(m *dns.Msg, q dns.Question, name string, svc *v1.Service, ep *v1.Endpoints) {
	if svc.Spec.Type == v1.ServiceTypeExternalName {
		target := dns.Fqdn(svc.Spec.ExternalName)
		m.Answer = append(m.Answer, &dns.CNAME{Hdr: s.hdr(name, dns.TypeCNAME), Target: target})
		if q.Qtype == dns.TypeA {
			// As the kubernetes plugin: the target's addresses follow when the upstream knows them.
			if resp := s.exchange(&dns.Msg{Question: []dns.Question{{Name: target, Qtype: dns.TypeA, Qclass: dns.ClassINET}},
				MsgHdr: dns.MsgHdr{Id: dns.Id(), RecursionDesired: true}}, "udp"); resp != nil {
				m.Answer = append(m.Answer, resp.Answer...)
			}
		}
		return
	}
	headless := svc.Spec.ClusterIP == v1.ClusterIPNone
	if q.Qtype == dns.TypeA || q.Qtype == dns.TypeANY {
		if !headless {
			m.Answer = append(m.Answer, s.a(name, svc.Spec.ClusterIP)...)
		} else {
			for _, addr := range addresses(svc, ep) {
				m.Answer = append(m.Answer, s.a(name, addr.address.IP)...)
			}
		}
	}
	if q.Qtype == dns.TypeSRV || q.Qtype == dns.TypeANY {
		for _, port := range svc.Spec.Ports {
			if port.Name != "" {
				proto := strings.ToLower(string(port.Protocol))
				records, extra := s.portSRV(name, svc, ep, port.Name, proto)
				m.Answer = append(m.Answer, records...)
				m.Extra = append(m.Extra, extra...)
			}
		}
	}
}

// answerEndpointHost answers <host>.<svc>.<ns>.svc.<zone>: the Service's endpoint of that hostname (the kubernetes
// plugin serves these for any Service with endpoints, not only headless ones).
func (s *server) answerEndpointHost(m *dns.Msg, q dns.Question, name string, svc *v1.Service, ep *v1.Endpoints, host string) {
	found := false
	for _, addr := range addresses(svc, ep) {
		if endpointHostname(addr.address) == host {
			found = true
			if q.Qtype == dns.TypeA || q.Qtype == dns.TypeANY {
				m.Answer = append(m.Answer, s.a(name, addr.address.IP)...)
			}
		}
	}
	if !found {
		m.Rcode = dns.RcodeNameError
	}
}

// answerPortSRV answers _<port>._<proto>.<svc>.<ns>.svc.<zone>: NXDOMAIN when the Service has no such port.
func (s *server) answerPortSRV(m *dns.Msg, q dns.Question, name string, svc *v1.Service, ep *v1.Endpoints, port, proto string) {
	records, extra := s.portSRV(name, svc, ep, port, proto)
	if len(records) == 0 {
		m.Rcode = dns.RcodeNameError
		return
	}
	if q.Qtype == dns.TypeSRV || q.Qtype == dns.TypeANY {
		m.Answer = append(m.Answer, records...)
		m.Extra = append(m.Extra, extra...)
	}
}

// portSRV are the SRV records of the Service's port of this name and protocol, named name, with the A records of their
// targets: a ClusterIP Service's one record to <svc>.<ns>.svc.<zone>, a headless Service's one per endpoint.
func (s *server) portSRV(name string, svc *v1.Service, ep *v1.Endpoints, port, proto string) (records, extra []dns.RR) {
	serviceName := svc.Name + "." + svc.Namespace + ".svc." + s.zone
	if svc.Spec.ClusterIP != v1.ClusterIPNone {
		for _, p := range svc.Spec.Ports {
			if p.Name == port && strings.ToLower(string(p.Protocol)) == proto {
				records = append(records, s.srv(name, serviceName, uint16(p.Port), 100))
				extra = append(extra, s.a(serviceName, svc.Spec.ClusterIP)...)
			}
		}
		return records, extra
	}
	all := addresses(svc, ep)
	for _, addr := range all {
		for _, p := range addr.ports {
			if p.Name == port && strings.ToLower(string(p.Protocol)) == proto {
				target := endpointHostname(addr.address) + "." + serviceName
				records = append(records, s.srv(name, target, uint16(p.Port), uint16(100/len(all))))
				extra = append(extra, s.a(target, addr.address.IP)...)
			}
		}
	}
	return records, extra
}

// answerPod answers <a-b-c-d>.<ns>.pod.<zone> with a-b-c-d, whether or not such a pod exists ("pods insecure").
func (s *server) answerPod(m *dns.Msg, q dns.Question, name string, labels []string) {
	if len(labels) == 0 {
		return
	}
	if len(labels) != 2 {
		m.Rcode = dns.RcodeNameError
		return
	}
	ip := net.ParseIP(strings.ReplaceAll(labels[0], "-", "."))
	if ip == nil || ip.To4() == nil {
		m.Rcode = dns.RcodeNameError
		return
	}
	if q.Qtype == dns.TypeA || q.Qtype == dns.TypeANY {
		m.Answer = append(m.Answer, s.a(name, ip.String())...)
	}
}

// answerPTR answers the reverse name of a ClusterIP or of a Service's endpoint; false when no Service has the address.
func (s *server) answerPTR(m *dns.Msg, q dns.Question, name string) bool {
	ip := reverseIP(name)
	if ip == "" {
		return false
	}
	services, _ := s.services.List(labels.Everything())
	for _, svc := range services {
		if svc.Spec.ClusterIP == ip {
			m.Answer = append(m.Answer, s.ptr(name, svc.Name+"."+svc.Namespace+".svc."+s.zone))
			return true
		}
	}
	for _, svc := range services {
		ep, err := s.endpoints.Endpoints(svc.Namespace).Get(svc.Name)
		if err != nil {
			continue
		}
		for _, addr := range addresses(svc, ep) {
			if addr.address.IP == ip {
				m.Answer = append(m.Answer, s.ptr(name,
					endpointHostname(addr.address)+"."+svc.Name+"."+svc.Namespace+".svc."+s.zone))
				return true
			}
		}
	}
	return false
}

// forward relays a question about a name outside the cluster to the host's nameservers, over the client's transport.
func (s *server) forward(w dns.ResponseWriter, r *dns.Msg) {
	network := "udp"
	if _, tcp := w.RemoteAddr().(*net.TCPAddr); tcp {
		network = "tcp"
	}
	if resp := s.exchange(r, network); resp != nil {
		resp.Id = r.Id
		w.WriteMsg(resp)
		return
	}
	m := new(dns.Msg)
	m.SetRcode(r, dns.RcodeServerFailure)
	w.WriteMsg(m)
}

func (s *server) exchange(r *dns.Msg, network string) *dns.Msg {
	client := &dns.Client{Net: network}
	for _, upstream := range s.upstreams {
		if resp, _, err := client.Exchange(r, upstream); err == nil {
			return resp
		}
	}
	return nil
}

// endpointAddress is one address of a Service's Endpoints with its subset's ports.
type endpointAddress struct {
	address v1.EndpointAddress
	ports   []v1.EndpointPort
}

// addresses are the Service's ready endpoint addresses, and its not-ready ones when it publishes them.
func addresses(svc *v1.Service, ep *v1.Endpoints) []endpointAddress {
	if ep == nil {
		return nil
	}
	var out []endpointAddress
	for _, subset := range ep.Subsets {
		for _, a := range subset.Addresses {
			out = append(out, endpointAddress{a, subset.Ports})
		}
		if svc.Spec.PublishNotReadyAddresses {
			for _, a := range subset.NotReadyAddresses {
				out = append(out, endpointAddress{a, subset.Ports})
			}
		}
	}
	return out
}

// endpointHostname is the endpoint's hostname, else its address with dashes, as the kubernetes plugin names it.
func endpointHostname(a v1.EndpointAddress) string {
	if a.Hostname != "" {
		return strings.ToLower(a.Hostname)
	}
	return strings.ReplaceAll(a.IP, ".", "-")
}

// reverseIP is the IPv4 address of d.c.b.a.in-addr.arpa., or "".
func reverseIP(name string) string {
	labels := dns.SplitDomainName(strings.TrimSuffix(name, "in-addr.arpa."))
	if len(labels) != 4 {
		return ""
	}
	for i, j := 0, 3; i < j; i, j = i+1, j-1 {
		labels[i], labels[j] = labels[j], labels[i]
	}
	for _, l := range labels {
		if n, err := strconv.Atoi(l); err != nil || n < 0 || n > 255 {
			return ""
		}
	}
	return strings.Join(labels, ".")
}

func (s *server) hdr(name string, rrtype uint16) dns.RR_Header {
	return dns.RR_Header{Name: name, Rrtype: rrtype, Class: dns.ClassINET, Ttl: s.ttl}
}

func (s *server) a(name, ip string) []dns.RR {
	parsed := net.ParseIP(ip)
	if parsed == nil || parsed.To4() == nil {
		return nil
	}
	return []dns.RR{&dns.A{Hdr: s.hdr(name, dns.TypeA), A: parsed.To4()}}
}

func (s *server) srv(name, target string, port, weight uint16) dns.RR {
	return &dns.SRV{Hdr: s.hdr(name, dns.TypeSRV), Priority: 0, Weight: weight, Port: port, Target: target}
}

func (s *server) ptr(name, target string) dns.RR {
	return &dns.PTR{Hdr: s.hdr(name, dns.TypePTR), Ptr: target}
}

func (s *server) soa() dns.RR {
	return &dns.SOA{Hdr: s.hdr(s.zone, dns.TypeSOA), Ns: "ns.dns." + s.zone, Mbox: "hostmaster." + s.zone,
		Serial: 1, Refresh: 7200, Retry: 1800, Expire: 86400, Minttl: s.ttl}
}

func init() {
	log.SetOutput(os.Stderr)
	log.SetPrefix(fmt.Sprintf("jk-cluster-dns[%d] ", os.Getpid()))
}
