// jk-e2e-coredns: agnhost's /coredns in the conformance images (bench/conformance/images.sh). It is NOT CoreDNS: it
// is a stand-in for the CoreDNS 1.6.2 that upstream's agnhost image ships, serving what upstream's e2e DNS specs
// write into their Corefile (test/e2e/network/dns_common.go generateCoreDNSConfigmap):
//
//	. {
//		hosts {
//			1.1.1.1 notexistname.resolv.conf.local
//		}
//		log
//	}
//
// CoreDNS's source is neither in Debian nor in the Kubernetes tree; this is built from the tree's vendored miekg/dns
// by bin/lib/kube-build.sh (jk_ensure_e2e_coredns). Usage as CoreDNS's: `/coredns -conf FILE` (or -conf=FILE).
//
// What it does as CoreDNS 1.6.2 does:
//   - Server blocks `ZONES { DIRECTIVES }`, each zone `[dns://]ZONE[:PORT]` (port 53 when none), several blocks, on
//     one port or several; a query goes to the block of the most specific zone on its port (DS to the parent's);
//     a name in no block's zone is REFUSED, a class other than IN is REFUSED, an EDNS version other than 0 BADVERS.
//     Every port is served on UDP and TCP, on all addresses.
//   - hosts [FILE [ZONES...]] { IP NAME [NAME...] ... ttl SECONDS / no_reverse / reload DURATION }: A and AAAA of the
//     inline entries and of FILE's (default /etc/hosts, re-read when it changes, every 5 s unless `reload` says
//     otherwise; names outside ZONES, by default the block's zones, are dropped), PTR of their addresses (unless
//     no_reverse), TTL 3600 unless `ttl`; names are case-insensitive and fully qualified. The answer is
//     authoritative; a name with records of the other family only, or asked for another type, gets NOERROR with no
//     records. A name in the zones with no entry, and a PTR of an address no entry has, get SERVFAIL: CoreDNS's hosts
//     plugin returns SERVFAIL there ("we don't have a SOA", plugin/hosts/hosts.go), not NXDOMAIN, and with no plugin
//     after it (here there is none) so does every query it passes on.
//   - log: one line a query on stdout, the common log format of CoreDNS's log plugin:
//     [INFO] {remote}:{port} - {>id} "{type} {class} {name} {proto} {size} {>do} {>bufsize}" {rcode} {>rflags} {rsize} {duration}
//   - A UDP answer larger than the client's buffer (512, or its EDNS0 size) is sent with TC set and no records (CoreDNS
//     keeps those that fit), for the client to ask again over TCP; the answer has an OPT record when the query had one.
//
// What it refuses at start, exit code 1, with an error naming the file, line and what it does not implement: every
// other directive (plugin), `log` with arguments or a block, hosts' `fallthrough` (its next plugin would be one this
// stand-in lacks), an inline hosts line that is not `IP NAME...`, a server block with no `hosts`, zones of other
// transports (tls://, grpc://, https://) or CIDR form, environment substitution ({$VAR}), snippets and import.
// Nothing in a Corefile is ignored silently.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"os/signal"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/miekg/dns"
)

const (
	// defaultPort is CoreDNS's port for a zone without one (its -dns.port default).
	defaultPort = "53"
	// defaultTTL and defaultReload are the hosts plugin's defaults.
	defaultTTL    = 3600
	defaultReload = 5 * time.Second
	// defaultHostsFile is the file the hosts plugin reads when the Corefile names none.
	defaultHostsFile = "/etc/hosts"
)

// queryLog is where the log plugin writes, as CoreDNS does: stdout.
var queryLog = log.New(os.Stdout, "", 0)

