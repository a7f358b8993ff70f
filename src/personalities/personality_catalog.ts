/**
 * The personalities of one Radar over files (the `PersonalityCatalog` port): list, show, create,
 * update, remove and `use` for the data folder's flat and directory personalities; plugin and
 * bundled ones are read-only. Which one a run uses: `-P` (the caller's override), then
 * `RADAR_PERSONALITY`, then the `radar personality use` choice (`<data>/personalities/.active`,
 * never the user's radar.yaml), then `radar.personality`, then `default`. A `radar.personality`
 * that names nothing but holds whitespace is the old inline text and keeps working.
 */
import { join } from "node:path";
import type { RadarConfig } from "../config/schema.ts";
import { isFolder } from "../config/quiet_stat.ts";
import { ConfigError, NotFoundError, RadarError, UsageError } from "../core/errors.ts";
import type { PersonalityCatalog, PersonalityDetails, PersonalitySummary } from "./personality.ts";
import {
  describePersonality,
  maxPersonalityFileBytes,
  parsePersonality,
  personalityNamePattern,
} from "./personality_file.ts";
import {
  dataFolderNames,
  type PluginPersonalityFile,
  type Resolution,
  resolveBundled,
  type ResolvedPersonality,
  resolveInDataFolder,
  resolvePersonality,
  type SourceOptions,
  writeFileAtomically,
} from "./personality_sources.ts";

/** The system prompt's token budget a personality should leave room in. */
const promptTokenBudget = 500;

/** The name under which an inline `radar.personality` text is listed and selected. */
const inlineName = "inline";

/** What the catalog is built from. */
interface PersonalityCatalogOptions {
  dataDir: string;
  /** The live config (`radar.personality` may change while the daemon runs). */
  config: () => RadarConfig;
  env: Record<string, string | undefined>;
  /** The personalities enabled plugins bundle. */
  plugins?: () => PluginPersonalityFile[];
  /** Estimated tokens of the system prompt a personality produces. */
  promptTokens?: (personality: ResolvedPersonality) => number;
  warn?: (line: string) => void;
}

/** Where the active name came from (for the error when it names nothing). */
type Origin = "option" | "env" | "use" | "config" | "task" | "heartbeat" | "default";

/** The personalities over `<data>/personalities/`, plugins and the bundled default. */
export class FilePersonalityCatalog implements PersonalityCatalog {
  readonly dir: string;
  readonly #options: PersonalityCatalogOptions;
  readonly #sources: SourceOptions;

