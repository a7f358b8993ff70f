/** The first line of an error's message (or of any other value as text), cut at `cap` characters. */
export function firstLine(error: unknown, cap = Infinity): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0].slice(0, cap);
}