func main() {
	conf := flag.String("conf", "", "Corefile to load, as CoreDNS's -conf")
	flag.Parse()
	if flag.NArg() > 0 {
		fail(fmt.Errorf("unexpected arguments %q (this stand-in for CoreDNS takes only -conf FILE)", flag.Args()))
	}
	if *conf == "" {
		fail(errors.New("-conf FILE is required (this stand-in for CoreDNS has no default Corefile)"))
	}
	text, err := os.ReadFile(*conf)
	if err != nil {
		fail(err)
	}
	blocks, err := parseCorefile(*conf, string(text))
	if err != nil {
		fail(err)
	}
	ports, err := buildServers(*conf, blocks)
	if err != nil {
		fail(err)
	}
	var served []string
	for port, m := range ports {
		if err := listen(port, m); err != nil {
			fail(err)
		}
		for zone := range m.zones {
			served = append(served, zone+":"+port)
		}
	}
	sort.Strings(served)
	fmt.Println(strings.Join(served, "\n"))
	fmt.Println("jk-e2e-coredns: a stand-in for CoreDNS serving only the hosts and log plugins of a Corefile")
	for _, p := range ports {
		for _, s := range p.zones {
			s.hosts.startReloading()
		}
	}
	// A pod's container runs it as pid 1: it stops on SIGTERM only because it asks for it.
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	<-signals
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "%v\n", err)
	os.Exit(1)
}

// listen serves mux on port over UDP and TCP on every address; an address in use is an error at once.
func listen(port string, mux *mux) error {
	addr := ":" + port
	pc, err := net.ListenPacket("udp", addr)
	if err != nil {
		return fmt.Errorf("listen udp %s: %v", addr, err)
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen tcp %s: %v", addr, err)
	}
	udp := &dns.Server{PacketConn: pc, Handler: mux}
	tcp := &dns.Server{Listener: l, Handler: mux}
	for _, s := range []*dns.Server{udp, tcp} {
		go func(s *dns.Server) {
			if err := s.ActivateAndServe(); err != nil {
				fail(fmt.Errorf("serving %s: %v", addr, err))
			}
		}(s)
	}
	return nil
}

// ---- Corefile syntax (Caddy's): tokens, server blocks, directives ----

type token struct {
	text string
	line int
}

// tokenize splits a Corefile into whitespace-separated tokens, with "quoted strings" (\" inside) and # comments
// (a # that starts a token runs to the end of its line).
func tokenize(file, text string) ([]token, error) {
	var out []token
	line := 1
	rs := []rune(text)
	for i := 0; i < len(rs); {
		c := rs[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '#':
			for i < len(rs) && rs[i] != '\n' {
				i++
			}
		case c == '"':
			start := line
			var b strings.Builder
			i++
			for ; i < len(rs) && rs[i] != '"'; i++ {
				if rs[i] == '\\' && i+1 < len(rs) && rs[i+1] == '"' {
					i++
				}
				if rs[i] == '\n' {
					line++
				}
				b.WriteRune(rs[i])
			}
			if i == len(rs) {
				return nil, fmt.Errorf("%s:%d - Error during parsing: unterminated quoted string", file, start)
			}
			i++
			out = append(out, token{b.String(), start})
		default:
			start := i
			for i < len(rs) && !strings.ContainsRune(" \t\r\n", rs[i]) {
				i++
			}
			out = append(out, token{string(rs[start:i]), line})
		}
	}
	for _, t := range out {
		if strings.Contains(t.text, "{$") || strings.Contains(t.text, "{%") {
			return nil, fmt.Errorf("%s:%d - Error during parsing: environment substitution in %q is not implemented by this stand-in for CoreDNS", file, t.line, t.text)
		}
	}
	return out, nil
}

// serverBlock is `KEYS { DIRECTIVES }`.
type serverBlock struct {
	keys       []token
	directives []directive
}

// directive is `NAME ARGS... [{ LINES }]`: a plugin's configuration.
type directive struct {
	name  token
	args  []token
	block [][]token // the lines of its { } block, each a list of tokens
}

type parser struct {
	file string
	toks []token
	i    int
}

