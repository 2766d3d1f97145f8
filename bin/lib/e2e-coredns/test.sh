#!/usr/bin/env bash
# Tests jk-e2e-coredns (main.go here, agnhost's /coredns in the conformance images) on the host, with no container:
# builds it as bench/conformance/images.sh does (jk_ensure_e2e_coredns), serves the e2e specs' Corefile on high
# ports, asks dig, and checks the answers, the log and the Corefiles it must refuse. Prints each check; exits
# non-zero when any fails.
#   bin/lib/e2e-coredns/test.sh [PORT]     (PORT and PORT+1 must be free; default 15353)
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
source "$JK_ROOT/bin/lib/kube-build.sh"

port=${1:-15353}
port2=$((port + 1))
jk_apt_install bind9-dnsutils
jk_ensure_e2e_coredns
bin="$JK_KUBE_BIN/jk-e2e-coredns"
work=$(mktemp -d)
server=""
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

failures=0
checks=0
check() { # WHAT WANT GOT
  checks=$((checks + 1))
  if [ "$2" = "$3" ]; then
    printf 'ok    %s: %s\n' "$1" "$3"
  else
    printf 'FAIL  %s\n        want: %s\n        got:  %s\n' "$1" "$2" "$3"
    failures=$((failures + 1))
  fi
}
# dig at PORT: the answer's status, flags and records, one line ("NOERROR qr aa rd | name ttl IN A addr; ...").
ask() {
  local p=$1; shift
  dig @127.0.0.1 -p "$p" +time=2 +tries=1 +nocookie "$@" | awk '
    /->>HEADER<<-/ { match($0, /status: [A-Z0-9]+/); status = substr($0, RSTART + 8, RLENGTH - 8) }
    /^;; flags:/ { sub(/^;; flags: /, ""); sub(/;.*/, ""); flags = $0 }
    /^;; ANSWER SECTION:/ { inanswer = 1; next }
    /^$/ { inanswer = 0 }
    inanswer { $1 = $1; records = records (records ? "; " : "") $0 }
    END { if (status == "") print "no answer"; else print status " " flags " | " records }'
}

# The Corefile of upstream's e2e DNS specs (dns_common.go generateCoreDNSConfigmap, as "should support configurable
# pod resolv.conf" and the PTR specs fill it), on a high port; and a second port with zones below the root, a hosts
# file and the hosts plugin's options.
cat >"$work/hosts" <<'HOSTS'
# a hosts file
192.0.2.20 filehost.example.org   # comment
HOSTS
cat >"$work/Corefile" <<COREFILE
.:$port {
	hosts {
		1.1.1.1 notexistname.resolv.conf.local
		192.0.2.123 my.test
		2001:db8::29 my6.test
	}
	log
}
example.org:$port2 {
	hosts $work/hosts {
		ttl 60
		reload 1s
		192.0.2.7 inline.example.org
		192.0.2.10 www.sub.example.org
		192.0.2.8 elsewhere.test
$(for i in $(seq 40); do printf '\t\t10.0.0.%d many.example.org\n' "$i"; done)
	}
}
dns://sub.example.org:$port2 {
	hosts $work/none {
		192.0.2.9 www.sub.example.org
	}
}
COREFILE

"$bin" -conf="$work/Corefile" >"$work/stdout" 2>"$work/stderr" &
server=$!
for _ in $(seq 50); do
  [ "$(ask "$port" my.test A)" != "no answer" ] && break
  jk_alive "$server" || break
  sleep 0.1
done
jk_alive "$server" || { cat "$work/stderr"; jk_die "jk-e2e-coredns did not start"; }

echo "== the e2e specs' Corefile on :$port"
check "A of an inline entry (authoritative, TTL 3600)" \
  "NOERROR qr aa rd | notexistname.resolv.conf.local. 3600 IN A 1.1.1.1" "$(ask "$port" notexistname.resolv.conf.local A)"
check "A of the same name in mixed case (the answer in lower case, as CoreDNS's)" \
  "NOERROR qr aa rd | notexistname.resolv.conf.local. 3600 IN A 1.1.1.1" "$(ask "$port" NotExistName.Resolv.Conf.Local A)"
