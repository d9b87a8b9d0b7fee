import { describe, expect, it } from "vitest";
import { hostAddress, isPrivateAddress, refuseWebhookUrl } from "./address-guard";

describe("isPrivateAddress", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.1.2.3", "loopback"],
    ["10.0.0.8", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "link-local (cloud metadata)"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["240.0.0.1", "reserved"],
    ["192.0.2.1", "documentation"],
    ["198.51.100.7", "documentation"],
    ["203.0.113.9", "documentation"],
    ["198.18.0.1", "benchmarking"],
    ["192.0.0.8", "IETF protocol assignments"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local with a zone"],
    ["fec0::1", "site-local"],
    ["fd12:3456::1", "unique local"],
    ["fc00::1", "unique local"],
    ["ff02::1", "multicast"],
    ["100::1", "discard"],
    ["2001:db8::1", "documentation"],
    ["3fff::1", "documentation"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:7f00:1", "IPv4-mapped loopback in hex"],
    ["::ffff:10.1.2.3", "IPv4-mapped private"],
    ["::ffff:169.254.169.254", "IPv4-mapped link-local"],
    ["::ffff:0:a01:203", "SIIT private"],
    ["::127.0.0.1", "IPv4-compatible loopback"],
    ["64:ff9b::a9fe:a9fe", "NAT64 of link-local"],
    ["64:ff9b:1::1", "local-use NAT64"],
    ["2002:c0a8:101::1", "6to4 of a private address"],
    ["127.1", "shorthand loopback"],
    ["0x7f.1", "hex loopback"],
    ["0177.0.0.1", "octal loopback"],
    ["2130706433", "decimal loopback"],
    ["not-an-ip", "not an address"],
    ["", "empty"],
  ])("refuses %s (%s)", (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
  ])("allows %s", (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});

describe("hostAddress", () => {
  it.each([
    ["http://127.0.0.1:8080/x", "127.0.0.1"],
    ["http://0x7f.1/", "127.0.0.1"],
    ["http://127.1/", "127.0.0.1"],
    ["http://2130706433/", "127.0.0.1"],
    ["http://[::1]/", "::1"],
    ["http://[::ffff:127.0.0.1]/", "::ffff:7f00:1"],
    ["https://example.com/", null],
    ["https://1.2.3.4.example/", null],
  ])("reads %s as %s", (url, address) => {
    expect(hostAddress(new URL(url))).toBe(address);
  });
});

describe("refuseWebhookUrl", () => {
  it.each([
    "http://127.0.0.1/in",
    "http://0x7f.1/in",
    "http://127.1/in",
    "http://2130706433/in",
    "http://[::1]/in",
    "http://[::ffff:127.0.0.1]/in",
    "http://10.0.0.1/in",
    "http://169.254.169.254/latest/meta-data",
    "http://[fd00::1]/in",
  ])("refuses %s as a private address unless allowed", (url) => {
    expect(refuseWebhookUrl(url, false)).toMatchObject({ code: "private_address" });
    expect(refuseWebhookUrl(url, true)).toBeNull();
  });

  it("does not resolve names: a name is checked when a delivery connects", () => {
    expect(refuseWebhookUrl("http://localhost:8080/in", false)).toBeNull();
    expect(refuseWebhookUrl("https://hooks.example.com/in", false)).toBeNull();
    expect(refuseWebhookUrl("https://8.8.8.8/in", false)).toBeNull();
  });

  it.each([
    "https://user:pass@hooks.example.com/in",
    "https://user@hooks.example.com/in",
    "https://:pass@hooks.example.com/in",
  ])("refuses credentials in %s, even when private addresses are allowed", (url) => {
    expect(refuseWebhookUrl(url, true)).toMatchObject({ code: "credentials_in_url" });
  });
});
