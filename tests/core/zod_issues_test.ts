/** The one zod-issue formatter: paths, zod's wording in words, custom messages kept, secrets. */
import assert from "node:assert/strict";
import { z } from "zod";
import { describeIssue, describeIssues } from "../../src/core/zod_issues.ts";

const schema = z.object({
  query: z.string().min(1),
  items: z.array(z.object({ name: z.string() })).max(1),
  mode: z.enum(["a", "b"]).optional(),
  when: z.string().regex(/^\d\d:\d\d$/, "expected HH:MM").optional(),
  api_key: z.number().optional(),
}).strict();

function issues(input: unknown) {
  const parsed = schema.safeParse(input);
  assert.ok(!parsed.success);
  return parsed.error;
}

Deno.test("describeIssues() words zod's issues with their paths", () => {
  assert.equal(
    describeIssues(issues({ query: "", items: [{ name: 1 }] })),
    "query: expected at least 1 character; items[0].name: expected string",
  );
  assert.equal(
    describeIssues(issues({ query: "q", items: [{ name: "a" }, { name: "b" }] })),
    "items: expected at most 1 item",
  );
  assert.equal(
    describeIssues(issues({ query: "q", items: [], mode: "c", when: "9am", extra: 1 })),
    'mode: expected one of "a", "b"; when: expected HH:MM; (top level): unknown key "extra"',
  );
  assert.equal(describeIssues(issues(5), { root: "(arguments)" }), "(arguments): expected object");
});

Deno.test("describeIssue() with the input says what was found, never a secret's value", () => {
  const input = { query: "q", items: [], api_key: "sk-live-123456" };
  const [issue] = issues(input).issues;
  assert.equal(
    describeIssue(issue, { input, secretKey: /key$/ }),
    "api_key: expected number, found a secret of 14 characters",
  );
  assert.equal(describeIssue(issue, { input }), 'api_key: expected number, found "sk-live-123456"');
});