check "A over TCP" "NOERROR qr aa rd | my.test. 3600 IN A 192.0.2.123" "$(ask "$port" my.test A +tcp)"
check "AAAA of an IPv6 entry" "NOERROR qr aa rd | my6.test. 3600 IN AAAA 2001:db8::29" "$(ask "$port" my6.test AAAA)"
check "AAAA of a name with an IPv4 entry only: no records" "NOERROR qr aa rd | " "$(ask "$port" my.test AAAA)"
check "MX of a name in hosts: no records" "NOERROR qr aa rd | " "$(ask "$port" my.test MX)"
check "A of a name not in hosts: SERVFAIL, as CoreDNS's hosts plugin answers (no SOA to send NXDOMAIN with)" \
  "SERVFAIL qr rd | " "$(ask "$port" missing.test A)"
check "PTR of an IPv4 entry" "NOERROR qr aa rd | 123.2.0.192.in-addr.arpa. 3600 IN PTR my.test." \
  "$(ask "$port" -x 192.0.2.123)"
check "PTR of an IPv6 entry" \
  "NOERROR qr aa rd | 9.2.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa. 3600 IN PTR my6.test." \
  "$(ask "$port" -x 2001:db8::29)"
check "PTR of an address no entry has" "SERVFAIL qr rd | " "$(ask "$port" -x 192.0.2.99)"
if grep -Eq '^127\.0\.0\.1[[:space:]]+(.*[[:space:]])?localhost([[:space:]]|$)' /etc/hosts; then
  check "A of localhost, from /etc/hosts (hosts reads it when the Corefile names no file)" \
    "NOERROR qr aa rd | localhost. 3600 IN A 127.0.0.1" "$(ask "$port" localhost A)"
fi
check "an EDNS version other than 0: BADVERS" "BADVERS qr rd | " "$(ask "$port" my.test A +edns=1 +noednsnegotiation)"
check "class CH: REFUSED" "REFUSED qr rd | " "$(ask "$port" my.test A -c CH)"

echo "== zones below the root, a hosts file and options on :$port2"
check "A of an inline entry with ttl 60" "NOERROR qr aa rd | inline.example.org. 60 IN A 192.0.2.7" \
  "$(ask "$port2" inline.example.org A)"
check "A of an entry of the hosts file" "NOERROR qr aa rd | filehost.example.org. 60 IN A 192.0.2.20" \
  "$(ask "$port2" filehost.example.org A)"
check "A of a name of the more specific zone, sub.example.org, answered by its block" \
  "NOERROR qr aa rd | www.sub.example.org. 3600 IN A 192.0.2.9" "$(ask "$port2" www.sub.example.org A)"
check "A of a name in the zone not in hosts" "SERVFAIL qr rd | " "$(ask "$port2" other.example.org A)"
check "A of a name outside every zone: REFUSED" "REFUSED qr rd | " "$(ask "$port2" my.test A)"
check "A of an inline name outside the block's zones (dropped): REFUSED" "REFUSED qr rd | " \
  "$(ask "$port2" elsewhere.test A)"
check "A of a name with 40 addresses over UDP without EDNS0: truncated" "NOERROR qr aa tc rd | " \
  "$(ask "$port2" many.example.org A +noedns +ignore)"
check "the same over TCP: the 40 addresses" 40 "$(dig @127.0.0.1 -p "$port2" +tcp +short many.example.org A | wc -l)"
printf '192.0.2.21 filehost.example.org\n192.0.2.22 added.example.org\n' >"$work/hosts"
got=""
for _ in $(seq 50); do
  got=$(ask "$port2" added.example.org A)
  [ "$got" = "NOERROR qr aa rd | added.example.org. 60 IN A 192.0.2.22" ] && break
  sleep 0.1
done
check "the hosts file re-read after it changed (reload 1s)" \
  "NOERROR qr aa rd | added.example.org. 60 IN A 192.0.2.22" "$got"
check "the changed entry of the hosts file" "NOERROR qr aa rd | filehost.example.org. 60 IN A 192.0.2.21" \
  "$(ask "$port2" filehost.example.org A)"

