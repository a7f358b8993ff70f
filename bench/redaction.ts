/**
 * `redact_response` on model answers of 5, 50, 250 and 1,000 KB (three patterns, a secret every
 * ~25 characters, non-ASCII text): the median time of one redaction and its time per 100 KB,
 * which stays flat because redaction is linear (re2-wasm's own `replace`, used before, took
 * ~12 ms at 5 KB, ~150 ms at 20 KB and 57–100 s at 250 KB). Target: 250 KB in < 1 s.
 */
import type { BenchLine, BenchSuite } from "./index.ts";
import { timed } from "./flow_rule.ts";
import { linearReplacer } from "../src/hooks/linear_regex.ts";

const patterns = ["sk-[a-z0-9]{8,}", "password:\\s*\\S+", "\\b\\d{3}-\\d{2}-\\d{4}\\b"];
const line = "Naïve 😀 words, a key sk-abcdef123456, password: hunter2 and 123-45-6789 here. ";

const answerOf = (kilobytes: number) =>
  line.repeat(Math.ceil((kilobytes * 1024) / line.length)).slice(0, kilobytes * 1024);

/** The redaction suite. */
export const redactionSuite: BenchSuite = {
  name: "redaction",
  async run() {
    const redact = await linearReplacer(patterns, "[redacted]");
    redact(answerOf(50)); // past the engine's load and the JIT's first tiers
    const lines: BenchLine[] = [];
    for (const kilobytes of [5, 50, 250, 1000]) {
      const answer = answerOf(kilobytes);
      const time = timed(kilobytes >= 250 ? 3 : 9, () => redact(answer));
      const perHundred = ((time * 100) / kilobytes).toFixed(1);
      lines.push({
        metric:
          `redact_response, 3 patterns, a ${kilobytes} KB answer (${perHundred} ms per 100 KB)`,
        value: Number(time.toFixed(1)),
        unit: "ms",
        ...(kilobytes === 250 ? { target: "< 1000 ms", met: time < 1000 } : {}),
      });
    }
    return lines;
  },
};
