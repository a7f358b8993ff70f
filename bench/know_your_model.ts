/**
 * Issue 33's numbers: `radar doctor` against the stand-in that reports an 8B model's timings
 * (measured wall time plus the model time the stand-in reports = the projected run, target
 * under 2 minutes), and the 40 KB piped document with `llm.max_context_tokens: 4096` (the
 * request Radar used to send whole, against the largest request it sends now).
 */
import { join } from "node:path";
import type { BenchLine, BenchSuite } from "./index.ts";
import { runCli } from "../src/cli/program.ts";
import { estimateJsonTokens } from "../src/core/context_fit.ts";
import { FakeLlmServer, ollamaText, type RecordedRequest } from "../tests/fakes/fake_llm_server.ts";
import { eightBillionOnALaptop, standInDoctor } from "../tests/fakes/standin_models.ts";
import { memoryIo } from "../tests/helpers/memory_io.ts";

const quiet = "llm:\n  retries: 0\nplugins:\n  enabled: false\n";

async function withHome<T>(
  yaml: string,
  work: (env: Record<string, string>, folder: string, server: FakeLlmServer) => Promise<T>,
): Promise<T> {
  const folder = Deno.makeTempDirSync({ prefix: "radar-bench-model-" });
  const server = FakeLlmServer.start();
  const config = join(folder, "radar.yaml");
  Deno.writeTextFileSync(config, yaml);
  try {
    return await work(
      {
        HOME: folder,
        RADAR_CONFIG: config,
        RADAR_DATA_DIR: join(folder, "data"),
        RADAR_LLM_BASE_URL: server.url,
      },
      folder,
      server,
    );
  } finally {
    await server.close();
    Deno.removeSync(folder, { recursive: true });
  }
}

async function doctorTime(): Promise<BenchLine[]> {
  return await withHome(quiet, async (env, folder, server) => {
    standInDoctor(server, "tool_capable", { speed: eightBillionOnALaptop });
    const io = memoryIo(env, { cwd: folder });
    const started = performance.now();
    const code = await runCli(["doctor", "--json"], io);
    const wall = performance.now() - started;
    const record = JSON.parse(io.out.join(""));
    const modelMs = record.probe.outcomes.reduce(
      (sum: number, outcome: { latencyMs: number }) => sum + outcome.latencyMs,
      0,
    );
    const projected = (wall + modelMs) / 1000;
    return [
      {
        metric: "doctor against the stand-in, wall time (exit " + code + ")",
        value: Math.round(wall),
        unit: "ms",
      },
      {
        metric:
          `doctor's model time an 8B model on a laptop takes (${record.probe.ran} probes, reported)`,
        value: Number((modelMs / 1000).toFixed(1)),
        unit: "s",
      },
      {
        metric: "doctor for an 8B model, projected (wall + model time)",
        value: Number(projected.toFixed(1)),
        unit: "s",
        target: "< 120 s",
        met: projected < 120,
      },
    ];
  });
}

/** Notes per part, merged notes, and an answer: what a reading model does, instantly. */
function reader(request: RecordedRequest) {
  const body = request.body as { messages: Array<{ content: string }> };
  const system = body.messages[0].content;
  if (system.startsWith("You read one part")) {
    return ollamaText("Notes: crates counted, none lost.");
  }
  if (system.startsWith("You merge notes")) return ollamaText("Merged notes: crates counted.");
  return ollamaText("The report counts crates; nothing was lost.");
}

async function fortyKilobytes(): Promise<BenchLine[]> {
  const yaml = `${quiet.replace("retries: 0\n", "retries: 0\n  max_context_tokens: 4096\n")}`;
  return await withHome(yaml, async (env, folder, server) => {
    const paragraph = "The warehouse counted 34 crates on 2026-03-17; two were damaged and the " +
      "supplier promised a credit note. The schedule holds. ";
    const text = paragraph.repeat(Math.ceil(40_960 / paragraph.length)).slice(0, 40_960);
    server.fallback = (_path, request) => reader(request);
    const io = memoryIo(env, { cwd: folder, stdin: text });
    await runCli(["ask", "--json", "summarize this document"], io);
    const record = JSON.parse(io.out.join(""));
    const sizes = server.chatRequests.map((request) => {
      const body = request.body as { messages: unknown[]; tools: unknown[] };
      return {
        estimate: estimateJsonTokens(body.messages) + estimateJsonTokens(body.tools),
        bound: Math.ceil(new TextEncoder().encode(JSON.stringify(body)).length / 3),
      };
    });
    const largest = Math.max(...sizes.map((size) => size.estimate));
    const bound = Math.max(...sizes.map((size) => size.bound));
    return [
      {
        metric: "40 KB piped, max_context_tokens 4096: the request as sent before (estimate)",
        value: record.estimatedPromptTokens,
        unit: "tokens",
      },
      {
        metric: `  now: ${sizes.length} requests (${
          record.reading?.parts ?? 0
        } parts read), the largest (estimate)`,
        value: largest,
        unit: "tokens",
        target: "≤ 2560 (4096 less the answer's room)",
        met: largest <= 2560,
      },
      {
        metric: "  the largest request, upper bound (UTF-8 bytes / 3 of the whole body)",
        value: bound,
        unit: "tokens",
        target: "≤ 4096",
        met: bound <= 4096,
      },
      {
        metric: "  characters of the document the answer rests on",
        value: record.reading?.read ?? 0,
        unit: `of ${text.length}`,
      },
    ];
  });
}

/** The suite. */
export const knowYourModelSuite: BenchSuite = {
  name: "doctor and context budget",
  async run() {
    return [...(await doctorTime()), ...(await fortyKilobytes())];
  },
};
