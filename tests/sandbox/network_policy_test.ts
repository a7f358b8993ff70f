/**
 * Network grants against DNS: the deny list of private addresses, the start-time check of granted
 * names, and, through real plugin hosts, that a granted name which resolves to 127.0.0.1 only
 * after the start check (DNS rebinding) is refused at connect time, while an explicitly granted
 * private host keeps working.
 */
import assert from "node:assert/strict";
import {
  checkGrantedNames,
  deniedAddresses,
  grantHost,
  isPrivateName,
  parseIpv4,
  subtractAddress,
} from "../../src/sandbox/network_policy.ts";
import { isPrivateAddress } from "../../src/adapters/network/address_policy.ts";
import { hostCommand } from "../../src/sandbox/host_command.ts";
import { emptyGrant } from "../../src/sandbox/permissions.ts";
import { type PluginCode, PluginProcess } from "../../src/sandbox/plugin_process.ts";
import { inlineCode } from "./helpers.ts";

Deno.test("isPrivateAddress() knows loopback, LAN, link-local and mapped addresses", () => {
  for (
    const address of [
      "127.0.0.1",
      "10.1.2.3",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "::1",
      "::",
      "[::1]",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:192.168.0.1",
      "fd00::1",
      "fe80::1",
      "ff02::1",
    ]
  ) assert.ok(isPrivateAddress(address), address);
  for (
    const address of ["8.8.8.8", "172.32.0.1", "1.1.1.1", "2606:4700::1111", "::ffff:8.8.8.8"]
  ) assert.ok(!isPrivateAddress(address), address);
  assert.equal(parseIpv4("256.0.0.1"), undefined);
  assert.equal(grantHost("[::1]:8080"), "::1");
  assert.equal(grantHost("api.example.com:443"), "api.example.com");
  assert.ok(isPrivateName("localhost") && isPrivateName("nas") && isPrivateName("nas.lan"));
  assert.ok(isPrivateName("printer.local") && isPrivateName("10.0.0.2"));
  assert.ok(!isPrivateName("api.example.com") && !isPrivateName("8.8.8.8"));
});

Deno.test("subtractAddress() punches exactly one address out of a range", () => {
  const ranges = subtractAddress(["127.0.0.0/8"], "127.0.0.1");
  assert.equal(ranges.length, 24);
  const covered = (address: string) =>
    ranges.some((range) => {
      const [base, prefix] = range.split("/");
      const mask = (~0 << (32 - Number(prefix))) >>> 0;
      return ((parseIpv4(address)! & mask) >>> 0) === parseIpv4(base);
    });
  assert.ok(!covered("127.0.0.1"));
  for (const address of ["127.0.0.0", "127.0.0.2", "127.0.0.3", "127.1.0.1", "127.255.255.255"]) {
    assert.ok(covered(address), address);
  }
  assert.deepEqual(subtractAddress(["10.0.0.0/8"], "127.0.0.1"), ["10.0.0.0/8"]);
  const denied = deniedAddresses(["::1"]);
  assert.ok(denied.includes("[::]") && !denied.includes("[::1]"));
  assert.ok(denied.includes("10.0.0.0/8") && denied.includes("127.0.0.0/8"));
});

Deno.test("checkGrantedNames() exempts named private hosts and refuses public names that resolve privately", async () => {
  const table: Record<string, string[]> = {
    "api.example.com": ["93.184.216.34"],
    "evil.example.com": ["93.184.216.35", "127.0.0.1"],
    "nas.lan": ["192.168.1.20"],
    localhost: ["127.0.0.1", "::1"],
  };
  const lookup = (host: string) =>
    host in table ? Promise.resolve(table[host]) : Promise.reject(new Error("NXDOMAIN"));
  assert.deepEqual(
    await checkGrantedNames(
      ["api.example.com:443", "nas.lan:5000", "localhost:11434", "10.0.0.9", "offline.example"],
      lookup,
    ),
    { exempt: ["10.0.0.9", "127.0.0.1", "192.168.1.20", "::1"], problems: [] },
  );
  assert.deepEqual(await checkGrantedNames(["evil.example.com:443"], lookup), {
    exempt: [],
    problems: [
      "evil.example.com resolves to 127.0.0.1, a private address; grant the address itself if that is intended",
    ],
  });
});

