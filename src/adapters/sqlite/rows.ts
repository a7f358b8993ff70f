/**
 * Reading rows: a query's rows made records, and the one naming rule between them (a column
 * `created_at` is a record's `createdAt`; NULL is undefined).
 */
import type { DatabaseSync, SQLInputValue, SQLOutputValue } from "node:sqlite";
import { statement } from "./statements.ts";

/** A row as node:sqlite hands it over. */
export type Row = Record<string, SQLOutputValue>;

/** The snake_case column name of a camelCase record key (`createdAt` → `created_at`). */
type ColumnOf<Key extends string> = Key extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${ColumnOf<Tail>}`
  : Key;

/** The words of a column list written as text (spaces and line breaks between them). */
type Words<Text extends string> = Text extends `${infer Word} ${infer Rest}`
  ? Words<Word> | Words<Rest>
  : Text extends `${infer Word}\n${infer Rest}` ? Words<Word> | Words<Rest>
  : Text;

/** The columns a record of type `T` is read from, each with its record key, in key order. */
export type Columns<T> = ReadonlyArray<{ column: string; key: string }> & { readonly record?: T };

/**
 * The columns of records of type `T`, written as words (`"id started_at finished_at"`); the
 * compiler refuses a word that names no key of `T`. Keys are worked out here, once.
 */
export function columnsOf<T>() {
  return <Text extends string>(
    text: Exclude<Words<Text>, ""> extends ColumnOf<Extract<keyof T, string>> ? Text : never,
  ): Columns<T> =>
    text.split(/\s+/).filter(Boolean).map((column) => ({
      column,
      key: column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()),
    }));
}

/**
 * The record of `row`: each of `columns` under its camelCase name, in the order listed (the key
 * order JSON output shows); a NULL column is an undefined key, or no key at all with
 * `nulls: "omitted"`. Columns whose value needs converting (0/1 flags, JSON text) are
 * overridden by the caller after the spread.
 */
export function camelRecord<T>(
  row: object,
  columns: Columns<T>,
  nulls: "undefined" | "omitted" = "undefined",
): T {
  const record: Record<string, unknown> = {};
  for (const { column, key } of columns) {
    const value = (row as Row)[column];
    if (value === null && nulls === "omitted") continue;
    record[key] = value ?? undefined;
  }
  return record as T;
}

/** Every row `sql` selects (rows of type `R`), each made a record by `toRecord`. */
export function selectAll<T, R = Row>(
  db: DatabaseSync,
  toRecord: (row: R) => T,
  sql: string,
  ...params: SQLInputValue[]
): T[] {
  return (statement(db, sql).all(...params) as unknown as R[]).map((row) => toRecord(row));
}

/** The first row `sql` selects made a record by `toRecord`, or undefined when there is none. */
export function selectOne<T, R = Row>(
  db: DatabaseSync,
  toRecord: (row: R) => T,
  sql: string,
  ...params: SQLInputValue[]
): T | undefined {
  const row = statement(db, sql).get(...params) as R | undefined;
  return row === undefined ? undefined : toRecord(row);
}
