/**
 * A POSIX-shell lexer for checking commands, not running them: words after quote removal (with
 * `$'…'` decoded), operators, redirections with here-documents, and the text of every command
 * substitution (`$(…)`, backticks, `<(…)`) so it can be checked too.
 */

/** A word after quote removal. */
export interface Word {
  /** The text the shell would see, with unknown expansions kept as written. */
  text: string;
  /** True when part of the word is computed at run time ($var, $(…), `…`). */
  dynamic: boolean;
  /** True when an unquoted glob character (* ? [) appears. */
  glob: boolean;
  /** True when any part was quoted or escaped. */
  quoted: boolean;
  /** Commands inside $(…), `…`, <(…), >(…) and ${…:-$(…)}. */
  substitutions: string[];
  /** True when the whole word is a process substitution <(…) / >(…). */
  processSubstitution: boolean;
}

/** A token of the command line. */
export type Token =
  | { type: "word"; word: Word }
  | { type: "op"; op: string }
  | { type: "redirect"; op: string; target: Word; heredoc?: string };

/** Thrown for text the lexer cannot split safely (unbalanced quotes or parentheses). */
export class ShellSyntaxError extends Error {}

const operators = ["&&", "||", ";;", "|&", ";", "&", "|", "(", ")", "\n"];
const redirects = ["<<<", "<<-", "&>>", "<<", ">>", "<>", ">|", ">&", "<&", "&>", ">", "<"];

/** Splits a command line into tokens. */
export function lex(source: string): Token[] {
  return new Lexer(source).run();
}

class Lexer {
  #source: string;
  #index = 0;
  #tokens: Token[] = [];
  #pendingHeredocs: Array<
    { token: Token & { type: "redirect" }; strip: boolean; expand: boolean }
  > = [];

  constructor(source: string) {
    this.#source = source;
  }

