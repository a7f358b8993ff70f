/** The comic_info tool over real subprocesses (MuPDF, zip.js, unrar) in a temporary home. */
import { join } from "node:path";
import { comicInfoTool } from "../../src/tools/comic_info.ts";
import { SubprocessComicArchives } from "../../src/adapters/archive/subprocess_comic_archives.ts";
import { createPdfReader } from "../../src/adapters/pdf/subprocess_pdf_reader.ts";
import { createMetadataLookup } from "../../src/library/metadata_lookup.ts";
import type { RadarConfig } from "../../src/config/schema.ts";
import type { ToolDependencies } from "../../src/tools/dependencies.ts";
import { type TempHome, toolDeps } from "./tool_harness.ts";

const env = Deno.env.toObject();

// The comics layout the tests use.
const comicsLayout = "~/Comics/{Series}/{Series} #{Number:000} ({Year}).cbz";

/** comic_info with the test layouts, `edit` applied to the config, `extra` dependencies. */
export function comicTool(
  home: TempHome,
  edit: (config: RadarConfig) => void = () => {},
  extra: Partial<ToolDependencies> = {},
) {
  const deps = toolDeps(home, (config) => {
    config.library.comics = comicsLayout;
    config.library.documents = "~/Documents/{kind}/{date} {sender} {kind}.pdf";
    edit(config);
  }, extra);
  const pdf = createPdfReader(deps.config.tools.pdf, env);
  return comicInfoTool({
    ...deps,
    pdfReader: pdf,
    pdfInfoWriter: pdf,
    comicArchives: new SubprocessComicArchives({ timeoutMs: 30_000, env }),
  }, createMetadataLookup(deps));
}

/** Writes `bytes` at `path` under the home (folders created); returns the full path. */
export async function inHome(home: TempHome, path: string, bytes: Uint8Array): Promise<string> {
  const full = join(home.home, path);
  await Deno.mkdir(join(full, ".."), { recursive: true });
  await Deno.writeFile(full, bytes);
  return full;
}
