/**
 * Text for a terminal or a log: the one cleaner every line Radar prints passes (`runCli` wraps the
 * CLI's stdout and stderr in it; the logger and the plugin protocol use it too). Text Radar did not
 * write (a digest, a model's tool name, an MCP server's tool list, a plugin's stderr) may carry
 * escape sequences that clear the screen, retitle the window, write the clipboard (OSC 52) or hide
 * what follows; none of that survives. The counterpart for text that reaches a model is
 * `textForModel` in `untrusted_text.ts`.
 */

const escapeSequence =
  // deno-lint-ignore no-control-regex
  /\u001b(?:\[[0-?]*[ -/]*[@-~]?|[\]PX^_][^\u0007\u001b]*(?:\u0007|\u001b\\)?|.?)/g;
// 8-bit C1 forms: CSI (0x9b) with its parameters; OSC, DCS, SOS, PM, APC up to their terminator.
const c1Sequence =
  // deno-lint-ignore no-control-regex
  /\u009b[0-?]*[ -/]*[@-~]?|[\u0090\u0098\u009d-\u009f][^\u0007\u001b\u009c]*[\u0007\u009c]?/g;
// C0 and C1 controls but tab and newline; DEL; bidirectional embeddings, overrides and isolates
// (text that displays in another order than it reads).
// deno-lint-ignore no-control-regex
const controlCharacter = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every terminal control sequence and control character removed (newlines, tabs kept). */
export function textForTerminal(text: string): string {
  return text
    .replace(/\r\n/g, "\n")
    .replace(escapeSequence, "")
    .replace(c1Sequence, "")
    .replace(controlCharacter, "");
}