Deno.test("hostCommand() adds --deny-net only under deno run and only with network access", () => {
  const base = { memoryMb: 64, execPath: "/bin/deno", denyNet: ["127.0.0.0/8", "[::1]"] };
  const net = { ...emptyGrant, net: ["api.example.com:443"] };
  const run = hostCommand({ ...base, grant: net, standalone: false });
  assert.ok(run.args.includes("--deny-net=127.0.0.0/8,[::1]"));
  assert.ok(run.args.indexOf("--deny-net=127.0.0.0/8,[::1]") < run.args.length - 1);
  const none = hostCommand({ ...base, grant: emptyGrant, standalone: false });
  assert.ok(!none.args.some((arg) => arg.startsWith("--deny-net")));
  const binary = hostCommand({ ...base, grant: net, standalone: true });
  assert.ok(!binary.args.some((arg) => arg.startsWith("--deny-net")));
});

const fetcher: PluginCode = inlineCode(
  "fetcher",
  `export async function get(args: { url: string }): Promise<string> {
     return await (await fetch(args.url)).text();
   }
   export async function tcp(args: { host: string; port: number }): Promise<string> {
     const connection = await Deno.connect({ hostname: args.host, port: args.port });
     connection.close();
     return "connected";
   }
   export function socket(args: { url: string }): Promise<string> {
     return new Promise((resolve, reject) => {
       const ws = new WebSocket(args.url);
       ws.onopen = () => { ws.close(); resolve("open"); };
       ws.onerror = (event) => reject(new Error((event as ErrorEvent).message || "websocket error"));
     });
   }`,
  ["get", "tcp", "socket"],
);

function fetcherProcess(net: string[], lookup: (host: string) => Promise<string[]>) {
  return new PluginProcess({
    code: fetcher,
    grant: { ...emptyGrant, net },
    callTimeoutMs: 5000,
    memoryMb: 64,
    idleMs: 60_000,
    maxResultChars: 16_000,
    env: Deno.env.toObject(),
    lookup,
  });
}

Deno.test("a granted name that resolves to 127.0.0.1 only after the start check is refused at connect time", async () => {
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, (request) => {
    if (request.headers.get("upgrade") === "websocket") {
      const { response } = Deno.upgradeWebSocket(request);
      return response;
    }
    return new Response("loopback secret");
  });
  const port = server.addr.port;
  // At start the resolver says "public"; at connect time the system resolver says 127.0.0.1.
  const rebinding = fetcherProcess([`localhost:${port}`], () => Promise.resolve(["93.184.216.34"]));
  const honest = fetcherProcess(
    [`localhost:${port}`],
    (host) => host === "localhost" ? Promise.resolve(["127.0.0.1", "::1"]) : Promise.resolve([]),
  );
  const explicit = fetcherProcess([`127.0.0.1:${port}`], () => Promise.resolve([]));
  const refusedAtStart = fetcherProcess(
    ["api.example.com:443"],
    () => Promise.resolve(["10.0.0.5"]),
  );
  try {
    for (
      const [name, args] of [
        ["get", { url: `http://localhost:${port}/` }],
        ["tcp", { host: "localhost", port }],
        ["socket", { url: `ws://localhost:${port}/` }],
      ] as const
    ) {
      const result = await rebinding.call(name, args);
      assert.notEqual(result.outcome, "ok", `${name}: ${result.text}`);
      assert.match(result.text, /Requires net access to "127\.0\.0\.1:\d+"/, name);
      assert.doesNotMatch(result.text, /loopback secret/);
    }
    assert.deepEqual(await honest.call("get", { url: `http://localhost:${port}/` }), {
      outcome: "ok",
      text: "loopback secret",
    });
    assert.deepEqual(await honest.call("socket", { url: `ws://localhost:${port}/` }), {
      outcome: "ok",
      text: "open",
    });
    assert.deepEqual(await explicit.call("get", { url: `http://127.0.0.1:${port}/` }), {
      outcome: "ok",
      text: "loopback secret",
    });
    const refused = await refusedAtStart.call("get", { url: "https://api.example.com/" });
    assert.equal(refused.outcome, "error");
    assert.match(refused.text, /cannot start fetcher: api\.example\.com resolves to 10\.0\.0\.5/);
    assert.equal(refusedAtStart.starts, 0);
  } finally {
    await rebinding.stop();
    await honest.stop();
    await explicit.stop();
    await refusedAtStart.stop();
    await server.shutdown();
  }
});
