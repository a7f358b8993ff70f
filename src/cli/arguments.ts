/** Parsing of numeric command-line arguments with readable usage errors. */
import { UsageError } from "../core/errors.ts";
import { checkLimit } from "../core/bounds.ts";
import { InvalidArgumentError } from "commander";

/** Parses a positive whole number given for `name`. */
export function parseCount(value: string, name: string): number {
  const number = Number(value);
  // Digits only: Number() also reads "0x10", "1e3" and " 5 ".
  if (!/^\d+$/.test(value) || !Number.isInteger(number) || number <= 0) {
    throw new UsageError(`${name} must be a positive whole number, not "${value}"`);
  }
  return number;
}

/** Parses a limit such as `--limit`: a positive whole number within `checkLimit`'s bound. */
export function parseLimit(value: string, name = "--limit", max?: number): number {
  return checkLimit(parseCount(value, name), name, max);
}

/** Parses an id (positive whole number). */
export function parseId(value: string): number {
  return parseCount(value, "the id");
}

/** Parses a TCP port (0 = any free port). */
export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) {
    throw new InvalidArgumentError(`expected a port 0-65535, found "${value}"`);
  }
  return port;
}
