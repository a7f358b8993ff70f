/** Shell-style glob patterns for file names: `*`, `?`, `[abc]`, `{pdf,epub}`. */

/**
 * Compiles a glob to a case-insensitive regular expression matching a whole name.
 *
 * @example
 * globToRegExp("*.pdf").test("Report.PDF") // true
 */
export function globToRegExp(glob: string): RegExp {
  let source = "";
  let braces = 0;
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index];
    if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else if (char === "[") {
      const end = glob.indexOf("]", index + 1);
      if (end === -1) source += "\\[";
      else {
        const body = glob.slice(index + 1, end).replace(/^!/, "^").replace(/\\/g, "\\\\");
        source += `[${body}]`;
        index = end;
      }
    } else if (char === "{") {
      braces++;
      source += "(?:";
    } else if (char === "}" && braces > 0) {
      braces--;
      source += ")";
    } else if (char === "," && braces > 0) source += "|";
    else source += char.replace(/[.+^$()|\\\]{}]/g, "\\$&");
  }
  source += ")".repeat(braces);
  return new RegExp(`^${source}$`, "i");
}
