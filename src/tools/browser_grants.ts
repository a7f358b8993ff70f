/**
 * What a standing grant for the browser covers beyond its patterns (`Tool.grantScope`). A grant
 * says yes to a submission only when every request it sends is known (the held submission a
 * person would be shown: `target` and `sends`), never to the model's own claim of where a form
 * goes; and every one of those requests must match the grant's `target` pattern — or, for a grant
 * that names none (made before submissions recorded their target), go to the page's own origin
 * (scheme, host and port), so such a grant never lets a form post to another site.
 */
import { originOf } from "../core/browser.ts";
import type { GrantScope } from "../core/tool.ts";

/** The browser tool's grant scope. */
export const browserGrantScope: GrantScope = {
  covers(patterns, args, matches) {
    if (args.action !== "submit") return true;
    const sent = sentUrls(args);
    if (!sent?.length) return false;
    const target = patterns.target;
    if (target !== undefined) return sent.every((url) => matches(target, url));
    const page = originOf(String(args.url ?? ""));
    return page !== undefined && sent.every((url) => originOf(url) === page);
  },
  limits(patterns, matches) {
    const submits = patterns.action === undefined || matches(patterns.action, "submit");
    if (!submits || patterns.target !== undefined) return [];
    return [
      "no target pattern: it covers a form only while everything the form sends goes to the " +
      "page's own origin (scheme, host and port)",
    ];
  },
};

/** Every URL a stored submission sends (its target first), or undefined when it does not say. */
function sentUrls(args: Record<string, unknown>): string[] | undefined {
  if (!Array.isArray(args.sends)) return undefined;
  const urls = args.sends.map((request) =>
    request !== null && typeof request === "object" ? (request as { url?: unknown }).url : undefined
  );
  if (urls.some((url) => typeof url !== "string")) return undefined;
  return [...(args.target === undefined ? [] : [String(args.target)]), ...urls as string[]];
}
