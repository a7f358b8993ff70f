/**
 * `radar personality edit NAME`: the file is copied to a private temporary file, opened in
 * $VISUAL, $EDITOR or vi, and saved back only when its front matter is valid. A rejected edit is
 * kept in the temporary file (its path is in the error) so nothing typed is lost.
 */
import { join } from "node:path";
import type { CliContext } from "../context.ts";
import { firstLine, RadarError, UsageError } from "../../core/errors.ts";
import type { PersonalityCatalog, PersonalityDetails } from "../../personalities/personality.ts";

/** The editor command line: $VISUAL, then $EDITOR, then vi (split on spaces, e.g. "code -w"). */
function editorCommand(env: Record<string, string | undefined>): string[] {
  const chosen = env.VISUAL?.trim() || env.EDITOR?.trim() || "vi";
  return chosen.split(/\s+/);
}

/** Edits an editable personality; returns it as saved. */
export async function editPersonality(
  context: CliContext,
  catalog: PersonalityCatalog & { editableText(name: string): string },
  name: string,
): Promise<PersonalityDetails> {
  const before = catalog.editableText(name);
  const folder = Deno.makeTempDirSync({ prefix: "radar-personality-" });
  const file = join(folder, `${name}.md`);
  Deno.writeTextFileSync(file, before, { mode: 0o600 });
  const [program, ...args] = editorCommand(context.io.env);
  let code: number;
  try {
    ({ code } = await new Deno.Command(program, {
      args: [...args, file],
      stdin: "inherit",
      stdout: "inherit",
      stderr: "inherit",
    }).output());
  } catch (error) {
    Deno.removeSync(folder, { recursive: true });
    throw new UsageError(
      `Cannot start the editor "${program}" (${firstLine(error)}); ` +
        `set VISUAL or EDITOR`,
    );
  }
  if (code !== 0) {
    Deno.removeSync(folder, { recursive: true });
    throw new RadarError(`The editor exited with code ${code}; personality ${name} is unchanged`);
  }
  const text = Deno.readTextFileSync(file);
  try {
    const saved = catalog.update(name, text);
    Deno.removeSync(folder, { recursive: true });
    return saved;
  } catch (error) {
    if (error instanceof UsageError) {
      throw new UsageError(`${error.message}; not saved (your edit is in ${file})`);
    }
    throw error;
  }
}
