/** `openRadar({ loaded })`: the config a caller already loaded is used as is (`radar serve`). */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConfig } from "../../src/config/loader.ts";
import { readTextFileIfExists } from "../../src/config/config_file.ts";
import { openRadar } from "../../src/runtime/open_radar.ts";

Deno.test("openRadar uses the config it is handed and does not read the file again", async () => {
  const home = Deno.makeTempDirSync({ prefix: "radar-loaded-config-" });
  try {
    const configPath = join(home, "radar.yaml");
    Deno.writeTextFileSync(configPath, "radar:\n  name: Ada\n");
    const env = { HOME: home, RADAR_DATA_DIR: join(home, "data") };
    const loaded = loadConfig({
      explicitPath: configPath,
      env,
      cwd: home,
      readTextFile: readTextFileIfExists,
    });
    // The file is gone: reading it again would fail with "config file not found".
    Deno.removeSync(configPath);
    const radar = await openRadar({ configPath, env, cwd: home, loaded, logLevel: "error" });
    try {
      assert.equal(radar.config, loaded.config);
      assert.equal(radar.config.radar.name, "Ada");
    } finally {
      radar.close();
    }
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});
