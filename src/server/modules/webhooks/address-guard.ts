import dns from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { validationFailed } from "@/server/lib/api-error";

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * The only ranges a delivery may reach: ordinary unicast, and the anycast services that are
 * public by design. Everything else ipaddr.js names (private, loopback, link-local, unique
 * local, carrier-grade NAT, multicast, unspecified, broadcast, documentation, benchmarking,
 * discard, site-local, Teredo, segment routing and the other reserved ranges) is refused.
 */
const PUBLIC_RANGES = new Set(["unicast", "as112", "amt", "as112v6"]);

const NAT64_WELL_KNOWN = ipaddr.parseCIDR("64:ff9b::/96");

/** IPv4 from two of an IPv6 address's 16-bit groups. */
const v4From = (hi: number, lo: number) =>
  new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);

/**
 * The IPv4 address an IPv6 one carries (mapped, SIIT, well-known NAT64, 6to4, and the deprecated
 * IPv4-compatible `::a.b.c.d`), which is judged instead: `::ffff:127.0.0.1` is loopback.
 */
function embeddedIpv4(a: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = a.parts;
  switch (a.range()) {
    case "ipv4Mapped":
    case "rfc6145":
      return v4From(p[6]!, p[7]!);
    case "rfc6052":
      // Only the /96 prefix puts the address in the last 32 bits; the local-use 64:ff9b:1::/48
      // may put it anywhere, so it stays refused as a whole.
      return a.match(NAT64_WELL_KNOWN) ? v4From(p[6]!, p[7]!) : null;
    case "6to4":
      return v4From(p[1]!, p[2]!);
    case "unicast":
      return p.slice(0, 6).every((x) => x === 0) ? v4From(p[6]!, p[7]!) : null;
    default:
      return null;
  }
}

function isPublic(a: Address): boolean {
  if (a.kind() === "ipv6") {
    const inner = embeddedIpv4(a as ipaddr.IPv6);
    if (inner) return PUBLIC_RANGES.has(inner.range());
  }
  return PUBLIC_RANGES.has(a.range());
}

/**
 * True for every address that is not the public internet (see PUBLIC_RANGES), and for anything
 * that does not parse as an address. IPv6 forms that embed an IPv4 address are judged by it.
 */
export function isPrivateAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  return !isPublic(ipaddr.parse(address));
}

/**
 * The IP address a URL's host is, or null for a DNS name. The WHATWG URL parser has already
 * normalised the odd IPv4 forms (`0x7f.1`, `127.1`, `2130706433` are all `127.0.0.1`), so a
 * strict check of the bracket-less host suffices.
 */
export function hostAddress(url: URL): string | null {
  const bare = url.hostname.replace(/^\[|\]$/g, "");
  return isIP(bare) === 0 ? null : bare;
}

export interface UrlRefusal {
  code: "credentials_in_url" | "private_address";
  message: string;
}

/**
 * Why a webhook URL may not be stored, or null. A private address written as an IP is refused
 * here; a name is not resolved (its addresses may change), so names are checked at delivery.
 */
export function refuseWebhookUrl(text: string, allowPrivate: boolean): UrlRefusal | null {
  const url = new URL(text);
  if (url.username !== "" || url.password !== "") {
    return {
      code: "credentials_in_url",
      message:
        "Must not contain a user name or password; receivers authenticate deliveries by their signature",
    };
  }
  const address = hostAddress(url);
  if (!allowPrivate && address !== null && isPrivateAddress(address)) {
    return {
      code: "private_address",
      message: `${address} is a private, loopback or link-local address; WEBHOOKS_ALLOW_PRIVATE allows it`,
    };
  }
  return null;
}

export class PrivateAddressError extends Error {
  readonly code = "EPRIVATEADDRESS";
  constructor(host: string, address: string) {
    super(
      `Refused: ${host} resolves to a private, loopback or link-local address (${address}); WEBHOOKS_ALLOW_PRIVATE allows it`,
    );
  }
}

/**
 * A `lookup` for http.request that checks every address the name resolves to, so the check
 * applies to the very addresses the socket connects to (no gap for DNS rebinding).
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, "", 0);
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) return callback(new PrivateAddressError(hostname, bad.address), "", 0);
    if (addresses.length === 0) return callback(new Error(`No address for ${hostname}`), "", 0);
    if (options.all)
      return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
    return callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};

/** Refuses, as a 400 naming the field and the reason, a URL refuseWebhookUrl will not store. */
export function assertStorableUrl(field: string, url: string, allowPrivate: boolean) {
  const refusal = refuseWebhookUrl(url, allowPrivate);
  if (refusal) throw validationFailed(field, `${field}: ${refusal.message}`, refusal.code);
}
