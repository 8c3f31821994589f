import "server-only";
import dns from "node:dns";
import net from "node:net";
import ipaddr from "ipaddr.js";

// Where alert channels may post: the public internet only, unless the owner allows more.
// A member types the address; without this check "Send a test" would reach the server's own
// loopback (its database, the ring emulator, a cloud metadata service on 169.254.169.254) and
// the LAN. The check is made on the address actually connected to, at connect time (a lookup
// hook on the socket), never on the name: a name that resolves to a public address when the
// channel is saved and to 127.0.0.1 when it is used (DNS rebinding) is refused all the same.
//
// Refused unless allowed: every address that is not ordinary unicast — loopback (127/8, ::1),
// link-local (169.254/16, fe80::/10), private (10/8, 172.16/12, 192.168/16), unique-local
// (fc00::/7), carrier-grade NAT, unspecified, multicast, reserved, and the IPv6 forms that
// carry an IPv4 address (::ffff:a.b.c.d, the IPv4-compatible ::a.b.c.d, NAT64, 6to4, Teredo)
// judged by the address they carry or refused. ALERT_ALLOWED_PRIVATE_HOSTS lists host names, addresses or CIDR ranges the owner
// allows anyway (ntfy on the LAN: "ntfy.lan" or "192.168.1.20" or "192.168.1.0/24").

export type AddressPolicy = {
  /** host names (lower case) allowed whatever they resolve to */
  hosts: ReadonlySet<string>;
  /** address ranges allowed */
  ranges: ReadonlyArray<[ipaddr.IPv4 | ipaddr.IPv6, number]>;
};

/** The policy of an ALERT_ALLOWED_PRIVATE_HOSTS list (lib/env.mjs has already checked each entry). */
export function addressPolicy(entries: readonly string[] = []): AddressPolicy {
  const hosts = new Set<string>();
  const ranges: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> = [];
  for (const raw of entries) {
    const e = raw
      .trim()
      .toLowerCase()
      .replace(/^\[(.*)\]$/, "$1");
    if (!e) continue;
    if (e.includes("/") && ipaddr.isValidCIDR(e)) ranges.push(ipaddr.parseCIDR(e));
    else if (ipaddr.isValid(e)) {
      const a = ipaddr.parse(e);
      ranges.push([a, a.kind() === "ipv4" ? 32 : 128]);
    } else hosts.add(e.replace(/\.$/, ""));
  }
  return { hosts, ranges };
}

/** The host of a URL as a name or a bare address (no brackets, no trailing dot, lower case). */
export function hostOf(url: URL): string {
  return url.hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");
}

/**
 * The IPv4 address an IPv6 one carries in its last 32 bits as is: the IPv4-mapped form
 * (::ffff:a.b.c.d) and the deprecated IPv4-compatible one (::a.b.c.d, the first 96 bits zero,
 * which the network stack may still route to the IPv4 address); null for any other.
 */
function embeddedIPv4(a: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | null {
  if (a.kind() !== "ipv6") return null;
  const v6 = a as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
  const p = v6.parts;
  if (p.slice(0, 6).every((x) => x === 0)) return ipaddr.fromByteArray(v6.toByteArray().slice(12)) as ipaddr.IPv4;
  return null;
}

function inRanges(a: ipaddr.IPv4 | ipaddr.IPv6, policy: AddressPolicy): boolean {
  const v4 = embeddedIPv4(a);
  return policy.ranges.some(([net, bits]) => {
    if (a.kind() === net.kind()) return a.match(net, bits);
    // an IPv4 range also covers the IPv6 forms that carry an IPv4 address
    return v4 !== null && net.kind() === "ipv4" && v4.match(net, bits);
  });
}

/** True when Ringside may connect to `address` (an IP literal) for `host` under `policy`. */
export function isAllowedAddress(address: string, host: string, policy: AddressPolicy): boolean {
  if (policy.hosts.has(host)) return true;
  if (!ipaddr.isValid(address)) return false;
  const a = ipaddr.parse(address);
  if (inRanges(a, policy)) return true;
  // (:: and ::1 carry 0.0.0.0 and 0.0.0.1: refused as such)
  return (embeddedIPv4(a) ?? a).range() === "unicast";
}

/** The error a refused connection fails with (its code tells the sender's wording). */
export class BlockedAddressError extends Error {
  readonly code = "ERINGSIDE_BLOCKED_ADDRESS";
  constructor() {
    super("address not allowed for alert channels");
    this.name = "BlockedAddressError";
  }
}

type LookupAddress = { address: string; family: number };
type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request / net.connect that resolves as usual and then refuses the
 * connection unless every address the name resolved to is allowed for `host`.
 */
export function guardedLookup(host: string, policy: AddressPolicy) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "", 0);
      const list = addresses as LookupAddress[];
      if (list.length === 0 || !list.every((a) => isAllowedAddress(a.address, host, policy))) return callback(new BlockedAddressError(), "", 0);
      if (options.all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

/**
 * The check made before connecting: an address literal (which the socket connects to without
 * a lookup) is judged here; a name is judged at connect time by guardedLookup.
 */
export function isAllowedLiteral(url: URL, policy: AddressPolicy): boolean {
  const host = hostOf(url);
  return net.isIP(host) === 0 || isAllowedAddress(host, host, policy);
}

/**
 * Whether a channel address is refused before any lookup: an address literal outside the
 * policy, or a name of this machine (localhost). Names are judged again when used.
 */
export function isRefusedAtOnce(url: URL, policy: AddressPolicy): boolean {
  const host = hostOf(url);
  if (policy.hosts.has(host)) return false;
  if (host === "localhost" || host.endsWith(".localhost")) return !isAllowedAddress("127.0.0.1", host, policy);
  return !isAllowedLiteral(url, policy);
}
