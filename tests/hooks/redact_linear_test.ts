/**
 * Issue 23, class 5: a user's `redact_response` pattern runs on a linear-time engine (RE2, WASM),
 * so a backtracking pattern over attacker-quoted text cannot keep `radar ask` (or the daemon)
 * busy: the same pattern V8 needs 2^40 steps for is answered at once.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { FakeLlmServer, ollamaText } from "../fakes/fake_llm_server.ts";
import { radarCommand } from "../helpers/radar_process.ts";
import { linearReplacer } from "../../src/hooks/linear_regex.ts";

const catastrophic = "^(a+)+$";
const attackerText = `${"a".repeat(40)}!`;

Deno.test("radar ask with a backtracking redact_response pattern answers at once", async () => {
  const server = FakeLlmServer.start().reply(ollamaText(`${attackerText} sk-abcdef123456`));
  const home = Deno.makeTempDirSync({ prefix: "radar-redact-linear-" });
  const config = join(home, "radar.yaml");
  Deno.writeTextFileSync(
    config,
    `llm:\n  base_url: "${server.url}"\n  retries: 0\nplugins:\n  enabled: false\n` +
      `hooks:\n  rules:\n    - name: greedy\n      type: redact_response\n` +
      `      patterns: ['${catastrophic}', '(x+x+)+y', 'sk-[a-z0-9]{8,}']\n`,
  );
  try {
    const child = radarCommand(home, ["ask", "say it"], { env: { RADAR_CONFIG: config } })
      .spawn();
    // The attempt on a backtracking engine never ends: stop it after 60 s and fail.
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    const output = await child.output();
    clearTimeout(timer);
    const stdout = new TextDecoder().decode(output.stdout);
    assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
    assert.match(stdout, /a{40}! \[redacted\]/, "the other patterns still redact");
  } finally {
    await server.close();
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("the linear engine replaces case-insensitively and everywhere, like the rule says", async () => {
  const replace = await linearReplacer(["SK-[a-z0-9]{8,}", catastrophic], "[x]");
  assert.equal(replace("a sk-abcdef123456 b Sk-ABCDEFGHI c"), "a [x] b [x] c");
  assert.equal(replace(attackerText), attackerText);
  assert.equal(replace("aaaa"), "[x]");
  assert.equal(replace("naïve ünïcode sk-12345678"), "naïve ünïcode [x]");
});

Deno.test("a long answer full of secrets is redacted everywhere, after any character", async () => {
  const replace = await linearReplacer(["sk-[a-z0-9]{8,}", "password:\\s*\\S+"], "[x]");
  // 300 KB, a secret every ~40 characters, after emoji (two UTF-16 units) and accented letters.
  const line = "😀 naïve sk-abcdef123456, password: hunter2 ok\n";
  const answer = line.repeat(Math.ceil(300_000 / line.length));
  const redacted = replace(answer);
  assert.equal(redacted, "😀 naïve [x], [x] ok\n".repeat(Math.ceil(300_000 / line.length)));
  assert.doesNotMatch(redacted, /sk-|hunter2/);
});

Deno.test("the replacement is taken literally: $& never puts the match back", async () => {
  const replace = await linearReplacer(["secret-\\d+"], "[$& $1 $` $']");
  assert.equal(replace("a secret-42 b"), "a [$& $1 $` $'] b");
});

Deno.test("JavaScript forms of a pattern mean what they mean in JavaScript", async () => {
  const replace = await linearReplacer(
    ["\\u00e9t\\u00e9", "a/b", "(?<word>q)z", "\\p{Lu}{3}9"],
    "_",
  );
  assert.equal(replace("été a/b qz ÉÉÉ9 x"), "_ _ _ _ x");
  await assert.rejects(linearReplacer(["(a"], "_"), /pattern "\(a": .*missing closing \)/);
});
