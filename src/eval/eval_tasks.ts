/**
 * `radar eval`'s built-in suite: plain requests (the spec's Phase 1 prompts and more), each with
 * files it sets up in a scratch home, the tools it should call, and a check of the effect.
 */
import type { AgentResult } from "../core/agent_types.ts";
import type { Radar } from "../runtime/open_radar.ts";

/** What a check can look at after a task ran. */
export interface EvalEffects {
  /** The scratch home the task ran in (`~`). */
  home: string;
  runtime: Radar;
  result: AgentResult;
  /** Bodies the notification server received. */
  notifications: string[];
  /** When the task started (for "today's date"). */
  startedAt: Date;
}

/** One task of the suite. */
export interface EvalTask {
  id: string;
  prompt: string;
  /** Files to create under the scratch home (path → text or bytes). */
  files?: Record<string, string | Uint8Array>;
  /** Facts to remember before the task. */
  facts?: string[];
  /** Tools a correct run calls: every one of `all`, at least one of `any`, or none at all. */
  expect: { all?: string[]; any?: string[]; none?: true };
  /** Whether the effect is there; a reason when not. */
  check(effects: EvalEffects): string | undefined;
}

/** A one-page PDF written by hand with a correct cross-reference table. */
export function onePagePdf(text: string): Uint8Array {
  const stream = `BT /F1 20 Tf 72 720 Td (${text.replace(/[\\()]/g, "\\$&")}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R " +
    "/Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let body = "%PDF-1.4\n";
  const offsets = objects.map((object, index) => {
    const offset = body.length;
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("") +
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(body);
}

const months = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/** Whether a text holds the date in a common format (ISO, numeric either way, month words). */
export function mentionsDate(text: string, date: Date): boolean {
  const year = date.getFullYear();
  const month = date.getMonth() + 1;
  const day = date.getDate();
  const two = (value: number) => String(value).padStart(2, "0");
  const lower = text.toLowerCase();
  const name = months[month - 1];
  return [
    `${year}-${two(month)}-${two(day)}`,
    `${two(day)}/${two(month)}/${year}`,
    `${two(month)}/${two(day)}/${year}`,
    `${day}/${month}/${year}`,
    `${month}/${day}/${year}`,
    `${two(day)}.${two(month)}.${year}`,
  ].some((form) => lower.includes(form)) ||
    new RegExp(`\\b${day}(st|nd|rd|th)? (of )?${name.slice(0, 3)}[a-z]*,? ${year}`).test(lower) ||
    new RegExp(`\\b${name.slice(0, 3)}[a-z]* ${day}(st|nd|rd|th)?,? ${year}`).test(lower);
}

const answerHas = (effects: EvalEffects, ...patterns: RegExp[]) => {
  const missing = patterns.filter((pattern) => !pattern.test(effects.result.answer));
  return missing.length ? `the answer does not mention ${missing.join(", ")}` : undefined;
};

const fileText = (effects: EvalEffects, path: string) => {
  try {
    return Deno.readTextFileSync(`${effects.home}/${path}`);
  } catch {
    return undefined;
  }
};

/** The built-in suite. */
export const evalTasks: EvalTask[] = [
  {
    id: "list-pdfs",
    prompt: "List the PDFs in my Downloads folder",
    files: {
      "Downloads/invoice-0423.pdf": onePagePdf("Invoice 0423"),
      "Downloads/comic-12.pdf": onePagePdf("Comic 12"),
      "Downloads/notes.txt": "not a pdf",
    },
    expect: { any: ["list_directory", "exec"] },
    check: (effects) => answerHas(effects, /invoice-0423/i, /comic-12/i),
  },
  {
    id: "read-pdf",
    prompt: "Read the first page of ~/Downloads/invoice-0423.pdf and tell me what it is",
    files: {
      "Downloads/invoice-0423.pdf": onePagePdf("INVOICE 0423 from ACME Corp, total 99 EUR"),
    },
    expect: { any: ["pdf_extract"] },
    check: (effects) => answerHas(effects, /invoice/i, /acme|0423|99/i),
  },
  {
    id: "notify-hello",
    prompt: "Send me a notification saying hello",
    expect: { all: ["notify"] },
    check: (effects) =>
      effects.notifications.some((body) => /hello/i.test(body))
        ? undefined
        : "no notification saying hello arrived",
  },
  {
    id: "file-with-date",
    prompt: "Create a file called test.txt with today's date in it",
    expect: { all: ["write_file"] },
    check: (effects) => {
      const text = fileText(effects, "test.txt");
      if (text === undefined) return "~/test.txt was not created";
      return mentionsDate(text, effects.startedAt)
        ? undefined
        : `~/test.txt holds "${text.trim()}"`;
    },
  },
  {
    id: "jot-todo",
    prompt: "Jot down 'call mom' in ~/todo.md",
    files: { "todo.md": "- buy milk\n" },
    expect: { all: ["write_file"] },
    check: (effects) => {
      const text = fileText(effects, "todo.md") ?? "";
      if (!/call mom/i.test(text)) return "~/todo.md has no 'call mom'";
      return /buy milk/.test(text) ? undefined : "~/todo.md lost its earlier line";
    },
  },
  {
    id: "summarize-notes",
    prompt: "Summarize ~/Documents/meeting-notes.md",
    files: {
      "Documents/meeting-notes.md":
        "# Team sync\n- The launch moves to Thursday.\n- Priya owns the release notes.\n",
    },
    expect: { all: ["read_file"] },
    check: (effects) => answerHas(effects, /thursday/i),
  },
  {
    id: "count-lines",
    prompt: "How many lines does ~/data.csv have?",
    files: {
      "data.csv": Array.from({ length: 42 }, (_, index) => `row${index},1`).join("\n") + "\n",
    },
    expect: { any: ["exec", "read_file"] },
    check: (effects) => answerHas(effects, /\b42\b/),
  },
  {
    id: "remember-colour",
    prompt: "Remember that my favourite colour is teal",
    expect: { all: ["remember"] },
    check: (effects) =>
      effects.runtime.facts.searchFacts("teal", 5).length ? undefined : "no fact mentions teal",
  },
  {
    id: "recall-dentist",
    prompt: "What's my dentist called?",
    facts: ["The user's dentist is Dr. Okafor"],
    expect: { all: ["recall"] },
    check: (effects) => answerHas(effects, /okafor/i),
  },
  {
    id: "schedule-weekly",
    prompt: "Every Monday at 9am, summarize my week",
    expect: { all: ["schedule_task"] },
    check: (effects) => {
      const rows = effects.runtime.tasks.list();
      return rows.some((row) => row.schedule === "0 9 * * 1")
        ? undefined
        : `tasks: ${rows.map((row) => row.schedule).join(", ") || "none"}`;
    },
  },
  {
    id: "no-tool-needed",
    prompt: "What is the capital of France? One word.",
    expect: { none: true },
    check: (effects) => answerHas(effects, /paris/i),
  },
];