  run(): Token[] {
    const text = this.#source;
    while (this.#index < text.length) {
      const char = text[this.#index];
      if (char === " " || char === "\t" || char === "\r") {
        this.#index++;
      } else if (char === "\\" && text[this.#index + 1] === "\n") {
        this.#index += 2;
      } else if (char === "#") {
        while (this.#index < text.length && text[this.#index] !== "\n") this.#index++;
      } else if (char === "\n") {
        this.#index++;
        this.#tokens.push({ type: "op", op: "\n" });
        this.#readHeredocBodies();
      } else if (this.#atProcessSubstitution()) {
        this.#tokens.push({ type: "word", word: this.#word() });
      } else if (this.#redirect()) {
        continue;
      } else {
        const op = operators.find((candidate) => text.startsWith(candidate, this.#index));
        if (op) {
          this.#index += op.length;
          this.#tokens.push({ type: "op", op });
        } else {
          this.#tokens.push({ type: "word", word: this.#word() });
        }
      }
    }
    if (this.#pendingHeredocs.length) this.#readHeredocBodies();
    return this.#tokens;
  }

  #atProcessSubstitution(): boolean {
    const text = this.#source;
    return (text[this.#index] === "<" || text[this.#index] === ">") &&
      text[this.#index + 1] === "(";
  }

  #redirect(): boolean {
    const text = this.#source;
    let cursor = this.#index;
    while (/[0-9]/.test(text[cursor] ?? "")) cursor++;
    if (text[cursor] === "{") { // {fd}>file
      const close = text.indexOf("}", cursor);
      if (close > cursor && /^\{[A-Za-z_][A-Za-z0-9_]*\}[<>]/.test(text.slice(cursor, close + 2))) {
        cursor = close + 1;
      }
    }
    const op = redirects.find((candidate) => text.startsWith(candidate, cursor));
    if (!op) return false;
    this.#index = cursor + op.length;
    while (text[this.#index] === " " || text[this.#index] === "\t") this.#index++;
    if (this.#index >= text.length || "\n;&|()".includes(text[this.#index])) {
      throw new ShellSyntaxError(`a redirection (${op}) has no target`);
    }
    const target = this.#word();
    const token = { type: "redirect" as const, op, target };
    this.#tokens.push(token);
    if (op === "<<" || op === "<<-") {
      this.#pendingHeredocs.push({ token, strip: op === "<<-", expand: !target.quoted });
    }
    return true;
  }

  #readHeredocBodies(): void {
    const text = this.#source;
    for (const pending of this.#pendingHeredocs) {
      const delimiter = pending.token.target.text;
      const lines: string[] = [];
      let closed = false;
      while (this.#index < text.length) {
        let end = text.indexOf("\n", this.#index);
        if (end === -1) end = text.length;
        let line = text.slice(this.#index, end);
        this.#index = end + 1;
        if (pending.strip) line = line.replace(/^\t+/, "");
        if (line === delimiter) {
          closed = true;
          break;
        }
        lines.push(line);
      }
      if (!closed && this.#index < text.length) {
        throw new ShellSyntaxError("unterminated here-document");
      }
      pending.token.heredoc = lines.join("\n");
      if (pending.expand) {
        pending.token.target.substitutions.push(...substitutionsIn(pending.token.heredoc));
      }
    }
    this.#pendingHeredocs = [];
  }

  #word(): Word {
    const text = this.#source;
    const word: Word = {
      text: "",
      dynamic: false,
      glob: false,
      quoted: false,
      substitutions: [],
      processSubstitution: false,
    };
    let unquoted = "";
    if (this.#atProcessSubstitution()) {
      this.#index++;
      word.substitutions.push(this.#balanced("(", ")"));
      word.dynamic = true;
      word.processSubstitution = true;
      word.text = "<(…)";
      return word;
    }
    while (this.#index < text.length) {
      const char = text[this.#index];
      if (" \t\r\n;&|()<>".includes(char)) break;
      if (char === "\\") {
        word.quoted = true;
        const next = text[this.#index + 1];
        this.#index += 2;
        if (next === "\n") continue;
        word.text += next ?? "";
      } else if (char === "'") {
        word.quoted = true;
        const end = text.indexOf("'", this.#index + 1);
        if (end === -1) throw new ShellSyntaxError("unbalanced single quote");
        word.text += text.slice(this.#index + 1, end);
        this.#index = end + 1;
      } else if (char === '"') {
        word.quoted = true;
        this.#index++;
        this.#doubleQuoted(word);
      } else if (char === "$" && text[this.#index + 1] === "'") {
        word.quoted = true;
        this.#index += 2;
        word.text += this.#ansiC();
      } else if (char === "$" && text[this.#index + 1] === '"') {
        this.#index++;
      } else if (char === "$" || char === "`") {
        this.#expansion(word);
      } else {
        if ("*?[".includes(char)) word.glob = true;
        word.text += char;
        unquoted += char;
        this.#index++;
      }
    }
    if (/\{[^{}]*(,|\.\.)[^{}]*\}/.test(unquoted)) word.dynamic = true; // brace expansion
    return word;
  }

  #doubleQuoted(word: Word): void {
    const text = this.#source;
    while (true) {
      if (this.#index >= text.length) throw new ShellSyntaxError("unbalanced double quote");
      const char = text[this.#index];
      if (char === '"') {
        this.#index++;
        return;
      }
      if (char === "\\" && '"\\$`\n'.includes(text[this.#index + 1] ?? "")) {
        if (text[this.#index + 1] !== "\n") word.text += text[this.#index + 1];
        this.#index += 2;
      } else if (char === "$" || char === "`") {
        this.#expansion(word);
      } else {
        word.text += char;
        this.#index++;
      }
    }
  }

  /** $(…), $((…)), `…`, ${…}, $name: marks the word dynamic and records substitutions. */
  #expansion(word: Word): void {
    const text = this.#source;
    const start = this.#index;
    if (text[start] === "`") {
      let end = start + 1;
      let inner = "";
      while (end < text.length && text[end] !== "`") {
        if (text[end] === "\\" && end + 1 < text.length) {
          inner += text[end + 1];
          end += 2;
        } else inner += text[end++];
      }
      if (end >= text.length) throw new ShellSyntaxError("unbalanced backtick");
      this.#index = end + 1;
      word.substitutions.push(inner);
    } else if (text.startsWith("$((", start)) {
      this.#index++;
      const inner = this.#balanced("(", ")");
      word.substitutions.push(...substitutionsIn(inner));
    } else if (text[start + 1] === "(") {
      this.#index++;
      word.substitutions.push(this.#balanced("(", ")"));
    } else if (text[start + 1] === "{") {
      this.#index++;
      const inner = this.#balanced("{", "}");
      word.substitutions.push(...substitutionsIn(inner));
    } else {
      const match = /^\$([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(text.slice(start));
      if (!match) {
        word.text += "$";
        this.#index++;
        return;
      }
      this.#index += match[0].length;
    }
    word.text += text.slice(start, this.#index);
    word.dynamic = true;
  }

  /** Reads a balanced (…) or {…} group starting at the opening character; returns its inside. */
  #balanced(open: string, close: string): string {
    const text = this.#source;
    const start = this.#index + 1;
    let depth = 0;
    let index = this.#index;
    while (index < text.length) {
      const char = text[index];
      if (char === "\\") index += 2;
      else if (char === "'" && open === "(") {
        const end = text.indexOf("'", index + 1);
        if (end === -1) throw new ShellSyntaxError("unbalanced single quote");
        index = end + 1;
      } else if (char === '"') {
        index++;
        while (index < text.length && text[index] !== '"') index += text[index] === "\\" ? 2 : 1;
        index++;
      } else {
        if (char === open) depth++;
        else if (char === close) {
          depth--;
          if (depth === 0) {
            this.#index = index + 1;
            return text.slice(start, index);
          }
        }
        index++;
      }
    }
    throw new ShellSyntaxError(`unbalanced ${open}`);
  }

  #ansiC(): string {
    const text = this.#source;
    let out = "";
    while (true) {
      if (this.#index >= text.length) throw new ShellSyntaxError("unbalanced $' quote");
      const char = text[this.#index];
      if (char === "'") {
        this.#index++;
        return out;
      }
      if (char !== "\\") {
        out += char;
        this.#index++;
        continue;
      }
      const next = text[this.#index + 1];
      const simple: Record<string, string> = {
        n: "\n",
        t: "\t",
        r: "\r",
        a: "\x07",
        b: "\b",
        e: "\x1b",
        E: "\x1b",
        f: "\f",
        v: "\v",
        "\\": "\\",
        "'": "'",
        '"': '"',
        "?": "?",
      };
      if (next in simple) {
        out += simple[next];
        this.#index += 2;
        continue;
      }
      const hex =
        /^x([0-9a-fA-F]{1,2})|^u([0-9a-fA-F]{1,4})|^U([0-9a-fA-F]{1,8})|^([0-7]{1,3})|^c(.)/
          .exec(text.slice(this.#index + 1));
      if (hex) {
        const code = hex[1] ?? hex[2] ?? hex[3];
        if (code) out += String.fromCodePoint(parseInt(code, 16));
        else if (hex[4]) out += String.fromCharCode(parseInt(hex[4], 8));
        else out += String.fromCharCode(hex[5].charCodeAt(0) & 0x1f);
        this.#index += 1 + hex[0].length;
      } else {
        out += "\\";
        this.#index++;
      }
    }
  }
}

/** The command substitutions inside a piece of text (a here-document, ${…}, $((…))). */
export function substitutionsIn(text: string): string[] {
  if (!/[$`]/.test(text)) return [];
  try {
    const found: string[] = [];
    for (const token of lex(text.replace(/["']/g, " "))) {
      if (token.type === "word") found.push(...token.word.substitutions);
      if (token.type === "redirect") found.push(...token.target.substitutions);
    }
    return found;
  } catch {
    return [text];
  }
}
