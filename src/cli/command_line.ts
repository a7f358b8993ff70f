/**
 * A small command-line parser with the subset of commander's API Radar uses (subcommands,
 * options, arguments, help). It imports nothing from node:, which keeps `radar` start-up fast:
 * commander alone pulls node:fs and node:child_process and costs ~50 ms per start.
 */
import {
  type Action,
  type ArgumentSpec,
  camel,
  type OptionSpec,
  type Output,
  parseFlags,
  renderHelp,
} from "./command_help.ts";

/** Thrown for usage errors, help and version output; `code` says which. */
export class CommanderError extends Error {
  constructor(readonly exitCode: number, readonly code: string, message: string) {
    super(message);
    this.name = "CommanderError";
  }
}

/** Thrown by argument parsers for a bad value (reported as a usage error). */
export class InvalidArgumentError extends CommanderError {
  constructor(message: string) {
    super(1, "commander.invalidArgument", message);
    this.name = "InvalidArgumentError";
  }
}

/** One command (the program itself is the root command). */
export class Command {
  readonly commands: Command[] = [];
  parent?: Command;
  #name: string;
  #aliases: string[] = [];
  #description = "";
  #arguments: ArgumentSpec[] = [];
  #options: OptionSpec[] = [];
  #values: Record<string, unknown> = {};
  #action?: Action;
  #version?: string;
  #output: Output = {
    writeOut: (text) => console.log(text.replace(/\n$/, "")),
    writeErr: (text) => console.error(text.replace(/\n$/, "")),
  };
  #helpAfterError = "";
  #helpTexts: string[] = [];
  #allowUnknown = false;

  constructor(name = "") {
    this.#name = name;
  }

  /** The command's name, or sets it. */
  name(): string;
  name(value: string): this;
  name(value?: string): string | this {
    if (value === undefined) return this.#name;
    this.#name = value;
    return this;
  }

  /** The description, or sets it. */
  description(): string;
  description(value: string): this;
  description(value?: string): string | this {
    if (value === undefined) return this.#description;
    this.#description = value;
    return this;
  }

  /** Adds an alias name. */
  alias(name: string): this {
    this.#aliases.push(name);
    return this;
  }

  /** Adds a subcommand and returns it. `name` may include arguments: "show <id>". */
  command(nameAndArguments: string): Command {
    const [name, ...argumentTokens] = nameAndArguments.trim().split(/\s+/);
    const child = new Command(name);
    child.parent = this;
    child.#output = this.#output;
    for (const token of argumentTokens) child.argument(token);
    this.commands.push(child);
    return child;
  }

  /** Declares a positional argument: `<name>`, `[name]`, `<name...>`. */
  argument(token: string, description = "", defaultValue?: unknown): this {
    const match = token.match(/^([<[])([\w-]+)(\.\.\.)?[>\]]$/);
    if (!match) throw new Error(`Cannot parse argument "${token}"`);
    this.#arguments.push({
      name: match[2],
      required: match[1] === "<",
      variadic: Boolean(match[3]),
      description,
      defaultValue,
    });
    return this;
  }

  /** Declares an option: "-n, --limit <n>", "--json", "--no-color". */
  option(
    flags: string,
    description = "",
    parseOrDefault?: unknown,
    defaultValue?: unknown,
  ): this {
    return this.#addOption(flags, description, parseOrDefault, defaultValue, false);
  }

  /** Declares an option that must be given. */
  requiredOption(
    flags: string,
    description = "",
    parseOrDefault?: unknown,
    defaultValue?: unknown,
  ): this {
    return this.#addOption(flags, description, parseOrDefault, defaultValue, true);
  }

  #addOption(
    flags: string,
    description: string,
    parseOrDefault: unknown,
    defaultValue: unknown,
    mandatory: boolean,
  ): this {
    const parsed = parseFlags(flags);
    const negate = parsed.long.startsWith("--no-");
    const key = camel(negate ? parsed.long.slice(5) : parsed.long.slice(2));
    const parse = typeof parseOrDefault === "function"
      ? parseOrDefault as OptionSpec["parse"]
      : undefined;
    const fallback = parse ? defaultValue : parseOrDefault;
    this.#options.push({
      ...parsed,
      key,
      negate,
      description,
      parse,
      mandatory,
      defaultValue: fallback,
    });
    return this;
  }

  /** Sets the function run when this command is chosen. */
  action(action: (...args: never[]) => unknown): this {
    this.#action = action as Action;
    return this;
  }

  /** Adds `-V, --version`. */
  version(version: string, _flags?: string): this {
    this.#version = version;
    return this;
  }

  /** Shows this line after usage errors. */
  showHelpAfterError(message = "(add --help for additional information)"): this {
    this.#helpAfterError = message;
    return this;
  }

  /** Extra text after the help. */
  addHelpText(_position: string, text: string): this {
    this.#helpTexts.push(text);
    return this;
  }

  /** Accepts unknown options as arguments. */
  allowUnknownOption(allow = true): this {
    this.#allowUnknown = allow;
    return this;
  }

  /** Errors are always thrown as CommanderError (kept for commander compatibility). */
  exitOverride(): this {
    return this;
  }

  /** Where help and errors are written. */
  configureOutput(output: Output): this {
    this.#output = output;
    for (const child of this.commands) child.configureOutput(output);
    return this;
  }

  /** The parsed option values of this command. */
  opts<T = Record<string, unknown>>(): T {
    return { ...this.#values } as T;
  }

  /** Option values of this command merged over its ancestors'. */
  optsWithGlobals<T = Record<string, unknown>>(): T {
    return { ...(this.parent?.optsWithGlobals() ?? {}), ...this.#values } as T;
  }

  /** The help text. */
  helpInformation(): string {
    return renderHelp({
      path: this.#lineage().map((command) => command.#name),
      description: this.#description,
      arguments: this.#arguments,
      options: this.#allOptions(),
      hasVersion: this.#version !== undefined,
      commands: this.commands.map((command) => ({
        names: [command.#name, ...command.#aliases],
        arguments: command.#arguments,
        description: command.#description,
      })),
      texts: this.#helpTexts,
    });
  }

  /** Writes the help to stdout. */
  outputHelp(): void {
    this.#output.writeOut(this.helpInformation());
  }

  /** Writes help and stops (as a CommanderError with code commander.helpDisplayed). */
  help(): never {
    this.outputHelp();
    throw new CommanderError(0, "commander.helpDisplayed", "(outputHelp)");
  }

  /** Reports a usage error and stops. */
  error(message: string, code = "commander.error"): never {
    this.#output.writeErr(`error: ${message}\n`);
    if (this.#helpAfterError) this.#output.writeErr(`${this.#helpAfterError}\n`);
    throw new CommanderError(1, code, message);
  }

  /** Parses `args` (without program name) and runs the chosen command's action. */
  async parseAsync(args: string[], _options?: { from: "user" }): Promise<this> {
    await this.#dispatch([...args]);
    return this;
  }

  /** This command and its ancestors, root first. */
  #lineage(): Command[] {
    return this.parent ? [...this.parent.#lineage(), this] : [this];
  }

  #allOptions(): OptionSpec[] {
    return this.#options;
  }

  #findOption(flag: string): { command: Command; option: OptionSpec } | undefined {
    for (const command of this.#lineage().reverse()) {
      const option = command.#options.find((entry) => entry.long === flag || entry.short === flag);
      if (option) return { command, option };
    }
    return undefined;
  }

  #applyDefaults(): void {
    for (const option of this.#options) {
      if (!(option.key in this.#values)) {
        if (option.negate) this.#values[option.key] = true;
        else if (option.defaultValue !== undefined) this.#values[option.key] = option.defaultValue;
      }
    }
  }

  async #dispatch(args: string[]): Promise<void> {
    this.#applyDefaults();
    const positional: string[] = [];
    let child: Command | undefined;
    while (args.length) {
      const arg = args.shift()!;
      if (arg === "--") {
        positional.push(...args.splice(0));
        break;
      }
      if (arg === "-h" || arg === "--help") this.help();
      if ((arg === "-V" || arg === "--version") && this.#version !== undefined) {
        this.#output.writeOut(`${this.#version}\n`);
        throw new CommanderError(0, "commander.version", this.#version);
      }
      if (arg.startsWith("-") && arg.length > 1 && !/^-\d/.test(arg)) {
        const [flag, inline] = arg.startsWith("--") && arg.includes("=")
          ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
          : [arg, undefined];
        const found = this.#findOption(flag);
        if (!found) {
          if (this.#allowUnknown) {
            positional.push(arg);
            continue;
          }
          this.error(`unknown option '${flag}'`, "commander.unknownOption");
        }
        const { command, option } = found;
        let value: unknown = !option.negate;
        if (option.valueName) {
          const next = inline ??
            (option.valueRequired || (args.length && !args[0].startsWith("-"))
              ? args.shift()
              : undefined);
          if (next === undefined) {
            if (option.valueRequired) {
              this.error(
                `option '${
                  [option.short, option.long].filter(Boolean).join(", ")
                } <${option.valueName}>' argument missing`,
                "commander.optionMissingArgument",
              );
            }
            value = true;
          } else {
            value = option.parse
              ? this.#parseValue(option, next, command.#values[option.key])
              : next;
          }
        }
        command.#values[option.key] = value;
        continue;
      }
      if (!child && positional.length === 0 && this.commands.length) {
        child = this.commands.find((command) =>
          command.#name === arg || command.#aliases.includes(arg)
        );
        if (child) {
          await child.#dispatch(args);
          return;
        }
        if (!this.#action) this.error(`unknown command '${arg}'`, "commander.unknownCommand");
      }
      positional.push(arg);
    }
    await this.#run(positional);
  }

  #parseValue(option: OptionSpec, value: string, previous: unknown): unknown {
    try {
      return option.parse!(value, previous);
    } catch (error) {
      if (error instanceof InvalidArgumentError) {
        this.error(
          `option '${option.long}' argument '${value}' is invalid. ${error.message}`,
          error.code,
        );
      }
      throw error;
    }
  }

  async #run(positional: string[]): Promise<void> {
    if (!this.#action) {
      if (this.parent === undefined && positional.length === 0) this.help();
      this.#output.writeErr(this.helpInformation());
      throw new CommanderError(1, "commander.missingCommand", "missing command");
    }
    for (const option of this.#options) {
      if (option.mandatory && this.#values[option.key] === undefined) {
        this.error(
          `required option '${option.long}' not specified`,
          "commander.missingMandatoryOptionValue",
        );
      }
    }
    const values: unknown[] = [];
    for (const spec of this.#arguments) {
      if (spec.variadic) {
        const rest = positional.splice(0);
        if (spec.required && rest.length === 0) {
          this.error(`missing required argument '${spec.name}'`, "commander.missingArgument");
        }
        values.push(rest.length ? rest : spec.defaultValue ?? []);
        continue;
      }
      const value = positional.shift();
      if (value === undefined && spec.required) {
        this.error(`missing required argument '${spec.name}'`, "commander.missingArgument");
      }
      values.push(value ?? spec.defaultValue);
    }
    if (positional.length && !this.#allowUnknown) {
      this.error(
        `too many arguments${
          this.#name ? ` for '${this.#name}'` : ""
        }. Expected ${this.#arguments.length} argument${
          this.#arguments.length === 1 ? "" : "s"
        } but got ${this.#arguments.length + positional.length}.`,
        "commander.excessArguments",
      );
    }
    await this.#action(...values, this.opts(), this);
  }
}
