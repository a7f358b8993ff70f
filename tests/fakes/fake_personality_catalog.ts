/**
 * An in-memory PersonalityCatalog for dashboard tests: a bundled `default` (read-only, active
 * until another is used), a plugin one, and whatever a test creates. Errors follow the port:
 * UsageError for a bad or taken name or a read-only personality, NotFoundError for a missing one.
 */
import type {
  PersonalityCatalog,
  PersonalityDetails,
  PersonalityKind,
  PersonalitySummary,
} from "../../src/personalities/personality.ts";
import { NotFoundError, UsageError } from "../../src/core/errors.ts";

const validName = /^[a-z0-9][a-z0-9_-]{0,63}$/;

interface Entry {
  name: string;
  kind: PersonalityKind;
  source: string;
  text: string;
}

function descriptionOf(text: string): string {
  const front = /^---\n([\s\S]*?)\n---\n?/.exec(text);
  const described = front ? /^description:\s*(.*)$/m.exec(front[1])?.[1] : undefined;
  if (described) return described.trim();
  const body = front ? text.slice(front[0].length) : text;
  return body.split("\n").find((line) => line.trim())?.trim() ?? "";
}

/** The fake catalog; `calls` records every mutation in order. */
export class FakePersonalityCatalog implements PersonalityCatalog {
  calls: string[] = [];
  private entries = new Map<string, Entry>();
  private active = "default";

  constructor() {
    this.entries.set("default", {
      name: "default",
      kind: "bundled",
      source: "bundled",
      text: "---\nname: default\ndescription: Radar's own voice\n---\nYou are Radar.\n",
    });
    this.entries.set("pirate", {
      name: "pirate",
      kind: "plugin",
      source: "plugin:fun",
      text: "---\ndescription: Talks like a pirate\n---\nArr.\n",
    });
  }

  private summary(entry: Entry): PersonalitySummary {
    return {
      name: entry.name,
      description: descriptionOf(entry.text),
      kind: entry.kind,
      source: entry.source,
      active: entry.name === this.active,
      editable: entry.kind === "flat" || entry.kind === "directory",
    };
  }

  private existing(name: string): Entry {
    const entry = this.entries.get(name);
    if (!entry) throw new NotFoundError(`No personality named "${name}".`);
    return entry;
  }

  private editable(name: string): Entry {
    const entry = this.existing(name);
    if (entry.kind !== "flat" && entry.kind !== "directory") {
      throw new UsageError(`The ${entry.kind} personality "${name}" is read-only.`);
    }
    return entry;
  }

  list(): PersonalitySummary[] {
    return [...this.entries.values()].map((entry) => this.summary(entry));
  }

  show(name: string): PersonalityDetails | undefined {
    const entry = this.entries.get(name);
    if (!entry) return undefined;
    return {
      ...this.summary(entry),
      text: entry.text,
      contextDocuments: entry.kind === "directory"
        ? [{ name: "notes", description: "Background notes" }]
        : [],
      promptTokens: Math.ceil(entry.text.length / 4),
      warning: entry.text.length > 2000
        ? "The system prompt is over its 500-token budget."
        : undefined,
    };
  }

  create(name: string, options: { directory?: boolean; text?: string } = {}): PersonalityDetails {
    if (!validName.test(name)) {
      throw new UsageError(
        `"${name}" is not a personality name: use lower-case letters, digits, - and _`,
      );
    }
    if (this.entries.has(name)) throw new UsageError(`A personality "${name}" already exists.`);
    const kind = options.directory ? "directory" : "flat";
    this.entries.set(name, {
      name,
      kind,
      source: kind === "directory"
        ? `personalities/${name}/PERSONALITY.md`
        : `personalities/${name}.md`,
      text: options.text ?? `---\nname: ${name}\ndescription: \n---\nYou are Radar.\n`,
    });
    this.calls.push(`create ${name}${options.directory ? " directory" : ""}`);
    return this.show(name)!;
  }

  update(name: string, text: string): PersonalityDetails {
    this.editable(name).text = text;
    this.calls.push(`update ${name}`);
    return this.show(name)!;
  }

  remove(name: string): void {
    this.editable(name);
    this.entries.delete(name);
    if (this.active === name) this.active = "default";
    this.calls.push(`remove ${name}`);
  }

  use(name: string): void {
    this.existing(name);
    this.active = name;
    this.calls.push(`use ${name}`);
  }

  activeName(): string {
    return this.active;
  }
}
