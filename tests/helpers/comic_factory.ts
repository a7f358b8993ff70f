/**
 * Builds real comic archives for tests: CBZ with npm zip.js (what readers such as ComicRack and
 * Kavita open), hostile variants (a zip bomb, `../../x`, a lying size), and CBR as RAR 4.x with
 * stored entries written here by hand: no RAR writer is free software, and the stored layout is
 * small (marker, main header, one header per file with CRC-16-of-CRC-32, end block).
 */
import * as zip from "@zip.js/zip.js";
import * as mupdf from "mupdf";
import { Buffer } from "node:buffer";
import { crc32 } from "node:zlib";

zip.configure({ useWebWorkers: false });

/** One entry: text, bytes, or a folder. */
export interface EntrySpec {
  name: string;
  text?: string;
  bytes?: Uint8Array;
  /** Store the bytes without compression (JPEGs usually are). */
  store?: boolean;
}

/** A small real PNG (MuPDF), `width`×`height`, one grey level. */
export function pngImage(width = 60, height = 90, grey = 128): Uint8Array {
  const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, width, height], false);
  pixmap.clear(grey);
  return pixmap.asPNG().slice();
}

/** A ComicInfo.xml document with `fields` (text escaped as XML requires). */
export function comicInfoXml(fields: Record<string, string | number>): string {
  const escape = (text: string) =>
    text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const body = Object.entries(fields)
    .map(([key, value]) => `  <${key}>${escape(String(value))}</${key}>`).join("\n");
  return `<?xml version="1.0" encoding="utf-8"?>\n<ComicInfo>\n${body}\n</ComicInfo>\n`;
}

/** `count` page images named like a scanner does (`page-001.png` …), tiny real PNGs. */
export function pages(count: number, prefix = "page-"): EntrySpec[] {
  const image = pngImage(8, 12);
  const width = String(count).length;
  return Array.from({ length: count }, (_, index) => ({
    name: `${prefix}${String(index + 1).padStart(width, "0")}.png`,
    bytes: image,
    store: true,
  }));
}

/** A CBZ (zip) holding `entries`. */
export async function buildCbz(entries: EntrySpec[]): Promise<Uint8Array> {
  const writer = new zip.ZipWriter(new zip.Uint8ArrayWriter(), { keepOrder: true });
  for (const entry of entries) {
    const reader = entry.text !== undefined
      ? new zip.TextReader(entry.text)
      : entry.bytes
      ? new zip.Uint8ArrayReader(entry.bytes)
      : undefined;
    await writer.add(entry.name, reader, {
      directory: !reader,
      level: entry.store ? 0 : 6,
    });
  }
  return await writer.close();
}

/**
 * Replaces every occurrence of the name `placeholder` (in local and central headers) with `name`
 * of the same length: how a test makes entries zip.js would refuse to write (`../../x`, NUL).
 */
export function renameEntry(bytes: Uint8Array, placeholder: string, name: string): Uint8Array {
  const from = new TextEncoder().encode(placeholder);
  const to = new TextEncoder().encode(name);
  if (from.length !== to.length) throw new Error("names must have the same length");
  const out = bytes.slice();
  for (let index = 0; index <= out.length - from.length; index++) {
    if (from.every((byte, offset) => out[index + offset] === byte)) out.set(to, index);
  }
  return out;
}

/**
 * Sets the declared uncompressed size of the entry `name` in its local and central headers (a zip
 * that lies about how much its data inflates to).
 */
export function declareSize(bytes: Uint8Array, name: string, size: number): Uint8Array {
  const out = bytes.slice();
  const view = new DataView(out.buffer);
  const encoded = new TextEncoder().encode(name);
  for (let index = 0; index < out.length - 46; index++) {
    const signature = view.getUint32(index, true);
    const local = signature === 0x04034b50;
    const central = signature === 0x02014b50;
    if (!local && !central) continue;
    const nameOffset = index + (local ? 30 : 46);
    const nameLength = view.getUint16(index + (local ? 26 : 28), true);
    if (nameLength !== encoded.length) continue;
    if (!encoded.every((byte, offset) => out[nameOffset + offset] === byte)) continue;
    view.setUint32(index + (local ? 22 : 24), size, true);
  }
  return out;
}

/** A RAR 4.x archive with the entries stored (no compression), as WinRAR's "store" writes. */
export function buildRar4(entries: { name: string; bytes: Uint8Array }[]): Uint8Array {
  const parts: Uint8Array[] = [Uint8Array.from([0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x00])];
  parts.push(rarBlock(0x73, 0x0000, new Uint8Array(6)));
  for (const entry of entries) {
    const name = new TextEncoder().encode(entry.name);
    const fields = new Uint8Array(25 + name.length);
    const view = new DataView(fields.buffer);
    view.setUint32(0, entry.bytes.length, true); // PACK_SIZE
    view.setUint32(4, entry.bytes.length, true); // UNP_SIZE
    fields[8] = 3; // HOST_OS: Unix
    view.setUint32(9, crc32(entry.bytes) >>> 0, true); // FILE_CRC
    view.setUint32(13, dosTime(new Date(2018, 0, 2, 3, 4, 6)), true); // FTIME
    fields[17] = 29; // UNP_VER 2.9
    fields[18] = 0x30; // METHOD: store
    view.setUint16(19, name.length, true); // NAME_SIZE
    view.setUint32(21, 0o100644 << 16 >>> 0, true); // ATTR
    fields.set(name, 25);
    parts.push(rarBlock(0x74, 0x8000, fields), entry.bytes);
  }
  parts.push(rarBlock(0x7b, 0x4000, new Uint8Array()));
  return Buffer.concat(parts);
}

function rarBlock(type: number, flags: number, fields: Uint8Array): Uint8Array {
  const block = new Uint8Array(7 + fields.length);
  const view = new DataView(block.buffer);
  block[2] = type;
  view.setUint16(3, flags, true);
  view.setUint16(5, block.length, true);
  block.set(fields, 7);
  view.setUint16(0, crc32(block.subarray(2)) & 0xffff, true);
  return block;
}

function dosTime(date: Date): number {
  return ((date.getFullYear() - 1980) << 25 | (date.getMonth() + 1) << 21 | date.getDate() << 16 |
    date.getHours() << 11 | date.getMinutes() << 5 | date.getSeconds() / 2) >>> 0;
}
