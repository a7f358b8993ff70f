/**
 * docs/configuration.md is generated from the zod schemas (scripts/config_reference.ts): it must
 * be exactly what the schemas generate now, and every key must say what it does.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { configSchema } from "../../src/config/schema.ts";
import {
  formattedReference,
  referenceCommand,
  referencePath,
} from "../../scripts/config_reference.ts";
import { referenceRows, schemaNode } from "../../scripts/config_reference_rows.ts";
import { fromFileUrl } from "./file_url.ts";

const root = fromFileUrl(new URL("../../", import.meta.url));

Deno.test("docs/configuration.md is what the config schemas generate (not stale)", async () => {
  const expected = await formattedReference(root);
  let committed = "";
  try {
    committed = Deno.readTextFileSync(join(root, referencePath));
  } catch {
    // Missing: reported as stale below.
  }
  const [want, have] = [expected.split("\n"), committed.split("\n")];
  const firstDifference = Array.from({ length: Math.max(want.length, have.length) })
    .findIndex((_, index) => want[index] !== have[index]);
  assert.ok(
    committed === expected,
    `${referencePath} is stale (first difference at line ${
      firstDifference + 1
    }): run \`${referenceCommand}\` and commit the result`,
  );
});

Deno.test("every config key and section has a .describe() text", () => {
  const undescribed = referenceRows(schemaNode(configSchema), "")
    .filter((row) => !row.description).map((row) => row.key);
  assert.deepEqual(
    undescribed,
    [],
    "config keys without a .describe() text in src/config/ (the reference shows it)",
  );
});
