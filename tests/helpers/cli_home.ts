/** A temp home for in-process CLI tests: its own data folder, a model server nobody answers on. */
import { join } from "node:path";

/** Runs `run` with the environment of a fresh temp home, then removes the home. */
export async function withCliHome(
  run: (env: Record<string, string>, home: string) => Promise<void>,
): Promise<void> {
  const home = Deno.makeTempDirSync({ prefix: "radar-cli-" });
  try {
    await run({
      HOME: home,
      RADAR_DATA_DIR: join(home, "data"),
      RADAR_LLM_BASE_URL: "http://127.0.0.1:9",
    }, home);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
}
