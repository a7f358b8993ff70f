// deno-lint-ignore-file jsx-key -- server-rendered HTML: keys are a client-side diffing concern
/** Plugin list and review views. Plugin code, names and test output are hostile text. */
import type { PluginReview, PluginSummary } from "../ports.ts";
import { Notice } from "./layout.tsx";
import { formatTime } from "./format.ts";

function LocalTrustWarning(props: { name: string }) {
  return (
    <Notice kind="error">
      <strong>Local trust:</strong> {props.name}{" "}
      runs without the sandbox, with every permission Radar itself has (your files, network,
      commands). Approve only code you have read and trust.
    </Notice>
  );
}

/** Installed plugins. */
export function PluginTable(props: { plugins: PluginSummary[] }) {
  if (!props.plugins.length) {
    return <p class="muted">No plugins installed. Use `radar plugin install DIR`.</p>;
  }
  return (
    <div class="plugins">
      {props.plugins.map((plugin) => (
        <section class={`card plugin trust-${plugin.trust}`}>
          <h2>
            {plugin.name} <span class="muted">{plugin.version}</span>{" "}
            <span class={`badge status-${plugin.status}`}>{plugin.status}</span>{" "}
            <span class={`badge trust-${plugin.trust}`}>{plugin.trust}</span>
            {plugin.enabled ? null : <span class="badge">disabled</span>}
          </h2>
          {plugin.trust === "local" ? <LocalTrustWarning name={plugin.name} /> : null}
          <p>{plugin.description}</p>
          <div class="label">granted permissions</div>
          {plugin.permissions.length
            ? <ul>{plugin.permissions.map((permission) => <li>{permission}</li>)}</ul>
            : <p class="muted">none</p>}
          {plugin.tools.length ? <p class="muted">tools: {plugin.tools.join(", ")}</p> : null}
          {plugin.status === "approved"
            ? (
              <form
                method="post"
                action={`/plugins/${encodeURIComponent(plugin.name)}/${
                  plugin.enabled ? "disable" : "enable"
                }`}
              >
                <button type="submit" class="secondary small">
                  {plugin.enabled ? "Disable" : "Enable"}
                </button>
              </form>
            )
            : null}
        </section>
      ))}
    </div>
  );
}

/** One pending review: permissions diff, tests, files, approve/reject. */
export function PluginReviewView(props: { review: PluginReview }) {
  const { review } = props;
  const { added, removed, unchanged } = review.permissionDiff;
  const name = encodeURIComponent(review.name);
  return (
    <section class={`card review trust-${review.trust}`} id={`review-${review.name}`}>
      <h2>
        {review.name} <span class="muted">{review.version}</span>{" "}
        <span class={`badge trust-${review.trust}`}>{review.trust}</span>
      </h2>
      <p class="muted">requested {formatTime(review.requestedAt)}</p>
      {review.trust === "local" ? <LocalTrustWarning name={review.name} /> : null}
      {(review.warnings ?? []).map((warning) => <Notice kind="warning">{warning}</Notice>)}
      {(review.errors ?? []).map((error) => <Notice kind="error">{error}</Notice>)}
      <p>{review.description}</p>
      <h3>Permissions</h3>
      <ul class="permission-diff">
        {added.map((permission) => <li class="added">+ {permission}</li>)}
        {removed.map((permission) => <li class="removed">− {permission}</li>)}
        {unchanged.map((permission) => <li class="unchanged">{permission}</li>)}
        {!added.length && !removed.length && !unchanged.length
          ? <li class="muted">no permissions</li>
          : null}
      </ul>
      <h3>Tests</h3>
      {review.tests
        ? (
          <>
            <span class={`badge outcome-${review.tests.passed ? "ok" : "error"}`}>
              {review.tests.passed ? "passed" : "failed"}
            </span>
            <pre class="scroll">{review.tests.output}</pre>
          </>
        )
        : <p class="muted">not run</p>}
      <h3>Code</h3>
      {review.files.map((file) => (
        <details open={review.files.length === 1}>
          <summary>
            <code>{file.path}</code>
          </summary>
          <pre class="scroll code">{file.content}</pre>
        </details>
      ))}
      <div class="row decision">
        <form method="post" action={`/plugins/${name}/approve`}>
          <button type="submit">Approve {review.name}</button>
        </form>
        <form method="post" action={`/plugins/${name}/reject`} class="row">
          <input
            name="reason"
            placeholder="Reason (optional)"
            aria-label="Reason"
            maxlength={500}
          />
          <button type="submit" class="danger">Reject</button>
        </form>
      </div>
    </section>
  );
}
