/**
 * The one address policy: what is not public, what is loopback, and that the CIDR list handed to
 * `--deny-net` says the same as the classifier.
 */
import assert from "node:assert/strict";
import {
  isLoopbackHost,
  isPrivateAddress,
  nonPublicAddressKind,
  nonPublicIpv4Ranges,
} from "../../../src/adapters/network/address_policy.ts";

Deno.test("nonPublicAddressKind() classifies IPv4 and IPv6 ranges", () => {
  const cases: Array<[string, string | undefined]> = [
    ["127.0.0.1", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.32.0.1", undefined],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "link-local"],
    ["100.64.0.1", "carrier-grade NAT (100.64.0.0/10)"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["8.8.8.8", undefined],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fd00::1", "unique local (fc00::/7)"],
    ["fe80::1%eth0", "link-local"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["64:ff9b::a00:1", "private"],
    ["2002:c0a8:101::", "private"],
    ["2606:4700::1111", undefined],
    ["192.0.2.1", "reserved"],
    ["2001:30::1", "reserved"],
    ["2001::1", undefined],
    ["::ffff:0:7f00:1", "loopback"],
    ["::7f00:1", "loopback"],
    ["64:ff9b:1::1", "local-use NAT64 (64:ff9b:1::/48)"],
    ["fec0::1", "site-local"],
    ["2001:db8::1", "reserved"],
    ["255.255.255.255", "reserved"],
    ["198.18.0.1", "reserved"],
    ["[::1]", "loopback"],
    ["not:an:address", "unreadable IPv6"],
    ["example.com", undefined],
  ];
  for (const [address, kind] of cases) assert.equal(nonPublicAddressKind(address), kind, address);
});

Deno.test("isLoopbackHost() takes every loopback form and nothing else", () => {
  for (
    const host of [
      "127.0.0.1",
      "127.0.0.2",
      "127.255.255.254",
      "localhost",
      "LOCALHOST",
      "localhost.",
      "::1",
      "[::1]",
      "::ffff:127.0.0.2",
    ]
  ) assert.equal(isLoopbackHost(host), true, host);
  for (
    const host of ["0.0.0.0", "::", "192.168.1.5", "10.0.0.1", "example.com", "localhost.example"]
  ) assert.equal(isLoopbackHost(host), false, host);
});

/** The first or the last dotted address of a CIDR. */
function addressIn(cidr: string, last: boolean): string {
  const [base, prefix] = cidr.split("/");
  const start = base.split(".").reduce((sum, byte) => sum * 256 + Number(byte), 0);
  const value = last ? start + 2 ** (32 - Number(prefix)) - 1 : start;
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join(".");
}

Deno.test("the --deny-net CIDR list covers exactly the non-public IPv4 addresses", () => {
  for (const range of nonPublicIpv4Ranges) {
    for (const last of [false, true]) {
      const address = addressIn(range, last);
      assert.ok(isPrivateAddress(address), `${range}: ${address}`);
    }
  }
  // The neighbours just outside each range are public unless another range holds them.
  const inSome = (address: string) =>
    nonPublicIpv4Ranges.some((range) => {
      const [low, high] = [addressIn(range, false), addressIn(range, true)].map((text) =>
        text.split(".").reduce((sum, byte) => sum * 256 + Number(byte), 0)
      );
      const value = address.split(".").reduce((sum, byte) => sum * 256 + Number(byte), 0);
      return value >= low && value <= high;
    });
  const neighbours = [
    "0.0.1",
    "0.2.1",
    "0.113.5",
    "18.0.1",
    "31.196.1",
    "51.100.7",
    "52.193.1",
    "64.0.1",
    "88.99.1",
    "168.0.1",
    "254.1.1",
  ];
  for (let first = 0; first < 256; first++) {
    for (const rest of neighbours) {
      const address = `${first}.${rest}`;
      assert.equal(isPrivateAddress(address), inSome(address), address);
    }
  }
});
