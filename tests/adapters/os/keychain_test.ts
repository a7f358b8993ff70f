/**
 * Passwords from the OS keychain: a fake `secret-tool` on PATH (argv, no shell), a real Dovecot
 * logging in with it, every failure as one line, never stored in the database.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { configSchema } from "../../../src/config/schema.ts";
import { keychainCommand } from "../../../src/adapters/os/keychain.ts";
import { readPassword } from "../../../src/adapters/os/account_secrets.ts";
import { runAgent } from "../../../src/core/agent_loop.ts";
import { openRadar } from "../../../src/runtime/open_radar.ts";
import { installFakeSecretTool } from "../../fakes/fake_secret_tool.ts";
import { mailMessage, startDovecot } from "../../fakes/dovecot_server.ts";
import {
  ScriptedChatModel,
  textResponse,
  toolCallResponse,
} from "../../fakes/scripted_chat_model.ts";
import { needing } from "../../helpers/system_parts.ts";
import { Secrets } from "../../../src/core/secrets.ts";

const settings = (service: string, account: string) => ({
  password_cmd: "",
  password_env: "",
  keychain: { service, account },
});

Deno.test("keychain: secret-tool lookup by argv (no shell); missing, locked, hanging and absent are one line each", async () => {
  const fake = installFakeSecretTool();
  const hostile = "radar mail; $(touch pwned) `id`";
  try {
    fake.store(hostile, "alice", "kc-password-1");
    const options = {
      env: fake.env,
      timeoutMs: 2000,
      os: "linux" as const,
      secrets: new Secrets(),
    };
    assert.equal(
      await readPassword(settings(hostile, "alice"), "email account home", options),
      "kc-password-1",
    );
    assert.deepEqual(fake.calls(), [["lookup", "service", hostile, "account", "alice"]]);
    assert.ok(!Deno.readDirSync(Deno.cwd()).some((entry) => entry.name === "pwned"));

    await assert.rejects(
      readPassword(settings("radar", "bob"), "email account work", options),
      {
        message:
          'email account work: no password in the keychain for service "radar" account "bob"',
      },
    );
    await assert.rejects(
      readPassword(settings("radar", "alice"), "calendar family", {
        ...options,
        env: { PATH: "/nonexistent" },
      }),
      {
        message:
          "calendar family: secret-tool is not installed (Debian/Ubuntu: apt install libsecret-tools)",
      },
    );
    await assert.rejects(
      readPassword(settings("radar", "alice"), "calendar family", { ...options, os: "windows" }),
      {
        message: "calendar family: the keychain is supported on macOS and Linux only, not windows",
      },
    );
    fake.behave("locked");
    await assert.rejects(
      readPassword(settings(hostile, "alice"), "email account home", options),
      /^Error: email account home: the keychain is locked or refused access to service .* Cannot get secret of a locked object$/,
    );
    fake.behave("hang");
    const started = Date.now();
    await assert.rejects(
      readPassword(settings(hostile, "alice"), "email account home", {
        ...options,
        timeoutMs: 300,
      }),
      { message: "email account home: keychain (secret-tool) timed out after 300 ms" },
    );
    assert.ok(Date.now() - started < 5000, "killed at the timeout");
  } finally {
    fake.dispose();
  }
});

Deno.test("keychain: macOS asks `security find-generic-password -s S -a A -w`", () => {
  assert.deepEqual(keychainCommand({ service: "radar", account: "alice" }, "darwin"), {
    program: "security",
    args: ["find-generic-password", "-s", "radar", "-a", "alice", "-w"],
    missing: "the macOS `security` program is missing",
  });
});

Deno.test("keychain config: accepted for mail and CalDAV; one password source at most", () => {
  const parsed = configSchema.parse({
    email: {
      accounts: [{ name: "home", host: "h", user: "u", keychain: { service: "s", account: "a" } }],
    },
    calendar: {
      calendars: [{
        name: "c",
        caldav_url: "https://dav",
        keychain: { service: "s", account: "b" },
      }],
    },
  });
  assert.deepEqual(parsed.email.accounts[0].keychain, { service: "s", account: "a" });
  assert.deepEqual(parsed.calendar.calendars[0].keychain, { service: "s", account: "b" });
  const both = configSchema.safeParse({
    email: {
      accounts: [{
        name: "home",
        host: "h",
        user: "u",
        password_env: "P",
        keychain: { service: "s", account: "a" },
      }],
    },
  });
  assert.equal(both.success, false);
  assert.match(
    JSON.stringify(both.error?.issues),
    /exactly one of password_cmd, password_env or keychain/,
  );
});

Deno.test(needing(["dovecot"], {
  name: "keychain: a real Dovecot login with the keychain's password, never stored in the database",
  async fn() {
    const password = "kc-dovecot-8812";
    const server = await startDovecot({ alice: password });
    const fake = installFakeSecretTool();
    fake.store("radar-mail", "alice", password);
    const home = Deno.makeTempDirSync({ prefix: "radar-keychain-" });
    const configPath = join(home, "radar.yaml");
    Deno.writeTextFileSync(
      configPath,
      `email:\n  accounts:\n    - name: home\n      host: 127.0.0.1\n      port: ${server.port}\n` +
        `      tls: none\n      user: alice\n      keychain: { service: radar-mail, account: alice }\n`,
    );
    await server.deliver(
      "alice",
      password,
      mailMessage({ from: "carol@example.test", subject: "Lunch" }),
    );
    const model = new ScriptedChatModel([toolCallResponse("list_email", {}), textResponse("ok")]);
    const runtime = await openRadar({
      configPath,
      env: { ...fake.env, HOME: home, RADAR_DATA_DIR: join(home, "data") },
      cwd: home,
      model,
      logLevel: "error",
      logWriters: [],
    });
    try {
      const conversationId = runtime.conversations.createConversation("chat", "t", new Date());
      await runAgent(await runtime.agent(), {
        conversationId,
        kind: "chat",
        userMessage: "any mail?",
        interactive: false,
      });
      const listed = model.requests[1].messages.find((message) => message.role === "tool");
      assert.match(listed?.content ?? "", /carol@example\.test · Lunch/);
      assert.equal(fake.calls().length, 1);
    } finally {
      runtime.close();
      await server.stop();
      fake.dispose();
    }
    const dataDir = join(home, "data");
    for (const entry of Deno.readDirSync(dataDir)) {
      if (!entry.isFile) continue;
      const bytes = new TextDecoder("latin1").decode(Deno.readFileSync(join(dataDir, entry.name)));
      assert.ok(!bytes.includes(password), `${entry.name} holds the password`);
    }
    Deno.removeSync(home, { recursive: true });
  },
}));

Deno.test("a password_cmd that prints without end is cut off: its first line, not a timeout", async () => {
  const started = performance.now();
  const password = await readPassword(
    { password_cmd: "yes hunter2-endless", password_env: "" },
    "email account home",
    { env: { PATH: Deno.env.get("PATH") }, timeoutMs: 20_000, secrets: new Secrets() },
  );
  assert.equal(password, "hunter2-endless");
  // Read only up to the cap: the program is stopped long before the 20 s timeout.
  assert.ok(performance.now() - started < 10_000);
});
