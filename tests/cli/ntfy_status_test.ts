import assert from "node:assert/strict";
import { join } from "node:path";
import { defaultConfig } from "../../src/config/schema.ts";
import { generatedTopic, newTopic, topicBits } from "../../src/config/ntfy_topic.ts";
import { isPublicServer, ntfyStatusLines } from "../../src/cli/commands/ntfy_status.ts";

Deno.test("a generated topic has 160 random bits, is made once, owner-only", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const first = generatedTopic(join(dir, "data"))!;
    assert.match(first, /^radar-[A-Za-z0-9_-]{27}$/);
    assert.equal(generatedTopic(join(dir, "data")), first, "made once");
    assert.equal(Deno.statSync(join(dir, "data/ntfy_topic")).mode! & 0o777, 0o600);
    assert.notEqual(newTopic(), newTopic());
    assert.ok(topicBits(first) >= 128, `${topicBits(first)} bits`);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("radar status: no topic → off, with a topic only you know; weak public topics warn", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const config = defaultConfig();
    const [off] = ntfyStatusLines(config, dir);
    assert.match(
      off,
      /^notifications: off \(no notifications\.ntfy\.topic\); a topic only you know: radar-[A-Za-z0-9_-]{27} — subscribe/,
    );
    config.notifications.ntfy.topic = "radar";
    const weak = ntfyStatusLines(config, dir).join("\n");
    assert.match(
      weak,
      /WARNING: https:\/\/ntfy\.sh is public and the topic is short \(about 23 bits\)/,
    );
    assert.match(weak, /WARNING: https:\/\/ntfy\.sh is public and no access token is set/);
    config.notifications.ntfy.topic = generatedTopic(dir)!;
    config.notifications.ntfy.token = "tk_x";
    assert.deepEqual(ntfyStatusLines(config, dir), [
      "notifications: ntfy https://ntfy.sh (topic 33 characters)",
    ]);
    config.notifications.ntfy = { url: "http://192.168.1.5:8080", topic: "radar", token: "" };
    assert.equal(
      ntfyStatusLines(config, dir).length,
      1,
      "a server on the home network: no warning",
    );
    assert.equal(isPublicServer("https://ntfy.example.org"), true);
    assert.equal(isPublicServer("http://127.0.0.1:8080"), false);
    assert.equal(isPublicServer("http://box.tailnet.ts.net"), false);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
