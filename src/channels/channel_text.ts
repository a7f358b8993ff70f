/**
 * An answer made to fit a chat service: split into numbered parts at paragraph, line or word
 * boundaries, each within the service's limit; an answer too long for `maxParts` keeps its first
 * parts and says, in the last one, how much was left out and where the whole answer is. Nothing
 * is dropped without saying so.
 */

/** The parts of `text` to send, each at most `maxChars` long. */
export function fitToChannel(
  text: string,
  limits: { maxChars: number; maxParts: number },
  /** Where the whole answer can be read (the dashboard's conversation page). */
  whole?: string,
): string[] {
  const body = text.trim() || "(no answer)";
  if (body.length <= limits.maxChars) return [body];
  // Room for the " (12/12)" label each part ends with.
  const room = limits.maxChars - 10;
  const pieces = splitText(body, room);
  if (pieces.length <= limits.maxParts) return label(pieces);
  const notice = (left: number) =>
    `\n\n[${left} more characters not sent here${whole ? `; the whole answer: ${whole}` : ""}]`;
  const kept = pieces.slice(0, limits.maxParts);
  const reserve = notice(body.length).length;
  const last = splitText(kept[kept.length - 1], Math.max(room - reserve, 1))[0];
  kept[kept.length - 1] = last;
  const sent = kept.reduce((sum, piece) => sum + piece.length, 0);
  kept[kept.length - 1] = last + notice(Math.max(body.length - sent, 0));
  return label(kept);
}

function label(pieces: string[]): string[] {
  if (pieces.length === 1) return pieces;
  return pieces.map((piece, index) => `${piece} (${index + 1}/${pieces.length})`);
}

/** Cuts `text` into pieces of at most `size`, at the last paragraph, line or space break. */
export function splitText(text: string, size: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > size) {
    const window = rest.slice(0, size + 1);
    let cut = lastBreak(window, "\n\n", size) ?? lastBreak(window, "\n", size) ??
      lastBreak(window, " ", size) ?? size;
    // Never between the halves of a surrogate pair.
    const code = rest.charCodeAt(cut - 1);
    if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
    pieces.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest) pieces.push(rest);
  return pieces.filter((piece) => piece.length > 0);
}

/** Where the last `separator` in `window` ends, if past a quarter of `size`. */
function lastBreak(window: string, separator: string, size: number): number | undefined {
  const at = window.lastIndexOf(separator, size);
  return at > size / 4 ? at + (separator === " " ? 0 : separator.length) : undefined;
}
