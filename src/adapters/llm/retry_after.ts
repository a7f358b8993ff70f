/** Reads an HTTP `Retry-After` header: delay seconds or an HTTP-date (RFC 9110 §10.2.3). */

/**
 * Milliseconds to wait from `nowMs`, or undefined when the header is absent or unreadable.
 * A date in the past means "now" (0).
 */
export function retryAfterMs(header: string | null | undefined, nowMs: number): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // An HTTP-date always names its day and zone ("Wed, 21 Oct 2015 07:28:00 GMT"): plain numbers
  // with a fraction or sign are not dates.
  if (!/[a-z]/i.test(value)) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