func (p *parser) errf(line int, format string, a ...interface{}) error {
	return fmt.Errorf("%s:%d - Error during parsing: %s", p.file, line, fmt.Sprintf(format, a...))
}

func (p *parser) more() bool    { return p.i < len(p.toks) }
func (p *parser) peek() token   { return p.toks[p.i] }
func (p *parser) next() token   { t := p.toks[p.i]; p.i++; return t }
func (p *parser) lastLine() int { return p.toks[len(p.toks)-1].line }

func parseCorefile(file, text string) ([]serverBlock, error) {
	toks, err := tokenize(file, text)
	if err != nil {
		return nil, err
	}
	p := &parser{file: file, toks: toks}
	var blocks []serverBlock
	for p.more() {
		b, err := p.serverBlock()
		if err != nil {
			return nil, err
		}
		blocks = append(blocks, b)
	}
	if len(blocks) == 0 {
		return nil, fmt.Errorf("%s: no server block", file)
	}
	return blocks, nil
}

// serverBlock reads the keys (the tokens of one line, and of the next ones while a line ends with a comma), then
// the directives up to the block's closing brace.
func (p *parser) serverBlock() (serverBlock, error) {
	var b serverBlock
	first := p.peek()
	line, continued := first.line, false
	for p.more() && p.peek().text != "{" && (p.peek().line == line || continued) {
		t := p.next()
		line, continued = t.line, strings.HasSuffix(t.text, ",")
		if t.text == "}" {
			return b, p.errf(t.line, "unexpected '}'")
		}
		if strings.HasPrefix(t.text, "(") || t.text == "import" {
			return b, p.errf(t.line, "snippets and import are not implemented by this stand-in for CoreDNS")
		}
		for _, k := range strings.Split(t.text, ",") {
			if k != "" {
				b.keys = append(b.keys, token{k, t.line})
			}
		}
	}
	if !p.more() || p.peek().text != "{" {
		return b, p.errf(line, "the server block %q must be followed by '{' (a Corefile of one server block without braces is not implemented by this stand-in for CoreDNS)", first.text)
	}
	if len(b.keys) == 0 {
		return b, p.errf(line, "a server block needs at least one zone")
	}
	p.next()
	for {
		if !p.more() {
			return b, p.errf(p.lastLine(), "server block %q is not closed by '}'", first.text)
		}
		t := p.next()
		switch t.text {
		case "}":
			return b, nil
		case "{":
			return b, p.errf(t.line, "unexpected '{'")
		}
		d := directive{name: t}
		for p.more() && p.peek().line == t.line && p.peek().text != "{" && p.peek().text != "}" {
			d.args = append(d.args, p.next())
		}
		if p.more() && p.peek().text == "{" {
			p.next()
			if err := p.directiveBlock(&d); err != nil {
				return b, err
			}
		}
		b.directives = append(b.directives, d)
	}
}

// directiveBlock reads a directive's { } block: its lines, each the tokens that share a source line.
func (p *parser) directiveBlock(d *directive) error {
	for {
		if !p.more() {
			return p.errf(p.lastLine(), "the block of %s is not closed by '}'", d.name.text)
		}
		t := p.next()
		switch t.text {
		case "}":
			return nil
		case "{":
			return p.errf(t.line, "unexpected '{' in the block of %s", d.name.text)
		}
		entry := []token{t}
		for p.more() && p.peek().line == t.line && p.peek().text != "}" && p.peek().text != "{" {
			entry = append(entry, p.next())
		}
		d.block = append(d.block, entry)
	}
}

// ---- configuration: zones, ports, the plugins of each block ----

// mux is one port's server: the zones of the blocks served there.
type mux struct {
	zones map[string]*site
}

// site is one zone of a server block: its plugin chain, log (optional) then hosts.
type site struct {
	zone  string
	log   bool
	hosts *hosts
}

