import assert from "node:assert/strict";
import {
  type PluginApiDetails,
  type PluginApiLike,
  pluginsViewFromApi,
} from "../../web/plugin_api_view.ts";

function fakeApi(calls: string[]): PluginApiLike {
  const pending: PluginApiDetails = {
    summary: {
      name: "shell",
      version: "0.2.0",
      trustLevel: "local",
      tools: ["run"],
      status: "pending_review",
      description: "Runs commands",
    },
    trustLevel: "local",
    permissions: ["run any command"],
    warnings: ["WARNING: local trust: this plugin gets the permissions below once you approve"],
    permissionDiff: [],
    files: { "plugin.ts": "export const x = 1;" },
    review: {
      source: "install",
      tests: [{ name: "echo", passed: false, detail: "expected 1" }],
      updatedAt: "2026-11-22T09:00:00Z",
    },
    errors: [],
  };
  return {
    list: () => [pending.summary!, {
      ...pending.summary!,
      name: "weather",
      status: "enabled",
      trustLevel: "sandbox",
    }],
    pendingReviews: () => [pending],
    details: (name) => ({ ...pending, permissions: [`${name} permission`] }),
    approve: (name) => {
      calls.push(`approve ${name}`);
      return Promise.resolve(undefined);
    },
    reject: (name, reason) => void calls.push(`reject ${name} ${reason}`),
    enable: (name) => Promise.resolve(void calls.push(`enable ${name}`)),
    disable: (name) => Promise.resolve(void calls.push(`disable ${name}`)),
  };
}

Deno.test("pluginsViewFromApi maps statuses, trust, permissions, tests and decisions", async () => {
  const calls: string[] = [];
  const view = pluginsViewFromApi(fakeApi(calls));
  const list = await view.list();
  assert.deepEqual(list.map((row) => [row.name, row.status, row.enabled, row.trust]), [
    ["shell", "pending", false, "local"],
    ["weather", "approved", true, "sandbox"],
  ]);
  assert.deepEqual(list[1].permissions, ["weather permission"]);
  const [review] = await view.pendingReviews();
  assert.deepEqual(
    review.permissionDiff.added,
    ["run any command"],
    "a new plugin's permissions are all added",
  );
  assert.equal(review.tests?.passed, false);
  assert.match(review.tests?.output ?? "", /FAIL echo: expected 1/);
  assert.deepEqual(review.files, [{ path: "plugin.ts", content: "export const x = 1;" }]);
  assert.match(review.warnings?.[0] ?? "", /local trust/);
  await view.approve("shell");
  await view.reject("shell", "no");
  await view.setEnabled("weather", false);
  await view.setEnabled("weather", true);
  assert.deepEqual(calls, [
    "approve shell",
    "reject shell no",
    "disable weather",
    "enable weather",
  ]);
});
