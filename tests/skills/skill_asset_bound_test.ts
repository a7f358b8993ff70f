/**
 * Issue 23, class 5: `use_skill` reads at most what it shows of a resource. A 1.5 GB asset (sparse
 * here) costs one bounded read, not 1.5 GB of memory and a string V8 cannot hold.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { maxResourceChars, readResource } from "../../src/skills/skill_files.ts";

Deno.test("a huge skill asset is read only as far as the cut", () => {
  const dir = Deno.makeTempDirSync({ prefix: "radar-skill-asset-" });
  try {
    Deno.mkdirSync(join(dir, "assets"));
    const path = join(dir, "assets", "huge.txt");
    Deno.writeTextFileSync(path, "é".repeat(maxResourceChars + 10));
    const size = 1536 * 1024 * 1024;
    Deno.truncateSync(path, size);
    const before = Deno.memoryUsage().rss;
    const read = readResource(dir, "assets/huge.txt");
    assert.ok("text" in read, JSON.stringify(read).slice(0, 200));
    assert.equal(read.text.slice(0, maxResourceChars), "é".repeat(maxResourceChars));
    assert.match(read.text, /\[truncated: the file has 1610612736 bytes\]$/);
    assert.ok(Deno.memoryUsage().rss - before < 256 * 1024 * 1024, "read whole");
    // A small file is whole, multi-byte characters intact.
    Deno.writeTextFileSync(join(dir, "assets", "small.txt"), "naïve ✓\n");
    assert.deepEqual(readResource(dir, "assets/small.txt"), { text: "naïve ✓\n" });
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