  constructor(options: PersonalityCatalogOptions) {
    this.#options = options;
    this.dir = join(options.dataDir, "personalities");
    this.#sources = {
      dir: this.dir,
      plugins: options.plugins,
      warn: options.warn,
    };
  }

  /** Every personality: data folder, plugins, bundled, and the inline or path one when active. */
  list(): PersonalitySummary[] {
    const active = this.activeName();
    const seen = new Set<string>();
    const rows: PersonalitySummary[] = [];
    const add = (resolution: Resolution, name: string) => {
      if (!resolution || seen.has(name)) return;
      seen.add(name);
      rows.push(this.#summary(resolution, name, active));
    };
    for (const name of dataFolderNames(this.dir)) {
      add(resolveInDataFolder(name, this.#sources), name);
    }
    for (const entry of this.#options.plugins?.() ?? []) {
      const name = entry.file.replace(/\.md$/, "");
      add(resolvePersonality(name, this.#sources), name);
    }
    add(resolveBundled("default"), "default");
    if (!seen.has(active)) {
      const inline = this.#inline();
      if (active === inlineName && inline) add(inline, inlineName);
      else add(resolvePersonality(active, this.#sources), active);
    }
    return rows;
  }

  /** One personality with its text, settings, context documents and prompt size. */
  show(name: string): PersonalityDetails | undefined {
    const resolution = this.#resolve(name);
    if (!resolution) return undefined;
    if ("error" in resolution) throw new UsageError(resolution.error);
    return this.#details(resolution);
  }

  /** Creates a flat (or directory) personality in the data folder. */
  create(name: string, options: { directory?: boolean; text?: string } = {}): PersonalityDetails {
    this.#checkName(name, "create");
    if (resolveInDataFolder(name, this.#sources)) {
      throw new UsageError(`Cannot create personality "${name}": it already exists`);
    }
    const text = options.text ?? templateFor(name);
    this.#checkText(text, name);
    if (options.directory) {
      const folder = join(this.dir, name);
      Deno.mkdirSync(join(folder, "context"), { recursive: true });
      writeFileAtomically(join(folder, "PERSONALITY.md"), text);
    } else {
      writeFileAtomically(join(this.dir, `${name}.md`), text);
    }
    return this.show(name)!;
  }

  /** Replaces an editable personality's file (validated first). */
  update(name: string, text: string): PersonalityDetails {
    const found = this.#editable(name, "edit");
    this.#checkText(text, name);
    writeFileAtomically(
      found.kind === "directory" ? join(found.dir!, "PERSONALITY.md") : found.source,
      text,
    );
    return this.show(name)!;
  }

  /** An editable personality's file text, even when it is invalid (what `edit` starts from). */
  editableText(name: string): string {
    const found = this.#editable(name, "edit");
    const file = found.kind === "directory" ? join(found.source, "PERSONALITY.md") : found.source;
    return Deno.readTextFileSync(file);
  }

  /** Deletes an editable personality (a directory one with its folder). */
  remove(name: string): void {
    const found = this.#editable(name, "remove");
    Deno.removeSync(found.source, { recursive: found.kind === "directory" });
    if (this.#chosen() === name) Deno.removeSync(this.#activeFile());
  }

  /** Makes `name` the active personality (`<data>/personalities/.active`). */
  use(name: string): void {
    this.#checkName(name, "use");
    const resolution = this.#resolve(name);
    if (!resolution) {
      throw new NotFoundError(`Cannot use personality "${name}": no such personality`);
    }
    if ("error" in resolution) throw new UsageError(resolution.error);
    writeFileAtomically(this.#activeFile(), `${name}\n`);
  }

  /** The name new conversations use (without a `-P`). */
  activeName(): string {
    return this.#active().name;
  }

  /**
   * The personality a run uses: `override` (from -P, a task or the heartbeat config) or the
   * active one. Throws one readable line when the name resolves to nothing or to a bad file.
   */
  forRun(
    override?: { name: string; origin: "option" | "task" | "heartbeat" },
  ): ResolvedPersonality {
    const { name, origin } = override ?? this.#active();
    const resolution = this.#resolve(name);
    if (resolution && !("error" in resolution)) return resolution;
    if (resolution) {
      throw origin === "option" || origin === "task"
        ? new UsageError(`Cannot use personality "${name}": ${resolution.error}`)
        : new ConfigError(`Cannot use personality "${name}": ${resolution.error}`);
    }
    const hint = personalityNamePattern.test(name)
      ? "(radar personality list shows them)"
      : "(personalities are chosen by name, never by path: radar personality create NAME " +
        "--from FILE adds a file as one)";
    switch (origin) {
      case "option":
        throw new UsageError(`No personality named "${name}" ${hint}`);
      case "task":
        throw new RadarError(`The task's personality "${name}" no longer exists ${hint}`);
      case "env":
        throw new ConfigError(`RADAR_PERSONALITY: no personality named "${name}" ${hint}`);
      case "use":
        throw new ConfigError(
          `The personality chosen with \`radar personality use\`, "${name}", no longer exists ` +
            `${hint}`,
        );
      case "heartbeat":
        throw new ConfigError(`heartbeat.personality: no personality named "${name}" ${hint}`);
      default:
        throw new ConfigError(`radar.personality: no personality named "${name}" ${hint}`);
    }
  }

  /** Why the active personality cannot be used, or undefined when it can (for `radar status`). */
  problem(): string | undefined {
    try {
      this.forRun();
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  }

  #active(): { name: string; origin: Origin } {
    const fromEnv = this.#options.env.RADAR_PERSONALITY?.trim();
    if (fromEnv) return { name: fromEnv, origin: "env" };
    const chosen = this.#chosen();
    if (chosen) return { name: chosen, origin: "use" };
    const configured = this.#options.config().radar.personality.trim();
    if (configured) {
      return { name: this.#isInline(configured) ? inlineName : configured, origin: "config" };
    }
    return { name: "default", origin: "default" };
  }

  #resolve(name: string): Resolution {
    if (name === inlineName) {
      const inline = this.#inline();
      if (inline) return inline;
    }
    return resolvePersonality(name, this.#sources);
  }

  /** A config value that names nothing and holds whitespace is inline text (the old meaning). */
  #isInline(value: string): boolean {
    return /\s/.test(value) && !resolvePersonality(value, this.#sources);
  }

  #inline(): ResolvedPersonality | undefined {
    const text = this.#options.config().radar.personality.trim();
    if (!text || !this.#isInline(text)) return undefined;
    return {
      name: inlineName,
      kind: "bundled",
      source: "radar.personality",
      editable: false,
      text,
      body: text,
      frontMatter: { description: "The inline text of radar.personality in radar.yaml" },
      contextDocuments: [],
      resources: [],
    };
  }

  #chosen(): string | undefined {
    try {
      return Deno.readTextFileSync(this.#activeFile()).trim() || undefined;
    } catch {
      return undefined;
    }
  }

  #activeFile(): string {
    return join(this.dir, ".active");
  }

  #checkName(name: string, verb: string): void {
    if (!personalityNamePattern.test(name)) {
      throw new UsageError(
        `Cannot ${verb} personality "${name}": a name is 1-64 lowercase letters, digits, _ or - ` +
          `(starting with a letter or digit)`,
      );
    }
  }

  #checkText(text: string, name: string): void {
    if (new TextEncoder().encode(text).length > maxPersonalityFileBytes) {
      throw new UsageError(
        `Personality "${name}" is larger than ${maxPersonalityFileBytes / 1024} KiB`,
      );
    }
    const parsed = parsePersonality(text, `personality "${name}"`);
    if (typeof parsed === "string") throw new UsageError(parsed);
  }

  #editable(name: string, verb: string): ResolvedPersonality {
    this.#checkName(name, verb);
    const found = resolveInDataFolder(name, this.#sources);
    if (found && !("error" in found)) return found;
    if (found) {
      // A bad file is still the user's to fix or delete.
      const folder = join(this.dir, name);
      const directory = isFolder(folder);
      return {
        name,
        kind: directory ? "directory" : "flat",
        source: directory ? folder : join(this.dir, `${name}.md`),
        editable: true,
        dir: directory ? folder : undefined,
        text: "",
        body: "",
        frontMatter: {},
        contextDocuments: [],
        resources: [],
      };
    }
    const elsewhere = resolvePersonality(name, this.#sources);
    if (elsewhere && !("error" in elsewhere)) {
      throw new UsageError(
        `Cannot ${verb} personality "${name}": it comes from ${elsewhere.source} and is read-only ` +
          `(radar personality create ${name} makes your own, which takes precedence)`,
      );
    }
    throw new NotFoundError(`Cannot ${verb} personality "${name}": no such personality`);
  }

  #summary(resolution: Resolution, name: string, active: string): PersonalitySummary {
    if (!resolution || "error" in resolution) {
      return {
        name,
        description: resolution ? `(unusable: ${resolution.error})` : "(missing)",
        kind: "flat",
        source: join(this.dir, name),
        active: name === active,
        editable: true,
      };
    }
    return {
      name,
      description: describePersonality(resolution),
      kind: resolution.kind,
      source: resolution.source,
      active: name === active,
      editable: resolution.editable,
    };
  }

  #details(resolution: ResolvedPersonality): PersonalityDetails {
    const { frontMatter } = resolution;
    const promptTokens = this.#options.promptTokens?.(resolution) ?? 0;
    return {
      ...this.#summary(resolution, resolution.name, this.activeName()),
      text: resolution.text,
      model: frontMatter.model,
      temperature: frontMatter.temperature,
      tools: frontMatter.tools,
      contextDocuments: resolution.contextDocuments.map(({ name, description }) => ({
        name,
        description,
      })),
      promptTokens,
      warning: promptWarning(resolution.name, promptTokens),
    };
  }
}

/** The one-line warning for a system prompt past its budget, or undefined. */
export function promptWarning(name: string, promptTokens: number): string | undefined {
  return promptTokens > promptTokenBudget
    ? `personality "${name}" makes the system prompt ~${promptTokens} tokens, past its ` +
      `${promptTokenBudget}-token budget: small models follow long prompts poorly and every ` +
      `request pays for it`
    : undefined;
}

/** The text `create` writes when none is given. */
function templateFor(name: string): string {
  return `---
name: ${name}
description: One line that says what this personality is for
# model: fast            # a role of llm.models, or a model name
# temperature: 0.3
# tools:
#   exclude: [exec]
---
Describe how Radar should behave: tone, priorities, what to avoid. Keep it short.
`;
}
