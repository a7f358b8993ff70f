/** `radar doctor`'s report: the probe's verdicts, the text a person reads, and the `--json` record. */
import { toolCapableModels } from "../adapters/llm/http_errors.ts";
import type { ProbeReport } from "./model_probe.ts";
import { type ProbeSkill, probeSkills } from "./probe_cases.ts";
import type { Suggestion } from "./suggestions.ts";
import { blocking, type Verdict, verdict } from "./verdict.ts";

/** Everything one run of `radar doctor` found. */
export interface DoctorReport {
  model?: string;
  server?: string;
  provider?: string;
  verdicts: Verdict[];
  probe?: ProbeReport;
  suggestions: Suggestion[];
  /** True when nothing blocks Radar. */
  canWork: boolean;
  durationMs: number;
}

/** The probe as verdicts: judgment (per skill), tool calls as text, speed. */
export function probeVerdicts(probe: ProbeReport): Verdict[] {
  if (probe.stoppedBy?.kind === "tools_unsupported") {
    return [blocking(
      "tools",
      probe.stoppedBy.message,
      `set llm.model to one with tool calling, e.g. ${toolCapableModels}`,
    )];
  }
  if (!probe.ran) return [verdict("judgment", "skip", "no probe ran")];
  const verdicts: Verdict[] = [];
  const skills = (Object.keys(probeSkills) as ProbeSkill[]).map((skill) => {
    const ran = probe.outcomes.filter((outcome) => outcome.skill === skill && outcome.ran);
    const right = ran.filter((outcome) => outcome.pass).length;
    const wrong = ran.find((outcome) => !outcome.pass);
    return `${probeSkills[skill]} ${right}/${ran.length}${wrong ? ` (${wrong.reason})` : ""}`;
  });
  const toolSkills = probe.outcomes.filter((outcome) =>
    outcome.ran && ["pick", "args", "recover"].includes(outcome.skill)
  );
  const summary = `${probe.passed}/${probe.ran} probes right: ${skills.join("; ")}`;
  if (probe.passed === probe.ran) verdicts.push(verdict("judgment", "ok", summary));
  else if (toolSkills.length && !toolSkills.some((outcome) => outcome.pass)) {
    verdicts.push(blocking(
      "judgment",
      summary,
      `the model cannot drive Radar's tools: use another, e.g. ${toolCapableModels}`,
    ));
  } else {
    verdicts.push(verdict("judgment", probe.passed >= probe.ran * 0.6 ? "warn" : "fail", summary, {
      fix: "see the suggested settings; `radar eval` and `radar eval --suite proactive` tell more",
    }));
  }
  if (probe.leaked) {
    verdicts.push(verdict(
      "tool calls",
      "warn",
      `${probe.leaked} of ${probe.toolAnswers} tool calls came back printed as text; Radar ` +
        "recovered them, but the server did not parse them",
      {
        fix: "use a model whose template has tool calling (`ollama show MODEL --template` " +
          "mentions .Tools), or a newer server",
      },
    ));
  }
  verdicts.push(speedVerdict(probe));
  return verdicts;
}

function speedVerdict(probe: ProbeReport): Verdict {
  const parts = [`median ${(probe.medianLatencyMs / 1000).toFixed(1)} s per answer`];
  if (probe.answerTokensPerSecond) parts.push(`writes ${probe.answerTokensPerSecond} tokens/s`);
  if (probe.readTokensPerSecond) parts.push(`reads ${probe.readTokensPerSecond} tokens/s`);
  if (probe.loadMs && probe.loadMs > 1000) {
    parts.push(`loaded in ${(probe.loadMs / 1000).toFixed(1)} s`);
  }
  const slow = probe.medianLatencyMs > 30_000;
  return verdict("speed", slow ? "warn" : "ok", parts.join(", "), {
    ...(slow ? { fix: "a smaller model, or a smaller context window, answers sooner" } : {}),
  });
}

/** What blocks Radar, one entry per blocking verdict. */
export function blockers(verdicts: readonly Verdict[]): string[] {
  return verdicts.filter((item) => item.blocks).map((item) => `${item.check}: ${item.summary}`);
}

/** The report as a person reads it. */
export function formatReport(report: DoctorReport): string {
  const lines = [
    `radar doctor: ${report.model ?? "?"} at ${report.server ?? "?"} (${report.provider ?? "?"})`,
  ];
  for (const item of report.verdicts) {
    lines.push(`  ${item.level.padEnd(4)}  ${item.check.padEnd(10)} ${item.summary}`);
    if (item.fix && item.level !== "ok") lines.push(`${" ".repeat(18)}fix: ${item.fix}`);
  }
  if (report.suggestions.length) {
    lines.push("suggested settings:");
    for (const item of report.suggestions) {
      lines.push(`  ${item.key}: ${item.value}`.padEnd(36) + `  # ${item.why}`);
    }
  }
  const count = (level: string, word: string) => {
    const found = report.verdicts.filter((item) => item.level === level && !item.blocks).length;
    return found ? [`${found} ${word}${found === 1 ? "" : "s"}`] : [];
  };
  const remarks = [...count("fail", "failure"), ...count("warn", "warning")];
  const blocked = blockers(report.verdicts);
  const took = `(${(report.durationMs / 1000).toFixed(1)} s)`;
  lines.push(
    blocked.length
      ? `Radar cannot work yet: ${
        [...new Set(blocked.map((line) => line.split(":")[0]))].join(", ")
      } ${took}`
      : `Radar can work${remarks.length ? ` (${remarks.join(", ")})` : ""}. ${took}`,
  );
  return `${lines.join("\n")}\n`;
}

/** The report as `--json` prints it. */
export function reportRecord(report: DoctorReport): Record<string, unknown> {
  const probe = report.probe;
  return {
    canWork: report.canWork,
    blocking: blockers(report.verdicts),
    model: report.model ?? null,
    server: report.server ?? null,
    provider: report.provider ?? null,
    verdicts: report.verdicts,
    probe: probe
      ? {
        ...probe,
        stoppedBy: probe.stoppedBy
          ? { kind: probe.stoppedBy.kind, message: probe.stoppedBy.message }
          : null,
      }
      : null,
    suggestions: report.suggestions,
    durationMs: Math.round(report.durationMs),
  };
}
