/**
 * `deno task bench [WORD]`: runs every suite (or those whose name contains WORD) and prints a
 * table of numbers against targets.
 */
import { type BenchLine, suites } from "./index.ts";

const rows: Array<BenchLine & { suite: string }> = [];
for (const suite of suites) {
  if (Deno.args[0] && !suite.name.includes(Deno.args[0])) continue;
  console.log(`\n== ${suite.name}`);
  try {
    for (const line of await suite.run()) {
      rows.push({ ...line, suite: suite.name });
      const verdict = line.met === undefined ? "" : line.met ? "  ok" : "  MISSED";
      console.log(
        `  ${line.metric}: ${line.value} ${line.unit}${
          line.target ? ` (target ${line.target})` : ""
        }${verdict}`,
      );
    }
  } catch (error) {
    console.log(`  failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
console.log(
  `\n${rows.length} numbers, ${rows.filter((row) => row.met === false).length} targets missed`,
);