func buildServers(file string, blocks []serverBlock) (map[string]*mux, error) {
	ports := map[string]*mux{}
	for _, b := range blocks {
		var zones, zonePorts []string
		for _, k := range b.keys {
			zone, port, err := parseZoneKey(k.text)
			if err != nil {
				return nil, fmt.Errorf("%s:%d - Error during parsing: %v", file, k.line, err)
			}
			zones = append(zones, zone)
			zonePorts = append(zonePorts, port)
		}
		var h *hosts
		logged := false
		for _, d := range b.directives {
			switch d.name.text {
			case "hosts":
				if h != nil {
					return nil, fmt.Errorf("%s:%d - Error during parsing: plugin/hosts: this plugin can only be used once per Server Block", file, d.name.line)
				}
				var err error
				if h, err = parseHosts(file, d, zones); err != nil {
					return nil, err
				}
			case "log":
				if len(d.args) > 0 || d.block != nil {
					return nil, fmt.Errorf("%s:%d - Error during parsing: log with arguments or a block is not implemented by this stand-in for CoreDNS (only a bare `log`)", file, d.name.line)
				}
				logged = true
			default:
				return nil, fmt.Errorf("%s:%d - Error during parsing: Unknown directive '%s' (this stand-in for CoreDNS implements only the hosts and log plugins)", file, d.name.line, d.name.text)
			}
		}
		if h == nil {
			return nil, fmt.Errorf("%s:%d - Error during parsing: server block %s has no hosts plugin; a block serving nothing is not implemented by this stand-in for CoreDNS", file, b.keys[0].line, b.keys[0].text)
		}
		for i, zone := range zones {
			m := ports[zonePorts[i]]
			if m == nil {
				m = &mux{zones: map[string]*site{}}
				ports[zonePorts[i]] = m
			}
			if _, dup := m.zones[zone]; dup {
				return nil, fmt.Errorf("%s:%d - Error during parsing: cannot serve dns://%s:%s - it is already defined", file, b.keys[i].line, zone, zonePorts[i])
			}
			m.zones[zone] = &site{zone: zone, log: logged, hosts: h}
		}
	}
	return ports, nil
}

// parseZoneKey reads a server block key, [dns://]ZONE[:PORT], into the zone (lower case, fully qualified) and port.
func parseZoneKey(key string) (zone, port string, err error) {
	s := key
	if i := strings.Index(s, "://"); i >= 0 {
		if scheme := strings.ToLower(s[:i]); scheme != "dns" {
			return "", "", fmt.Errorf("zone %q: the %s:// transport is not implemented by this stand-in for CoreDNS (only dns://)", key, scheme)
		}
		s = s[i+3:]
	}
	port = defaultPort
	if i := strings.LastIndex(s, ":"); i >= 0 {
		s, port = s[:i], s[i+1:]
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return "", "", fmt.Errorf("zone %q: port %q is not a number from 1 to 65535", key, port)
		}
	}
	if strings.Contains(s, "/") {
		return "", "", fmt.Errorf("zone %q: a zone in CIDR form is not implemented by this stand-in for CoreDNS", key)
	}
	if s == "" {
		return "", "", fmt.Errorf("zone %q: no zone", key)
	}
	if _, ok := dns.IsDomainName(s); !ok {
		return "", "", fmt.Errorf("zone %q: %q is not a domain name", key, s)
	}
	return normalize(s), port, nil
}

// normalize is a name as the hosts plugin keys it: lower case, fully qualified.
func normalize(name string) string { return strings.ToLower(dns.Fqdn(name)) }

// ---- the hosts plugin ----

// hostsMap holds entries of hosts(5) lines: the addresses of each name by family, and the names of each address.
type hostsMap struct {
	name4, name6 map[string][]net.IP
	addr         map[string][]string
}

func newHostsMap() *hostsMap {
	return &hostsMap{name4: map[string][]net.IP{}, name6: map[string][]net.IP{}, addr: map[string][]string{}}
}

