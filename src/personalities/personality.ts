/**
 * Personalities as the CLI (`radar personality …`) and the dashboard (/personalities) see them.
 * One vocabulary, declared once; `src/personalities/` implements the catalog over files.
 */

/** Where a personality comes from. Only `flat` and `directory` ones (in the data folder) are editable. */
export type PersonalityKind = "flat" | "directory" | "plugin" | "bundled";

/** One personality in a listing. */
export interface PersonalitySummary {
  name: string;
  /** Front matter `description`, else the first line of the body. */
  description: string;
  kind: PersonalityKind;
  /** The file or folder, or `plugin:NAME` for one a plugin bundles, or `bundled`. */
  source: string;
  /** True for the personality new conversations use now. */
  active: boolean;
  /** True when the user may edit or delete it (flat and directory ones in the data folder). */
  editable: boolean;
}

/** A context document of a directory personality (loaded on demand by `load_context`). */
export interface PersonalityContextDocument {
  name: string;
  description: string;
}

/** One personality with everything `show` and the editor need. */
export interface PersonalityDetails extends PersonalitySummary {
  /** The whole file as stored (front matter included): what the editor shows and saves. */
  text: string;
  /** Front matter `model` (a role name or a model name), when set. */
  model?: string;
  temperature?: number;
  tools?: { include?: string[]; exclude?: string[] };
  contextDocuments: PersonalityContextDocument[];
  /** Tokens of the system prompt this personality produces (estimate). */
  promptTokens: number;
  /** Set when the system prompt passes its 500-token budget, in one readable line. */
  warning?: string;
}

/**
 * The personalities of this Radar. Mutating methods throw `UsageError` (core/errors.ts) with one
 * readable line for a bad name, an existing name on create or a non-editable one, and
 * `NotFoundError` for a missing one (exit code 3).
 */
export interface PersonalityCatalog {
  list(): PersonalitySummary[];
  show(name: string): PersonalityDetails | undefined;
  create(name: string, options?: { directory?: boolean; text?: string }): PersonalityDetails;
  update(name: string, text: string): PersonalityDetails;
  remove(name: string): void;
  /** Makes `name` the active personality (stored in the data folder, not the config file). */
  use(name: string): void;
  /** The name new conversations use (after -P, RADAR_PERSONALITY, `use`, config). */
  activeName(): string;
}
