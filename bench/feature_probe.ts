/**
 * One feature's first use in a fresh Radar process (run by bench/feature_first_use.ts with
 * Radar's CLI flags): opens Radar from RADAR_CONFIG, then times the feature's first use (its
 * modules loaded, its stores and schemas built, its program started) and a second one, and prints
 * `{"first":ms,"second":ms,"rssBefore":MB,"rssAfter":MB}`. The feature's inputs come as JSON in
 * RADAR_PROBE. `mcp-tools URL` instead prints the tool list of an HTTP MCP server (the approval
 * the timed process stores, so that it does not load the MCP SDK before the first call).
 */
import { openRadar } from "../src/runtime/open_radar.ts";
import type { ToolContext } from "../src/core/tool.ts";

const feature = Deno.args[0];
const input = JSON.parse(Deno.env.get("RADAR_PROBE") ?? "{}") as Record<string, string>;
const rss = () => Deno.memoryUsage().rss / 1048576;

if (feature === "mcp-tools") {
  const { discoverTools } = await import("../src/mcp/mcp_servers.ts");
  const { approvalOf } = await import("../tests/mcp/mcp_harness.ts");
  const radar = await openRadar({ env: Deno.env.toObject(), cwd: Deno.cwd(), logLevel: "error" });
  const server = radar.config.mcp.servers[0];
  const approval = approvalOf(server.name, [], { url: server.url, hosts: ["127.0.0.1"] });
  const tools = await discoverTools({
    config: radar.config,
    dataDir: radar.dataDir,
    env: Deno.env.toObject(),
    cwd: Deno.cwd(),
    secrets: radar.secrets,
  }, approval);
  radar.mcp.approvals.save({ ...approval, tools });
  await radar.close();
  Deno.exit(0);
}

const radar = await openRadar({ env: Deno.env.toObject(), cwd: Deno.cwd(), logLevel: "error" });
const context: ToolContext = {
  kind: "ask",
  interactive: false,
  signal: new AbortController().signal,
};
const tool = async (name: string, args: Record<string, unknown>) => {
  const execution = await (await radar.agentStack()).registry.execute(
    { id: crypto.randomUUID(), name, arguments: JSON.stringify(args) },
    { offered: new Set([name]), context, maxResultChars: 100_000, elapsed: () => 0 },
  );
  if (execution.result.outcome !== "ok") {
    throw new Error(`${name}: ${execution.result.text.slice(0, 200)}`);
  }
};
const uses: Record<string, () => Promise<unknown>> = {
  mail: () => tool("list_email", {}),
  calendar: () => tool("calendar", { action: "list", range: "week" }),
  mcp: () => tool("mcp_probe__shout", { text: "hello" }),
  money: async () => (await radar.money()).import({ path: input.statement, useModel: false }),
  browser: () => tool("browser", { action: "open", url: input.url }),
  comics: () => tool("comic_info", { path: input.comic }),
};
const use = uses[feature];
if (!use) throw new Error(`no such feature: ${feature}`);
const rssBefore = rss();
let started = performance.now();
await use();
const first = performance.now() - started;
if (feature === "money") input.statement = input.second;
started = performance.now();
await use();
const second = performance.now() - started;
const rssAfter = rss();
console.log(JSON.stringify({ first, second, rssBefore, rssAfter }));
await radar.close();
Deno.exit(0);
