/** The daemon's mail check reads `password_env` from Radar's environment, not the process's. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openRadar } from "../../src/runtime/open_radar.ts";

Deno.test("the email tick job finds a password_env variable Radar was opened with", async () => {
  const directory = Deno.makeTempDirSync({ prefix: "radar-work-env-" });
  const configPath = join(directory, "radar.yaml");
  Deno.writeTextFileSync(
    configPath,
    [
      'llm:\n  base_url: "http://127.0.0.1:9"',
      "email:",
      "  timeout_seconds: 2",
      "  idle: false",
      "  accounts:",
      "    - name: work",
      "      host: 127.0.0.1",
      "      port: 9", // nothing listens: the check fails after reading the password
      "      tls: none",
      "      user: me",
      "      password_env: RADAR_TEST_ONLY_MAIL_PASSWORD",
      "",
    ].join("\n"),
  );
  assert.equal(Deno.env.get("RADAR_TEST_ONLY_MAIL_PASSWORD"), undefined);
  const radar = await openRadar({
    configPath,
    env: {
      HOME: directory,
      RADAR_DATA_DIR: join(directory, "data"),
      PATH: "/usr/bin:/bin",
      RADAR_TEST_ONLY_MAIL_PASSWORD: "from-radar-env",
    },
    cwd: directory,
    logLevel: "error",
  });
  try {
    const email = (await radar.tickJobs()).find((job) => job.name.startsWith("email"));
    assert.ok(email, (await radar.tickJobs()).map((job) => job.name).join(", "));
    await email.run(new Date(), AbortSignal.timeout(10_000));
    const [work] = await radar.sourceHealth.records({ PATH: "/usr/bin:/bin" });
    assert.equal(work.name, "work");
    assert.doesNotMatch(work.lastError ?? "", /RADAR_TEST_ONLY_MAIL_PASSWORD is empty/);
    assert.equal(work.state, "failing", work.lastError);
  } finally {
    radar.close();
    Deno.removeSync(directory, { recursive: true });
  }
});
