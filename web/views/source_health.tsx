/**
 * The event sources' health on the dashboard home: the lines `radar status` prints for email
 * accounts, calendars, MCP servers, custom checks and GitHub, grouped by their heading line and
 * marked good (ok), bad (failing) or muted (not checked yet, not used). Lines are text: JSX
 * escapes them, so an error message from a server cannot add markup.
 */

/** One heading line ("sources:", "github:    ok …") and its indented lines. */
export interface SourceHealthGroup {
  heading: string;
  lines: string[];
}

/** Groups status lines: an unindented line starts a group, indented ones belong to it. */
export function groupSourceHealth(lines: string[]): SourceHealthGroup[] {
  const groups: SourceHealthGroup[] = [];
  for (const line of lines) {
    if (/^\s/.test(line) && groups.length) groups.at(-1)!.lines.push(line.trim());
    else groups.push({ heading: line.trim(), lines: [] });
  }
  return groups;
}

/** The class a line's state gets: bad when failing, good when ok, muted otherwise. */
export function healthClass(line: string): "good" | "bad" | "muted" | undefined {
  if (/FAILING|NOT RUNNING|failing \(exit/.test(line)) return "bad";
  if (/:\s+ok\b|:\s+approved\b/.test(line)) return "good";
  if (/not checked yet|not run yet|not used|pending|changed|no email accounts/.test(line)) {
    return "muted";
  }
  return undefined;
}

/** Headings of `radar status` that read better spelled out on a card. */
const labels: Record<string, string> = { sources: "email and calendars" };

function Line(props: { text: string }) {
  const colon = props.text.indexOf(":");
  if (colon <= 0) return <span class={healthClass(props.text)}>{props.text}</span>;
  const rest = props.text.slice(colon + 1).trim();
  return (
    <>
      <strong>{labels[props.text.slice(0, colon)] ?? props.text.slice(0, colon)}</strong>
      {rest ? <span class={healthClass(props.text)}>{` ${rest}`}</span> : null}
    </>
  );
}

/** The sources' health as nested lists. */
export function SourceHealthList(props: { lines: string[] }) {
  const groups = groupSourceHealth(props.lines);
  if (!groups.length) return <p class="muted">No event sources configured.</p>;
  return (
    <ul class="plain source-health">
      {groups.map((group) => (
        <li>
          <Line text={group.heading} />
          {group.lines.length
            ? (
              <ul>
                {group.lines.map((line) => (
                  <li>
                    <Line text={line} />
                  </li>
                ))}
              </ul>
            )
            : null}
        </li>
      ))}
    </ul>
  );
}