// add records ip for each of names that is in origins (the hosts plugin drops the others); the names it dropped.
func (m *hostsMap) add(ip net.IP, names []string, origins []string, autoReverse bool) (dropped []string) {
	for _, n := range names {
		name := normalize(n)
		if matchZone(origins, name) == "" {
			dropped = append(dropped, n)
			continue
		}
		if ip.To4() != nil {
			m.name4[name] = append(m.name4[name], ip)
		} else {
			m.name6[name] = append(m.name6[name], ip)
		}
		if autoReverse {
			m.addr[ip.String()] = append(m.addr[ip.String()], name)
		}
	}
	return dropped
}

// hosts is the hosts plugin of one server block: the Corefile's inline entries and FILE's, re-read when it changes.
type hosts struct {
	origins     []string
	ttl         uint32
	autoReverse bool
	reload      time.Duration
	path        string
	inline      *hostsMap

	mu    sync.RWMutex
	file  *hostsMap
	mtime time.Time
	size  int64
}

func parseHosts(file string, d directive, blockZones []string) (*hosts, error) {
	errf := func(line int, format string, a ...interface{}) error {
		return fmt.Errorf("%s:%d - Error during parsing: plugin/hosts: %s", file, line, fmt.Sprintf(format, a...))
	}
	h := &hosts{origins: blockZones, ttl: defaultTTL, autoReverse: true, reload: defaultReload, path: defaultHostsFile,
		inline: newHostsMap(), file: newHostsMap()}
	if len(d.args) > 0 {
		h.path = d.args[0].text
		if len(d.args) > 1 {
			h.origins = nil
			for _, z := range d.args[1:] {
				zone, _, err := parseZoneKey(z.text)
				if err != nil {
					return nil, errf(z.line, "%v", err)
				}
				h.origins = append(h.origins, zone)
			}
		}
	}
	if st, err := os.Stat(h.path); err != nil {
		if !os.IsNotExist(err) {
			return nil, errf(d.name.line, "unable to access hosts file '%s': %v", h.path, err)
		}
		queryLog.Printf("[WARNING] plugin/hosts: File does not exist: %s", h.path)
	} else if st.IsDir() {
		queryLog.Printf("[WARNING] plugin/hosts: Hosts file %q is a directory", h.path)
	}
	type inlineLine struct {
		ip    net.IP
		names []token
	}
	var lines []inlineLine
	for _, l := range d.block {
		opt, args := l[0], l[1:]
		switch opt.text {
		case "ttl":
			if len(args) != 1 {
				return nil, errf(opt.line, "ttl needs a time in second")
			}
			n, err := strconv.Atoi(args[0].text)
			if err != nil {
				return nil, errf(opt.line, "ttl needs a number of second")
			}
			if n <= 0 || n > 65535 {
				return nil, errf(opt.line, "ttl provided is invalid")
			}
			h.ttl = uint32(n)
		case "no_reverse":
			if len(args) != 0 {
				return nil, errf(opt.line, "no_reverse takes no arguments")
			}
			h.autoReverse = false
		case "reload":
			if len(args) != 1 {
				return nil, errf(opt.line, "reload needs a duration (zero seconds to disable)")
			}
			r, err := time.ParseDuration(args[0].text)
			if err != nil {
				return nil, errf(opt.line, "invalid duration for reload '%s'", args[0].text)
			}
			if r < 0 {
				return nil, errf(opt.line, "invalid negative duration for reload '%s'", args[0].text)
			}
			h.reload = r
		case "fallthrough":
			return nil, errf(opt.line, "fallthrough is not implemented by this stand-in for CoreDNS (it has no plugin to fall through to)")
		default:
			ip := parseIP(opt.text)
			if ip == nil {
				return nil, errf(opt.line, "'%s' is neither an IP address of an inline hosts entry nor an option this stand-in for CoreDNS implements (ttl, no_reverse, reload)", opt.text)
			}
			if len(args) == 0 {
				return nil, errf(opt.line, "the inline hosts entry '%s' names no host", opt.text)
			}
			lines = append(lines, inlineLine{ip, args})
		}
	}
	// The entries are recorded once the options are read: no_reverse applies to lines above it too, as in CoreDNS.
	for _, l := range lines {
		names := make([]string, len(l.names))
		for i, n := range l.names {
			names[i] = n.text
		}
		for _, n := range h.inline.add(l.ip, names, h.origins, h.autoReverse) {
			queryLog.Printf("[WARNING] plugin/hosts: %s:%d: %s is in none of the zones %v: dropped, as CoreDNS drops it", file, l.names[0].line, n, h.origins)
		}
	}
	h.readFile()
	return h, nil
}

