/**
 * A `radar ask` killed mid-answer (a real subprocess, SIGKILL while the fake model server holds
 * its answer) leaves a question and no answer; the next start marks that conversation
 * interrupted, and `radar history` (text, --json, show) and the dashboard say so instead of
 * letting it look unanswered forever. A finished ask is never marked.
 */
import assert from "node:assert/strict";
import { FakeLlmServer, ollamaText } from "../fakes/fake_llm_server.ts";
import {
  createRadarHome,
  radarCommand,
  runRadar,
  startRadarServe,
} from "../helpers/radar_process.ts";
import { dashboardTokenPath } from "../../web/dashboard_token.ts";
import { interruptedNote } from "../../src/cli/commands/history.ts";
import { until } from "../helpers/until.ts";

Deno.test({
  name: "radar ask killed while the model answers is shown as interrupted after the next start",
  sanitizeResources: false,
  fn: async () => {
    const radar = createRadarHome("llm:\n  retries: 0\n");
    const server = FakeLlmServer.start();
    const env = { RADAR_CONFIG: radar.configPath, RADAR_LLM_BASE_URL: server.url };
    let release = () => {};
    try {
      server.reply({
        ...ollamaText("An answer nobody reads."),
        hold: new Promise<void>((resolve) => release = resolve),
      });
      const child = radarCommand(radar.home, ["ask", "where are my tax papers?"], { env })
        .spawn();
      await until("the question to reach the model", () => server.chatRequests.length === 1);
      child.kill("SIGKILL");
      await child.status;
      release();
      await child.stdout.cancel();
      await child.stderr.cancel();

      // A finished ask next to it (it also is the next start that notices the killed one).
      server.reply(ollamaText("In the blue folder."));
      const answered = await runRadar(radar.home, ["ask", "and the receipts?"], { env });
      assert.equal(answered.code, 0, answered.stderr);

      const listed = await runRadar(radar.home, ["history", "--json"], { env });
      const rows = JSON.parse(listed.stdout) as Array<
        { id: number; title: string; messageCount: number; interruptedAt?: string }
      >;
      const killed = rows.find((row) => row.title === "where are my tax papers?")!;
      const finished = rows.find((row) => row.title === "and the receipts?")!;
      assert.equal(killed.messageCount, 1, "the question, no answer");
      assert.match(killed.interruptedAt ?? "", /^\d{4}-\d\d-\d\dT/);
      assert.equal(finished.interruptedAt, undefined);

      const text = await runRadar(radar.home, ["history"], { env });
      const line = text.stdout.split("\n").find((entry) => entry.includes("tax papers"))!;
      assert.match(line, /\(interrupted\)$/);
      assert.doesNotMatch(
        text.stdout.split("\n").find((entry) => entry.includes("receipts"))!,
        /interrupted/,
      );
      const shown = await runRadar(radar.home, ["history", "show", String(killed.id)], { env });
      assert.ok(shown.stdout.trimEnd().endsWith(interruptedNote), shown.stdout);

      const serve = await startRadarServe(radar);
      try {
        const token = Deno.readTextFileSync(dashboardTokenPath(radar.dataDir)).trim();
        const headers = { authorization: `Bearer ${token}` };
        const list = await (await fetch(`${serve.url}/history`, { headers })).text();
        assert.match(
          list,
          /tax papers\?<\/a><\/td><td><span class="badge kind-ask">ask<\/span><span class="badge outcome-error" title="the run was stopped before it finished">interrupted<\/span>/,
        );
        const page = await (await fetch(`${serve.url}/history/${killed.id}`, { headers })).text();
        assert.match(page, /Interrupted: the run was stopped before it finished/);
        const other = await (await fetch(`${serve.url}/history/${finished.id}`, { headers }))
          .text();
        assert.doesNotMatch(other, /Interrupted:/);
      } finally {
        assert.equal(await serve.stop(), 0);
      }
    } finally {
      release();
      await server.close();
      radar.remove();
    }
  },
});
