/** Groups shell tokens into simple commands and pipelines (enough structure to check them). */
import { lex, type Token, type Word } from "./shell_lexer.ts";

/** A redirection of a simple command. */
export type Redirect = Token & { type: "redirect" };

/** One simple command: its words (assignments and wrappers included) and redirections. */
export interface SimpleCommand {
  words: Word[];
  redirects: Redirect[];
  /** The stages of the pipeline this command is part of (itself included). */
  pipeline: SimpleCommand[];
  /** Position in the pipeline (0 = first). */
  stage: number;
  /** Names of the functions whose body this command is in. */
  insideFunctions: string[];
}

/** A parsed command line. */
export interface ParsedLine {
  commands: SimpleCommand[];
  /** Every substitution ($(…), `…`, <(…)) anywhere in the line, to be checked as commands. */
  substitutions: string[];
  /** A construct the checker does not follow, if any. */
  unsupported?: string;
}

const skippedReserved = new Set([
  "!",
  "{",
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "do",
  "done",
  "while",
  "until",
  "[[",
]);

/** Lexes and parses a command line. Throws ShellSyntaxError for unbalanced quoting. */
export function parseCommandLine(source: string): ParsedLine {
  const tokens = lex(source);
  const commands: SimpleCommand[] = [];
  const substitutions: string[] = [];
  let unsupported: string | undefined;
  let pipeline: SimpleCommand[] = [];
  const functionStack: Array<{ name: string; depth: number }> = [];
  let braceDepth = 0;
  let current = newCommand(pipeline, [], 0);
  let skippingLoopHead = false;

  const finish = (continuesPipeline: boolean) => {
    if (current.words.length || current.redirects.length) {
      commands.push(current);
      pipeline.push(current);
    }
    if (!continuesPipeline) pipeline = [];
    current = newCommand(pipeline, functionStack.map((entry) => entry.name), pipeline.length);
    skippingLoopHead = false;
  };

  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    if (token.type === "redirect") {
      substitutions.push(...token.target.substitutions);
      current.redirects.push(token);
      continue;
    }
    if (token.type === "op") {
      const next = tokens[index + 1];
      if (
        token.op === "(" && next?.type === "op" && next.op === ")" &&
        current.words.length === 1 && !current.words[0].dynamic
      ) {
        functionStack.push({ name: current.words[0].text, depth: braceDepth });
        current.words = [];
        index++;
        continue;
      }
      if (token.op === ";;") unsupported ??= "case statements";
      finish(token.op === "|" || token.op === "|&");
      continue;
    }
    const word = token.word;
    substitutions.push(...word.substitutions);
    if (skippingLoopHead) continue;
    if (current.words.length === 0 && !word.quoted) {
      if (word.text === "{") {
        braceDepth++;
        continue;
      }
      if (word.text === "}" || word.text === "]]") {
        if (word.text === "}") braceDepth--;
        while (functionStack.length && functionStack.at(-1)!.depth >= braceDepth) {
          functionStack.pop();
        }
        continue;
      }
      if (word.text === "function") {
        const name = tokens[index + 1];
        if (name?.type === "word") {
          functionStack.push({ name: name.word.text, depth: braceDepth });
          index++;
          const open = tokens[index + 1];
          if (open?.type === "op" && open.op === "(") index += 2;
        }
        continue;
      }
      if (word.text === "for" || word.text === "select") {
        skippingLoopHead = true;
        continue;
      }
      if (word.text === "case" || word.text === "esac") {
        unsupported ??= "case statements";
        continue;
      }
      if (skippedReserved.has(word.text)) continue;
    }
    if (current.words.length === 0) {
      current.insideFunctions = functionStack.map((entry) => entry.name);
    }
    current.words.push(word);
  }
  finish(false);
  return { commands, substitutions, unsupported };
}

function newCommand(pipeline: SimpleCommand[], functions: string[], stage: number): SimpleCommand {
  return { words: [], redirects: [], pipeline, stage, insideFunctions: functions };
}
