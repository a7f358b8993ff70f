/**
 * A part built on first use (`onFirstUse`): built once, by the first call; a failed build is kept
 * (every call gets it) unless `retry`, when the next call builds again.
 */
import assert from "node:assert/strict";
import { onFirstUse } from "../../src/runtime/first_use.ts";

/** A build that fails the first `failures` times, counting its calls. */
function flakyBuild(failures: number) {
  let calls = 0;
  const build = () => {
    calls++;
    return calls <= failures
      ? Promise.reject(new Error(`cannot load (try ${calls})`))
      : Promise.resolve(`part ${calls}`);
  };
  return { build, calls: () => calls };
}

Deno.test("a part is built once, by its first call, and current() never builds it", async () => {
  const flaky = flakyBuild(0);
  const part = onFirstUse(flaky.build);
  assert.equal(part.current(), undefined);
  assert.equal(flaky.calls(), 0);
  const [first, second] = await Promise.all([part(), part()]);
  assert.equal(first, "part 1");
  assert.equal(second, "part 1");
  assert.equal(part.current(), "part 1");
  assert.equal(flaky.calls(), 1);
});

Deno.test("without retry a failed build is every call's answer", async () => {
  const flaky = flakyBuild(1);
  const part = onFirstUse(flaky.build);
  await assert.rejects(part(), /cannot load \(try 1\)/);
  await assert.rejects(part(), /cannot load \(try 1\)/);
  assert.equal(flaky.calls(), 1);
});

Deno.test("with retry a failed build fails that call only, and the next call builds again", async () => {
  const flaky = flakyBuild(1);
  const part = onFirstUse(flaky.build, { retry: true });
  await assert.rejects(part(), /cannot load \(try 1\)/);
  assert.equal(part.current(), undefined);
  assert.equal(await part(), "part 2");
  assert.equal(await part(), "part 2");
  assert.equal(flaky.calls(), 2);
});
