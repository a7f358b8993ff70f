/** Personality test helpers: a temp data folder with real personality files. */
import { dirname, join } from "node:path";
import { defaultConfig, type RadarConfig } from "../../src/config/schema.ts";
import { FilePersonalityCatalog } from "../../src/personalities/personality_catalog.ts";
import type { PluginPersonalityFile } from "../../src/personalities/personality_sources.ts";

/** Writes `files` (relative path → text) under `root`. */
export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    Deno.mkdirSync(dirname(join(root, path)), { recursive: true });
    Deno.writeTextFileSync(join(root, path), text);
  }
}

/** A catalog over a fresh temp data folder; `close()` removes it. */
export function catalogFixture(options: {
  files?: Record<string, string>;
  personality?: string;
  env?: Record<string, string>;
  plugins?: PluginPersonalityFile[];
} = {}) {
  const home = Deno.makeTempDirSync({ prefix: "radar-personalities-" });
  const dataDir = join(home, "data");
  writeFiles(join(dataDir, "personalities"), options.files ?? {});
  const config: RadarConfig = defaultConfig();
  if (options.personality !== undefined) config.radar.personality = options.personality;
  const warnings: string[] = [];
  const catalog = new FilePersonalityCatalog({
    dataDir,
    config: () => config,
    env: { HOME: home, ...options.env },
    plugins: () => options.plugins ?? [],
    promptTokens: (personality) => Math.ceil(personality.body.length / 3.5) + 200,
    warn: (line) => warnings.push(line),
  });
  return {
    home,
    dataDir,
    config,
    catalog,
    warnings,
    dir: join(dataDir, "personalities"),
    close: () => Deno.removeSync(home, { recursive: true }),
  };
}
