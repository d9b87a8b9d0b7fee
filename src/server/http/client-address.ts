import type { Context } from "hono";
import ipaddr from "ipaddr.js";
import type { AppEnv } from "./types";

/** What requests without a key are counted by when they come in-process (tests), with no socket. */
const IN_PROCESS = "in-process";

/**
 * The client a request without a valid key is counted as: its address, an IPv6 one by its /64
 * (a single host is commonly given a whole /64, and could otherwise take a fresh allowance for
 * every request). The socket's peer, unless `trustProxy`: then the last X-Forwarded-For entry,
 * the one the proxy in front of the service added; entries before it are the client's to write.
 */
export function clientAddress(c: Context<AppEnv>, trustProxy: boolean): string {
  return peerAddress(
    c.req.header("X-Forwarded-For"),
    c.env?.incoming?.socket.remoteAddress,
    trustProxy,
  );
}

/** The same, from the header and the socket's peer (the data node reads raw Node requests). */
export function peerAddress(
  forwardedFor: string | undefined,
  remote: string | undefined,
  trustProxy: boolean,
): string {
  const forwarded = trustProxy ? forwardedFor : undefined;
  const raw = forwarded ? forwarded.slice(forwarded.lastIndexOf(",") + 1).trim() : remote;
  if (!raw) return IN_PROCESS;
  if (!ipaddr.isValid(raw)) return raw;
  const address = ipaddr.process(raw);
  return address.kind() === "ipv6"
    ? `${(address as ipaddr.IPv6).parts
        .slice(0, 4)
        .map((part) => part.toString(16))
        .join(":")}::/64`
    : address.toString();
}
