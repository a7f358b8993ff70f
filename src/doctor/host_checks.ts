/**
 * `radar doctor`'s lines about this machine: the exec sandbox, the browser, and ntfy (and a test
 * notification when asked); the chat channels' are in channel_checks.ts. None of them blocks:
 * Radar works without each, with less.
 */
import type { RadarConfig } from "../config/schema.ts";
import type { Notifier } from "../core/notifier.ts";
import { execSandbox } from "../adapters/os/sandbox_spec.ts";
import type { AgentStack } from "../runtime/agent_stack.ts";
import { networkReason } from "./network_reason.ts";
import { type Verdict, verdict } from "./verdict.ts";

/** exec's OS sandbox: which program, or why none (every command then needs a yes). */
export function execVerdict(
  config: RadarConfig,
  env: Record<string, string | undefined>,
): Verdict {
  if (!config.tools.exec.enabled) {
    return verdict("exec", "skip", "exec is off (tools.exec.enabled: false)");
  }
  const { program, problem } = execSandbox({ config, env });
  if (program) return verdict("exec", "ok", `sandbox ${program.kind} (${program.path})`);
  return verdict("exec", "warn", `no sandbox: ${problem}; every command needs a yes in chat`, {
    fix: Deno.build.os === "linux"
      ? "install bubblewrap (`apt-get install bubblewrap`)"
      : "exec works only with a yes here",
  });
}

/** The browser the `browser` tool drives, or why there is none. */
export function browserVerdict(stack: Pick<AgentStack, "browser">): Verdict {
  const found = stack.browser.availability();
  if (found.problem !== undefined) {
    return verdict("browser", "warn", `none: ${found.problem}`, {
      fix: "install Chromium, or set browser.executable",
    });
  }
  return verdict("browser", "ok", `${found.name} (${found.executable})`);
}

/** ntfy: a topic set, the server answering, and (`send`) a test notification delivered. */
export async function ntfyVerdict(
  config: RadarConfig,
  notifier: Notifier,
  options: { send: boolean; fetch: typeof fetch; timeoutMs?: number },
): Promise<Verdict> {
  const ntfy = config.notifications.ntfy;
  const topic = notifier.topic();
  if (!topic) {
    return verdict("ntfy", "warn", "no topic: notifications cannot reach your phone", {
      fix: "set notifications.ntfy.topic (and subscribe to it in the ntfy app)",
    });
  }
  const signal = AbortSignal.timeout(options.timeoutMs ?? 10_000);
  if (options.send) {
    const delivery = await notifier.send({
      title: "Radar doctor",
      message: "A test notification from `radar doctor`: notifications reach you.",
      priority: "low",
    }, signal);
    return delivery.sent
      ? verdict("ntfy", "ok", `test notification sent to ${ntfy.url} topic ${topic}`)
      : verdict("ntfy", "warn", `the test notification failed: ${delivery.error}`, {
        fix: "check notifications.ntfy.url, topic and token",
      });
  }
  try {
    const answer = await options.fetch(`${ntfy.url.replace(/\/+$/, "")}/v1/health`, { signal });
    await answer.body?.cancel();
    if (answer.status >= 500) throw new Error(`it answered ${answer.status}`);
    return verdict("ntfy", "ok", `${ntfy.url} answers; topic ${topic} (--notify sends a test)`);
  } catch (error) {
    return verdict("ntfy", "warn", `${ntfy.url} does not answer: ${networkReason(error)}`, {
      fix: "check notifications.ntfy.url and the network",
    });
  }
}
