/** Plugin list and review views. Plugin code, names and test output are hostile text. */
import type { PluginDetails, PluginSummary } from "../../src/core/plugin_state.ts";
import { Notice } from "./layout.tsx";
import { formatTime } from "./format.ts";

function LocalTrustWarning(props: { name: string }) {
  return (
    <Notice kind="error">
      <strong>Local trust:</strong> {props.name}{" "}
      gets exactly the permissions listed here once you approve: the files and folders it may read
      and write, the hosts it may reach and the variables it may see, in its own process (never
      commands, native libraries or system information). Those reach your data and the network, so
      approve only code you have read and trust.
    </Notice>
  );
}

/** An installed plugin with its granted permissions in plain words. */
export interface PluginRow {
  summary: PluginSummary;
  permissions: string[];
}

/** Installed plugins. */
export function PluginTable(props: { plugins: PluginRow[] }) {
  if (!props.plugins.length) {
    return <p class="muted">No plugins installed. Use `radar plugin install DIR`.</p>;
  }
  return (
    <div class="plugins">
      {props.plugins.map(({ summary: plugin, permissions }) => (
        <section class={`card plugin trust-${plugin.trustLevel}`}>
          <h2>
            {plugin.name} <span class="muted">{plugin.version}</span>{" "}
            <span class={`badge status-${plugin.status}`}>{plugin.status}</span>{" "}
            <span class={`badge trust-${plugin.trustLevel}`}>{plugin.trustLevel}</span>
          </h2>
          {plugin.trustLevel === "local" ? <LocalTrustWarning name={plugin.name} /> : null}
          <p>{plugin.description}</p>
          <div class="label">granted permissions</div>
          {permissions.length
            ? <ul>{permissions.map((permission) => <li>{permission}</li>)}</ul>
            : <p class="muted">none</p>}
          {plugin.tools.length ? <p class="muted">tools: {plugin.tools.join(", ")}</p> : null}
          {plugin.status === "enabled" || plugin.status === "disabled"
            ? (
              <form
                method="post"
                action={`/plugins/${encodeURIComponent(plugin.name)}/${
                  plugin.status === "enabled" ? "disable" : "enable"
                }`}
              >
                <button type="submit" class="secondary small">
                  {plugin.status === "enabled" ? "Disable" : "Enable"}
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
export function PluginReviewView(props: { review: PluginDetails; timeZone: string | undefined }) {
  const { review } = props;
  const { added, removed, unchanged } = review.permissionDiff;
  const plugin = review.summary;
  const trust = review.trustLevel === "local" ? "local" : "sandbox";
  const reviewName = plugin?.name ?? "?";
  const name = encodeURIComponent(reviewName);
  const tests = review.review?.tests ?? [];
  const files = Object.entries(review.files);
  return (
    <section class={`card review trust-${trust}`} id={`review-${reviewName}`}>
      <h2>
        {reviewName} <span class="muted">{plugin?.version ?? "?"}</span>{" "}
        <span class={`badge trust-${trust}`}>{trust}</span>
      </h2>
      <p class="muted">requested {formatTime(review.review?.updatedAt, props.timeZone)}</p>
      {trust === "local" ? <LocalTrustWarning name={reviewName} /> : null}
      {review.warnings.map((warning) => <Notice kind="warning">{warning}</Notice>)}
      {review.errors.map((error) => <Notice kind="error">{error}</Notice>)}
      <p>{plugin?.description ?? ""}</p>
      <h3>Permissions</h3>
      <ul class="permission-diff">
        {added.map((permission) => <li class="added">+ {permission.description}</li>)}
        {removed.map((permission) => <li class="removed">− {permission.description}</li>)}
        {unchanged.map((permission) => <li class="unchanged">{permission.description}</li>)}
        {!added.length && !removed.length && !unchanged.length
          ? <li class="muted">no permissions</li>
          : null}
      </ul>
      <h3>Tests</h3>
      {tests.length
        ? (
          <>
            <span class={`badge outcome-${tests.every((test) => test.passed) ? "ok" : "error"}`}>
              {tests.every((test) => test.passed) ? "passed" : "failed"}
            </span>
            <pre class="scroll">{tests.map((test) => `${test.passed ? "ok  " : "FAIL"} ${test.name}: ${test.detail}`).join("\n")}</pre>
          </>
        )
        : <p class="muted">not run</p>}
      <h3>Code</h3>
      {files.map(([path, content]) => (
        <details open={files.length === 1}>
          <summary>
            <code>{path}</code>
          </summary>
          <pre class="scroll code">{content}</pre>
        </details>
      ))}
      <div class="row decision">
        <form method="post" action={`/plugins/${name}/approve`}>
          <button type="submit">Approve {reviewName}</button>
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
