/** A chat run as the page shows it: progress while running, the answer with tool calls after. */
import type { AnsweredConfirmation, ChatRun, PendingConfirmation } from "../chat_runs.ts";
import { type ToolCallDisplay, ToolCalls } from "./conversation.tsx";
import { formatDuration } from "./format.ts";
import { Markdown } from "./markdown.tsx";
import { Notice } from "./layout.tsx";

const pollDelay = "load delay:400ms";

/** The run's tool calls so far, the running one last. */
function callsOf(run: ChatRun): ToolCallDisplay[] {
  const calls: ToolCallDisplay[] = run.executions.map((execution) => ({
    name: execution.name,
    argumentsText: execution.argumentsText,
    resultText: execution.result.text,
    outcome: execution.result.outcome,
    durationMs: execution.durationMs,
  }));
  if (run.runningTool) calls.push({ ...run.runningTool, running: true });
  return calls;
}

/** A tool's question with Allow/Deny buttons (each a POST answering this very question). */
function ConfirmationPrompt(props: { run: ChatRun; confirmation: PendingConfirmation }) {
  const { run, confirmation } = props;
  const action = `/chat/runs/${run.id}/confirm`;
  const button = (answer: "allow" | "deny", label: string, kind: string) => (
    <form
      method="post"
      action={action}
      class="inline"
      hx-post={action}
      hx-target={`#run-${run.id}`}
      hx-swap="outerHTML"
    >
      <input type="hidden" name="confirmation" value={confirmation.id} />
      <input type="hidden" name="answer" value={answer} />
      <button type="submit" class={kind}>{label}</button>
    </form>
  );
  return (
    <div class="notice warning confirmation" role="alertdialog" aria-label="Radar asks">
      <strong>Radar asks for your permission</strong>
      <pre>{confirmation.question}</pre>
      <div class="row">
        {button("allow", "Allow", "danger")}
        {button("deny", "Deny", "secondary")}
      </div>
    </div>
  );
}

const answeredBy: Record<AnsweredConfirmation["by"], string> = {
  person: "by you",
  timeout: "no answer in time",
  cancel: "cancelled",
};

/** The questions a run asked and how they were answered. */
function AnsweredConfirmations(props: { confirmations: AnsweredConfirmation[] }) {
  if (!props.confirmations.length) return null;
  return (
    <div class="confirmations">
      {props.confirmations.map((confirmation) => (
        <details class="confirmation">
          <summary>
            <span class={`badge outcome-${confirmation.allowed ? "ok" : "refused"}`}>
              {confirmation.allowed ? "allowed" : "denied"}
            </span>{" "}
            <span class="muted">{answeredBy[confirmation.by]}</span>
          </summary>
          <pre>{confirmation.question}</pre>
        </details>
      ))}
    </div>
  );
}

/**
 * One run: polls itself while running (outerHTML swap), static once finished. While a tool
 * waits for Allow/Deny it stops polling, so a swap never replaces the buttons under a click;
 * the answer's response resumes it.
 */
export function ChatRunView(props: { run: ChatRun; now?: Date }) {
  const { run } = props;
  const id = `run-${run.id}`;
  const elapsed = (run.finishedAt ?? props.now ?? run.startedAt).getTime() -
    run.startedAt.getTime();
  if (run.status === "running") {
    const waiting = run.confirmation;
    return (
      <div
        id={id}
        class="message assistant running"
        hx-get={waiting ? undefined : `/chat/runs/${run.id}`}
        hx-trigger={waiting ? undefined : pollDelay}
        hx-swap={waiting ? undefined : "outerHTML"}
        aria-busy="true"
      >
        <div class="role">
          Radar <span class="spinner" aria-hidden="true"></span>{" "}
          <span class="activity">{run.activity}</span>{" "}
          <span class="muted">{formatDuration(elapsed)}</span>
        </div>
        <ToolCalls calls={callsOf(run)} />
        <AnsweredConfirmations confirmations={run.confirmations} />
        {waiting ? <ConfirmationPrompt run={run} confirmation={waiting} /> : null}
        <button
          type="button"
          class="secondary small"
          hx-post={`/chat/runs/${run.id}/cancel`}
          hx-target={`#${id}`}
          hx-swap="outerHTML"
        >
          Cancel
        </button>
      </div>
    );
  }
  return (
    <div id={id} class={`message assistant ${run.status}`}>
      <div class="role">
        Radar{" "}
        <span class="muted">
          {formatDuration(elapsed)}
          {run.usage ? ` · ${run.usage.promptTokens}+${run.usage.completionTokens} tokens` : ""}
          {run.iterations > 1 ? ` · ${run.iterations} model calls` : ""}
        </span>
      </div>
      <ToolCalls calls={callsOf(run)} />
      <AnsweredConfirmations confirmations={run.confirmations} />
      {run.status === "failed"
        ? <Notice kind="error">{run.error ?? "The run failed."}</Notice>
        : run.status === "cancelled"
        ? <Notice kind="warning">Cancelled.</Notice>
        : <Markdown text={run.answer ?? ""} />}
      {run.stopReason === "max_iterations"
        ? <p class="muted">Stopped at the tool-round limit.</p>
        : null}
    </div>
  );
}
