/** A chat run as the page shows it: progress while running, the answer with tool calls after. */
import type { ChatRun } from "../chat_runs.ts";
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
  if (run.runningTool) {
    calls.push({
      name: run.runningTool.name,
      argumentsText: run.runningTool.argumentsText,
      running: true,
    });
  }
  return calls;
}

/** One run: polls itself while running (outerHTML swap), static once finished. */
export function ChatRunView(props: { run: ChatRun; now?: Date }) {
  const { run } = props;
  const id = `run-${run.id}`;
  const elapsed = (run.finishedAt ?? props.now ?? run.startedAt).getTime() -
    run.startedAt.getTime();
  if (run.status === "running") {
    return (
      <div
        id={id}
        class="message assistant running"
        hx-get={`/chat/runs/${run.id}`}
        hx-trigger={pollDelay}
        hx-swap="outerHTML"
        aria-busy="true"
      >
        <div class="role">
          Radar <span class="spinner" aria-hidden="true"></span>{" "}
          <span class="activity">{run.activity}</span>{" "}
          <span class="muted">{formatDuration(elapsed)}</span>
        </div>
        <ToolCalls calls={callsOf(run)} />
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