echo "== what it printed"
sed 's/^/        | /' "$work/stdout"
logged() { grep -Eq "$1" "$work/stdout" && echo present || echo missing; }
check "a log line in CoreDNS's common log format for the first query" present \
  "$(logged '^\[INFO\] 127\.0\.0\.1:[0-9]+ - [0-9]+ "A IN notexistname\.resolv\.conf\.local\. udp [0-9]+ false [0-9]+" NOERROR qr,aa,rd [0-9]+ [0-9.]+s$')"
check "a log line for the SERVFAIL" present \
  "$(logged '^\[INFO\] .* "A IN missing\.test\. udp [0-9]+ false [0-9]+" SERVFAIL qr,rd [0-9]+ [0-9.]+s$')"
check "a log line for the TCP query" present "$(logged '^\[INFO\] .* "A IN my\.test\. tcp [0-9]+ false 65535" NOERROR ')"
check "no log line from the blocks without log" missing "$(logged '^\[INFO\] .*example\.org')"
check "the warning about the inline name outside the zones" "1" \
  "$(grep -c '^\[WARNING\] plugin/hosts: .*Corefile:[0-9]*: elsewhere.test is in none of the zones' "$work/stdout")"
check "the warning about the missing hosts file" "1" \
  "$(grep -c "^\[WARNING\] plugin/hosts: File does not exist: $work/none" "$work/stdout")"
check "the served zones, as CoreDNS lists them" ".:$port example.org.:$port2 sub.example.org.:$port2" \
  "$(grep -E '^[a-z.]+:[0-9]+$' "$work/stdout" | tr '\n' ' ' | sed 's/ $//')"

echo "== Corefiles it must refuse (exit code 1, the line and what it does not implement)"
refuse() { # WHAT WANT-IN-ERROR COREFILE
  printf '%s\n' "$3" >"$work/bad"
  local out rc
  out=$(timeout 5 "$bin" -conf "$work/bad" 2>&1 >/dev/null)
  rc=$?
  if [ $rc -eq 1 ] && [[ "$out" == *"$2"* ]]; then
    check "$1" "exit 1: $2" "exit 1: $2"
  else
    check "$1" "exit 1: ...$2..." "exit $rc: $out"
  fi
}
refuse "an unknown plugin" "bad:5 - Error during parsing: Unknown directive 'forward'" \
  ". {
	hosts {
		1.1.1.1 a.test
	}
	forward . 8.8.8.8
	log
}"
refuse "hosts' fallthrough" "bad:4 - Error during parsing: plugin/hosts: fallthrough is not implemented" \
  ".:$port {
	hosts {
		1.1.1.1 a.test
		fallthrough
	}
}"
refuse "a hosts line that is neither an entry nor an option" "bad:3 - Error during parsing: plugin/hosts: 'tll' is neither" \
  ".:$port {
	hosts {
		tll 60
	}
}"
refuse "an inline entry without a name" "bad:2 - Error during parsing: plugin/hosts: the inline hosts entry '1.1.1.1' names no host" \
  ".:$port {
	hosts { 1.1.1.1
	}
}"
refuse "log with options" "bad:3 - Error during parsing: log with arguments or a block is not implemented" \
  ".:$port {
	hosts
	log . {combined}
}"
refuse "a block with no hosts" "bad:1 - Error during parsing: server block .:$port has no hosts plugin" \
  ".:$port {
	log
}"
refuse "hosts twice in a block" "bad:3 - Error during parsing: plugin/hosts: this plugin can only be used once per Server Block" \
  ".:$port {
	hosts
	hosts
}"
refuse "a zone of another transport" "bad:1 - Error during parsing: zone \"tls://.:$port\": the tls:// transport is not implemented" \
  "tls://.:$port {
	hosts
}"
refuse "environment substitution" "bad:2 - Error during parsing: environment substitution in \"{\$ADDR}\" is not implemented" \
  ".:$port {
	hosts { {\$ADDR} a.test }
}"
refuse "the same zone twice on a port" "bad:4 - Error during parsing: cannot serve dns://.:$port - it is already defined" \
  ".:$port {
	hosts
}
.:$port {
	hosts
}"
refuse "an unclosed block" "bad:2 - Error during parsing: server block \".:$port\" is not closed by '}'" \
  ".:$port {
	hosts"

echo "$checks checks, $failures failed"
[ "$failures" -eq 0 ]
