import assert from "node:assert/strict";
import { maskSecretsInYaml, restoreSecretsInYaml } from "../../web/config_text.ts";
import { createWebFixture, postForm } from "./web_fixture.ts";

const withSecrets = `# Radar settings
llm:
  model: "test-model" # the small one
  api_key: "sk-live-123"   # keep private
notifications:
  ntfy:
    topic: radar
    token: tk_abc
web:
  auth_token: ""
`;

const htmx = { "HX-Request": "true" };

Deno.test("secrets are masked in the editor text and restored on save, comments untouched", () => {
  const masked = maskSecretsInYaml(withSecrets);
  assert.doesNotMatch(masked, /sk-live-123|tk_abc/);
  assert.ok(masked.includes(`api_key: "********"   # keep private`));
  assert.match(masked, /# Radar settings/);
  assert.match(masked, /auth_token: ""/);
  const edited = masked.replace('"test-model"', '"other-model"');
  const restored = restoreSecretsInYaml(edited, withSecrets);
  assert.equal(restored, withSecrets.replace('"test-model"', '"other-model"'));
  assert.throws(
    () => restoreSecretsInYaml('llm:\n  api_key: "********"\n', "llm: {}\n"),
    /llm\.api_key is "\*\*\*\*\*\*\*\*"; type the real value/,
  );
});

Deno.test("/config shows the source and the masked effective config; secrets never reach the browser", async () => {
  const fixture = createWebFixture({ configText: withSecrets });
  try {
    const response = await fixture.app.request("/config");
    assert.equal(response.status, 200);
    const html = await response.text();
    assert.ok(html.includes(fixture.configPath));
    assert.doesNotMatch(html, /sk-live-123|tk_abc/);
    assert.match(html, /# the small one/);
    assert.match(html, /temperature: 0.3/, "effective config with defaults");
  } finally {
    fixture.close();
  }
});

Deno.test("/config rejects an invalid value with the CLI's message and keeps the file", async () => {
  const fixture = createWebFixture({ configText: withSecrets });
  try {
    const invalid = "llm:\n  temperature: 5\n";
    for (const path of ["/config/validate", "/config"]) {
      const response = await fixture.app.request(path, postForm({ text: invalid }, htmx));
      assert.equal(response.status, 422, path);
      const html = await response.text();
      assert.ok(
        html.includes(
          `Invalid config ${fixture.configPath}: llm.temperature: expected at most 2, found number 5`,
        ),
        html,
      );
    }
    const yamlError = await fixture.app.request(
      "/config/validate",
      postForm({ text: "llm: [\n" }, htmx),
    );
    assert.equal(yamlError.status, 422);
    assert.match(await yamlError.text(), /Cannot edit the config|Invalid config/);
    assert.equal(Deno.readTextFileSync(fixture.configPath), withSecrets);
  } finally {
    fixture.close();
  }
});

Deno.test("/config saves valid text with comments and secrets kept, and reports what needs a restart", async () => {
  const fixture = createWebFixture({ configText: withSecrets });
  try {
    const editorText = maskSecretsInYaml(withSecrets).replace(
      "topic: radar",
      "topic: radar-home # phone",
    );
    const check = await fixture.app.request(
      "/config/validate",
      postForm({ text: editorText }, htmx),
    );
    assert.equal(check.status, 200);
    assert.match(await check.text(), /Valid\./);
    const saved = await fixture.app.request("/config", postForm({ text: editorText }, htmx));
    assert.equal(saved.status, 200);
    assert.match(await saved.text(), /Restart radar serve to apply: notifications/);
    const onDisk = Deno.readTextFileSync(fixture.configPath);
    assert.equal(onDisk, withSecrets.replace("topic: radar", "topic: radar-home # phone"));
    assert.equal(fixture.deps.config.current().config.notifications.ntfy.topic, "radar-home");
    const unchanged = await fixture.app.request(
      "/config",
      postForm({ text: maskSecretsInYaml(onDisk) }, htmx),
    );
    assert.match(await unchanged.text(), /Nothing changed/);
  } finally {
    fixture.close();
  }
});
