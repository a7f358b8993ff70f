/** Option and argument specs of the command-line parser, and its help rendering. */

/** One declared option. */
export interface OptionSpec {
  short?: string;
  long: string;
  key: string;
  valueName?: string;
  valueRequired: boolean;
  negate: boolean;
  description: string;
  defaultValue?: unknown;
  parse?: (value: string, previous: unknown) => unknown;
  mandatory: boolean;
}

/** One declared positional argument. */
export interface ArgumentSpec {
  name: string;
  required: boolean;
  variadic: boolean;
  description: string;
  defaultValue?: unknown;
}

/** A command action. */
export type Action = (...args: unknown[]) => unknown;

/** Where help and errors go. */
export interface Output {
  writeOut(text: string): void;
  writeErr(text: string): void;
}

/** `dry-run` → `dryRun`. */
export function camel(name: string): string {
  return name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** Reads `-v, --verbose <level>` flag syntax. */
export function parseFlags(
  flags: string,
): Pick<OptionSpec, "short" | "long" | "valueName" | "valueRequired"> {
  const match = flags.match(/^(?:-(\w),?\s*)?(--[\w-]+)?(?:\s+([<[])([\w.-]+)[>\]])?$/);
  if (!match || !match[2]) throw new Error(`Cannot parse option flags "${flags}"`);
  return {
    short: match[1] ? `-${match[1]}` : undefined,
    long: match[2],
    valueName: match[4],
    valueRequired: match[3] === "<",
  };
}

/** What the help of one command shows. */
export interface HelpView {
  path: string[];
  description: string;
  arguments: ArgumentSpec[];
  options: OptionSpec[];
  hasVersion: boolean;
  commands: Array<{ names: string[]; arguments: ArgumentSpec[]; description: string }>;
  texts: string[];
}

/** Renders commander-style help text. */
export function renderHelp(view: HelpView): string {
  const args = view.arguments.map((arg) =>
    `${arg.required ? "<" : "["}${arg.name}${arg.variadic ? "..." : ""}${arg.required ? ">" : "]"}`
  );
  const usage = [
    ...view.path,
    "[options]",
    ...(view.commands.length ? ["[command]"] : []),
    ...args,
  ];
  const lines = [`Usage: ${usage.join(" ")}`, ""];
  if (view.description) lines.push(view.description, "");
  const rows: Array<[string, string]> = [];
  for (const option of view.options) {
    const flags = [option.short, option.long].filter(Boolean).join(", ");
    const value = option.valueName
      ? option.valueRequired ? ` <${option.valueName}>` : ` [${option.valueName}]`
      : "";
    const fallback = option.defaultValue !== undefined && option.valueName
      ? ` (default: ${JSON.stringify(option.defaultValue)})`
      : "";
    rows.push([`${flags}${value}`, `${option.description}${fallback}`]);
  }
  rows.push(["-h, --help", "display help for command"]);
  if (view.hasVersion) rows.push(["-V, --version", "output the version number"]);
  lines.push("Options:", ...table(rows), "");
  if (view.commands.length) {
    lines.push(
      "Commands:",
      ...table(view.commands.map((command) => [
        command.names.join("|") +
        (command.arguments.length
          ? " " +
            command.arguments.map((arg) => arg.required ? `<${arg.name}>` : `[${arg.name}]`)
              .join(" ")
          : ""),
        command.description,
      ])),
      "",
    );
  }
  lines.push(...view.texts);
  return lines.join("\n").replace(/\n*$/, "\n");
}

function table(rows: Array<[string, string]>): string[] {
  const width = Math.min(32, Math.max(...rows.map(([left]) => left.length)) + 2);
  return rows.map(([left, right]) =>
    left.length + 2 > width
      ? `  ${left}\n  ${" ".repeat(width)}${right}`
      : `  ${left.padEnd(width)}${right}`
  );
}