// parseIP is the address of a hosts line, an IPv6 zone (%eth0) left out.
func parseIP(s string) net.IP {
	if i := strings.Index(s, "%"); i >= 0 {
		s = s[:i]
	}
	return net.ParseIP(s)
}

// readFile parses the hosts file again when its modification time or size changed; a file that cannot be read
// leaves the entries as they were (CoreDNS warned about a missing file at start).
func (h *hosts) readFile() {
	f, err := os.Open(h.path)
	if err != nil {
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err == nil && h.mtime.Equal(st.ModTime()) && h.size == st.Size() {
		return
	}
	m := newHostsMap()
	scanner := bufio.NewScanner(f)
	for scanner.Scan() {
		line := scanner.Text()
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		fields := strings.Fields(line)
		if len(fields) < 2 {
			continue
		}
		if ip := parseIP(fields[0]); ip != nil {
			m.add(ip, fields[1:], h.origins, h.autoReverse)
		}
	}
	h.mu.Lock()
	h.file = m
	if st != nil {
		h.mtime, h.size = st.ModTime(), st.Size()
	}
	h.mu.Unlock()
}

func (h *hosts) startReloading() {
	if h.reload == 0 {
		return
	}
	go func() {
		for range time.Tick(h.reload) {
			h.readFile()
		}
	}()
}

// lookup4, lookup6 and lookupAddr answer from the file's entries, then the inline ones.
func (h *hosts) lookup4(name string) []net.IP {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return append(append([]net.IP(nil), h.file.name4[name]...), h.inline.name4[name]...)
}

func (h *hosts) lookup6(name string) []net.IP {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return append(append([]net.IP(nil), h.file.name6[name]...), h.inline.name6[name]...)
}

func (h *hosts) lookupAddr(addr string) []string {
	ip := net.ParseIP(addr)
	if ip == nil {
		return nil
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	return append(append([]string(nil), h.file.addr[ip.String()]...), h.inline.addr[ip.String()]...)
}

// serve answers as CoreDNS's hosts plugin: a written answer, or an rcode for the server to answer with (SERVFAIL
// where the plugin would pass the query on: there is no next plugin).
func (h *hosts) serve(r *dns.Msg, qname string) (*dns.Msg, int) {
	qtype := r.Question[0].Qtype
	if matchZone(h.origins, qname) == "" && qtype != dns.TypePTR {
		return nil, dns.RcodeServerFailure // not its zone: next plugin, none
	}
	var answers []dns.RR
	switch qtype {
	case dns.TypePTR:
		names := h.lookupAddr(addressFromReverse(qname))
		if len(names) == 0 {
			return nil, dns.RcodeServerFailure // next plugin, none
		}
		for _, n := range names {
			answers = append(answers, &dns.PTR{Hdr: h.hdr(qname, dns.TypePTR), Ptr: dns.Fqdn(n)})
		}
	case dns.TypeA:
		for _, ip := range h.lookup4(qname) {
			answers = append(answers, &dns.A{Hdr: h.hdr(qname, dns.TypeA), A: ip})
		}
	case dns.TypeAAAA:
		for _, ip := range h.lookup6(qname) {
			answers = append(answers, &dns.AAAA{Hdr: h.hdr(qname, dns.TypeAAAA), AAAA: ip})
		}
	}
	if len(answers) == 0 && len(h.lookup4(qname)) == 0 && len(h.lookup6(qname)) == 0 {
		// CoreDNS: "We want to send an NXDOMAIN, but because of /etc/hosts' setup we don't have a SOA, so we make it
		// SERVFAIL".
		return nil, dns.RcodeServerFailure
	}
	m := new(dns.Msg)
	m.SetReply(r)
	m.Authoritative = true
	m.Answer = answers
	return m, dns.RcodeSuccess
}

func (h *hosts) hdr(name string, rrtype uint16) dns.RR_Header {
	return dns.RR_Header{Name: name, Rrtype: rrtype, Class: dns.ClassINET, Ttl: h.ttl}
}

// addressFromReverse is the address of a d.c.b.a.in-addr.arpa. or a nibble ip6.arpa. name, or "".
func addressFromReverse(name string) string {
	switch {
	case strings.HasSuffix(name, ".in-addr.arpa."):
		labels := dns.SplitDomainName(strings.TrimSuffix(name, ".in-addr.arpa."))
		if len(labels) != 4 {
			return ""
		}
		return labels[3] + "." + labels[2] + "." + labels[1] + "." + labels[0]
	case strings.HasSuffix(name, ".ip6.arpa."):
		labels := dns.SplitDomainName(strings.TrimSuffix(name, ".ip6.arpa."))
		if len(labels) != 32 {
			return ""
		}
		var b strings.Builder
		for i := 31; i >= 0; i-- {
			b.WriteString(labels[i])
			if i%4 == 0 && i > 0 {
				b.WriteByte(':')
			}
		}
		return b.String()
	}
	return ""
}

// matchZone is the most specific of zones that name is in, or "".
func matchZone(zones []string, name string) string {
	best := ""
	for _, z := range zones {
		if dns.IsSubDomain(z, name) && len(z) > len(best) {
			best = z
		}
	}
	return best
}

// ---- the server: routing a query to its zone, the log plugin, writing the answer ----

func (m *mux) ServeDNS(w dns.ResponseWriter, r *dns.Msg) {
	start := time.Now()
	if len(r.Question) == 0 {
		writeReply(w, r, errorReply(r, dns.RcodeServerFailure))
		return
	}
	q := r.Question[0]
	if q.Qclass != dns.ClassINET {
		writeReply(w, r, errorReply(r, dns.RcodeRefused))
		return
	}
	if opt := r.IsEdns0(); opt != nil && opt.Version() != 0 {
		writeReply(w, r, badVersion(r))
		return
	}
	s := m.route(strings.ToLower(q.Name), q.Qtype)
	if s == nil {
		writeReply(w, r, errorReply(r, dns.RcodeRefused))
		return
	}
	s.serve(w, r, start)
}

// route is the site of the most specific zone on this port that holds name; a DS query goes to the parent's zone
// when this port serves it too (the DS lives there), as CoreDNS routes it.
func (m *mux) route(name string, qtype uint16) *site {
	var ds *site
	for off, end := 0, false; !end; off, end = dns.NextLabel(name, off) {
		if s, ok := m.zones[name[off:]]; ok {
			if qtype != dns.TypeDS {
				return s
			}
			ds = s
		}
	}
	if ds != nil {
		return ds
	}
	return m.zones["."]
}

func (s *site) serve(w dns.ResponseWriter, r *dns.Msg, start time.Time) {
	qname := strings.ToLower(r.Question[0].Name)
	reply, rcode := s.hosts.serve(r, qname)
	if reply == nil {
		reply = errorReply(r, rcode)
	}
	written := writeReply(w, r, reply)
	if s.log {
		logQuery(w, r, written, start)
	}
}

func errorReply(r *dns.Msg, rcode int) *dns.Msg {
	m := new(dns.Msg)
	m.SetRcode(r, rcode)
	return m
}

// badVersion is CoreDNS's answer to an EDNS version it does not know: BADVERS, the question left out.
func badVersion(r *dns.Msg) *dns.Msg {
	m := new(dns.Msg)
	m.SetReply(r)
	m.Question = nil
	opt := &dns.OPT{Hdr: dns.RR_Header{Name: ".", Rrtype: dns.TypeOPT}}
	opt.SetVersion(0)
	m.Rcode = dns.RcodeBadVers
	m.Extra = []dns.RR{opt}
	return m
}

// bufSize is what the client takes: over TCP a whole message, over UDP 512 bytes or its EDNS0 buffer if larger.
func bufSize(w dns.ResponseWriter, r *dns.Msg) int {
	if _, tcp := w.RemoteAddr().(*net.TCPAddr); tcp {
		return dns.MaxMsgSize
	}
	size := dns.MinMsgSize
	if opt := r.IsEdns0(); opt != nil && int(opt.UDPSize()) > size {
		size = int(opt.UDPSize())
	}
	return size
}

// writeReply adds an OPT record when the query had one (its buffer size and DO bit), truncates what does not fit
// the client's buffer, and writes the answer; the message written.
func writeReply(w dns.ResponseWriter, r, m *dns.Msg) *dns.Msg {
	if opt := r.IsEdns0(); opt != nil && m.IsEdns0() == nil {
		o := &dns.OPT{Hdr: dns.RR_Header{Name: ".", Rrtype: dns.TypeOPT}}
		o.SetUDPSize(opt.UDPSize())
		if opt.Do() {
			o.SetDo()
		}
		m.Extra = append(m.Extra, o)
	}
	if size := bufSize(w, r); m.Len() > size {
		m.Compress = true
		if m.Len() > size {
			m.Truncated = true
			m.Answer, m.Ns = nil, nil
			var extra []dns.RR
			for _, rr := range m.Extra {
				if rr.Header().Rrtype == dns.TypeOPT {
					extra = append(extra, rr)
				}
			}
			m.Extra = extra
		}
	}
	w.WriteMsg(m)
	return m
}

// logQuery writes the log plugin's line for the query and its answer, in CoreDNS's common log format.
func logQuery(w dns.ResponseWriter, r, reply *dns.Msg, start time.Time) {
	host, port, _ := net.SplitHostPort(w.RemoteAddr().String())
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	proto := "udp"
	if _, tcp := w.RemoteAddr().(*net.TCPAddr); tcp {
		proto = "tcp"
	}
	do := false
	if opt := r.IsEdns0(); opt != nil {
		do = opt.Do()
	}
	q := r.Question[0]
	rcode, ok := dns.RcodeToString[reply.Rcode]
	if !ok {
		rcode = strconv.Itoa(reply.Rcode)
	}
	queryLog.Printf(`[INFO] %s:%s - %d "%s %s %s %s %d %t %d" %s %s %d %ss`,
		host, port, r.Id, dns.Type(q.Qtype).String(), dns.Class(q.Qclass).String(), strings.ToLower(q.Name), proto,
		r.Len(), do, bufSize(w, r), rcode, flags(reply), reply.Len(),
		strconv.FormatFloat(time.Since(start).Seconds(), 'f', -1, 64))
}

// flags are the answer's header flags as the log plugin writes them: "qr,aa,rd", or "-".
func flags(m *dns.Msg) string {
	var f []string
	for _, flag := range []struct {
		set  bool
		name string
	}{{m.Response, "qr"}, {m.Authoritative, "aa"}, {m.Truncated, "tc"}, {m.RecursionDesired, "rd"},
		{m.RecursionAvailable, "ra"}, {m.Zero, "z"}, {m.AuthenticatedData, "ad"}, {m.CheckingDisabled, "cd"}} {
		if flag.set {
			f = append(f, flag.name)
		}
	}
	if len(f) == 0 {
		return "-"
	}
	return strings.Join(f, ",")
}
