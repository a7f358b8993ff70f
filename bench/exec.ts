/**
 * exec benchmarks: a trivial command through the exec tool inside bubblewrap (spec built,
 * sandbox started, namespace reaped) against the same command run plainly; the difference is
 * what the sandbox costs per call (target < 50 ms).
 */
import type { BenchSuite } from "./index.ts";
import { ManualClock } from "../src/adapters/clock.ts";
import { defaultConfig } from "../src/config/schema.ts";
import { silentLogger } from "../src/core/ports.ts";
import type { FactStore } from "../src/core/ports.ts";
import type { PdfReader } from "../src/library/pdf_reader.ts";
import { execTool } from "../src/tools/exec.ts";
import { runProcess } from "../src/adapters/os/run_process.ts";
import { execSandbox } from "../src/adapters/os/sandbox_spec.ts";
import { Secrets } from "../src/core/secrets.ts";

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Number(sorted[Math.floor(sorted.length / 2)].toFixed(1));
}

/** The exec suite (empty where no sandbox exists). */
export const execSuite: BenchSuite = {
  name: "exec sandbox",
  async run() {
    const home = Deno.makeTempDirSync({ prefix: "radar-bench-exec-" });
    const config = defaultConfig();
    const deps = {
      config,
      dataDir: `${home}/.local/share/radar`,
      facts: {} as FactStore,
      clock: new ManualClock(new Date()),
      logger: silentLogger,
      fetch: globalThis.fetch,
      env: { HOME: home, PATH: Deno.env.get("PATH") },
      cwd: home,
      pdfReader: {} as PdfReader,
      secrets: new Secrets(),
    };
    try {
      if (!execSandbox(deps).program) {
        console.log("exec sandbox: no sandbox on this machine, skipped");
        return [];
      }
      const tool = execTool(deps);
      const context = {
        kind: "ask" as const,
        interactive: false,
        signal: new AbortController().signal,
      };
      const sandboxed: number[] = [];
      const plain: number[] = [];
      for (let i = 0; i < 21; i++) {
        let started = performance.now();
        await tool.run({ command: "true" }, context);
        sandboxed.push(performance.now() - started);
        started = performance.now();
        await runProcess({
          argv: ["/bin/sh", "-c", "true"],
          cwd: home,
          env: { PATH: "/usr/bin:/bin" },
          timeoutMs: 10_000,
          maxOutputBytes: 1000,
        });
        plain.push(performance.now() - started);
      }
      const overhead = Number((median(sandboxed) - median(plain)).toFixed(1));
      console.log(
        `exec: sandboxed call p50 ${median(sandboxed)} ms, plain p50 ${
          median(plain)
        } ms, overhead ${overhead} ms`,
      );
      return [
        { metric: "exec call in bubblewrap p50", value: median(sandboxed), unit: "ms" },
        {
          metric: "exec sandbox overhead p50",
          value: overhead,
          unit: "ms",
          target: "< 50 ms",
          met: overhead < 50,
        },
      ];
    } finally {
      Deno.removeSync(home, { recursive: true });
    }
  },
};
