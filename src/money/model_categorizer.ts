/**
 * Categories for what no rule decided, from the model: uncategorised transactions go in batches,
 * numbered, as untrusted data (a payee can hold instructions or chat-template tokens); the only
 * tool offered is `set_categories`, whose category is an enum of the user's categories, and its
 * answer is checked again here (a number outside the batch or a category not offered is
 * dropped). Every transaction of a batch is marked as asked, answered or not, so a tick with
 * nothing new calls no model.
 */
import { z } from "zod";
import { type ChatModel, parseJson, type ToolSpec } from "../core/chat_model.ts";
import type { Clock } from "../core/ports.ts";
import type { ModelCategorization } from "./money_book.ts";
import type { MoneyTransaction } from "./money.ts";
import { formatMinor } from "./money_amounts.ts";
import type { MoneyStore } from "./money_store.ts";
import { untrustedNotice, wrapUntrusted } from "../core/untrusted_text.ts";
import type { Transaction } from "../core/work_ports.ts";

/** What the categoriser needs. */
export interface ModelCategorizerDependencies {
  store: MoneyStore;
  model: ChatModel;
  categories: readonly string[];
  batchSize: number;
  transaction: Transaction;
  clock: Clock;
}

/** The system prompt: short, and it says what to do when unsure. */
const categorizerInstruction =
  "You sort bank transactions into the user's spending categories. Call set_categories once " +
  "with a category for every numbered transaction. Use only the listed categories; when unsure, " +
  'use "other" if listed.';

/** The one tool offered: the categories as an enum. */
function categoriesTool(categories: readonly string[]): ToolSpec {
  return {
    name: "set_categories",
    description: "Record the category of each numbered transaction",
    parameters: {
      type: "object",
      properties: {
        items: {
          type: "array",
          items: {
            type: "object",
            properties: {
              n: { type: "integer", description: "the transaction's number" },
              category: { type: "string", enum: [...categories] },
            },
            required: ["n", "category"],
          },
        },
      },
      required: ["items"],
    },
  };
}

/** The tool's arguments; small models sometimes send numbers as text or the list as JSON text. */
const answerShape = z.object({
  items: z.preprocess(
    (value) => typeof value === "string" ? parseJson(value) : value,
    z.array(
      z.object({ n: z.coerce.number().int(), category: z.string().max(100) }).passthrough(),
    ).max(1000),
  ),
});

/** One transaction as a numbered data line (the text is sanitised by `wrapUntrusted`). */
function line(transaction: MoneyTransaction, number: number): string {
  const amount = `${
    formatMinor(transaction.amountMinor, transaction.currency)
  } ${transaction.currency}`;
  const description = transaction.description ? ` | ${transaction.description.slice(0, 80)}` : "";
  return `${number}. ${amount} | ${transaction.payee.slice(0, 80)}${description}`;
}

/** The categories the model gave, by transaction id (only offered numbers and categories). */
function readAnswer(
  arguments_: readonly string[],
  batch: readonly MoneyTransaction[],
  categories: readonly string[],
): Map<number, string> {
  const allowed = new Set(categories);
  const found = new Map<number, string>();
  for (const text of arguments_) {
    const parsed = answerShape.safeParse(parseJson(text));
    if (!parsed.success) continue;
    for (const item of parsed.data.items) {
      const transaction = batch[item.n - 1];
      const category = item.category.trim().toLowerCase();
      if (transaction && allowed.has(category) && !found.has(transaction.id)) {
        found.set(transaction.id, category);
      }
    }
  }
  return found;
}

/** Asks the model about up to `maxBatches` batches of uncategorised transactions. */
export async function categorizeWithModel(
  deps: ModelCategorizerDependencies,
  maxBatches: number,
  signal?: AbortSignal,
): Promise<ModelCategorization> {
  const result: ModelCategorization = { asked: 0, categorized: 0, requests: 0 };
  const tool = categoriesTool(deps.categories);
  for (let round = 0; round < maxBatches; round++) {
    const batch = deps.store.pendingForModel(deps.batchSize);
    if (!batch.length) break;
    const data = batch.map((transaction, index) => line(transaction, index + 1)).join("\n");
    const response = await deps.model.chat({
      messages: [
        { role: "system", content: categorizerInstruction },
        {
          role: "user",
          content: `Categories: ${deps.categories.join(", ")}.\nTransactions (amount | payee | ` +
            `description):\n${
              wrapUntrusted(data, { source: "bank statement" })
            }\n${untrustedNotice}`,
        },
      ],
      tools: [tool],
      temperature: 0,
    }, signal);
    result.requests++;
    const answers = readAnswer(
      response.toolCalls.filter((call) => call.name === tool.name).map((call) => call.arguments),
      batch,
      deps.categories,
    );
    const at = deps.clock.now();
    deps.transaction(() => {
      deps.store.setCategories(
        [...answers].map(([id, category]) => ({ id, category, source: "model" as const })),
        at,
      );
      deps.store.markModelAsked(batch.map((transaction) => transaction.id), at);
    });
    result.asked += batch.length;
    result.categorized += answers.size;
  }
  return result;
}
