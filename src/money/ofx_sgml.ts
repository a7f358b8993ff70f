/**
 * OFX 1.x is SGML: leaf elements are not closed (`<TRNAMT>-12.50`), aggregates are. This turns
 * the body (from `<OFX>` on) into well-formed XML for fast-xml-parser, in one linear pass: a
 * start tag followed by text is a leaf (its explicit end tag, if any, is skipped), one followed
 * by a tag is an aggregate, an end tag closes the aggregate it names (and any left open inside
 * it). OFX 2.x (XML) passes through the same way. No regular expression here can backtrack: the
 * npm OFX parsers' SGML step (ofx-js, node-ofx-parser) takes seconds on a 26-letter tag name.
 */
import { StatementProblem } from "./money.ts";

/** Aggregates nested deeper than this are refused (OFX needs about 8). */
const maxDepth = 40;
/** Tags in one file, at most (a 10 MiB statement has ~400,000). */
const maxTags = 2_000_000;

type Token =
  | { kind: "start"; name: string }
  | { kind: "end"; name: string }
  | { kind: "text"; text: string };

const tagName = /^[A-Za-z][A-Za-z0-9._]{0,63}$/;

/** Splits the body into tags and text; comments, processing instructions and `<!…>` are dropped. */
function* tokens(body: string): Generator<Token> {
  let at = 0;
  let count = 0;
  while (at < body.length) {
    const open = body.indexOf("<", at);
    if (open < 0) {
      yield { kind: "text", text: body.slice(at) };
      return;
    }
    if (open > at) yield { kind: "text", text: body.slice(at, open) };
    if (body.startsWith("<!--", open)) {
      const end = body.indexOf("-->", open + 4);
      at = end < 0 ? body.length : end + 3;
      continue;
    }
    const close = body.indexOf(">", open + 1);
    if (close < 0) throw new StatementProblem("the OFX data ends inside a tag");
    const inner = body.slice(open + 1, close).trim();
    at = close + 1;
    if (inner.startsWith("?") || inner.startsWith("!")) continue;
    if (++count > maxTags) throw new StatementProblem("too many OFX elements");
    const isEnd = inner.startsWith("/");
    const name = (isEnd ? inner.slice(1) : inner).trim().toUpperCase();
    if (!tagName.test(name)) {
      throw new StatementProblem(`"<${inner.slice(0, 30)}>" is not an OFX tag`);
    }
    yield isEnd ? { kind: "end", name } : { kind: "start", name };
  }
}

/** The SGML entities OFX uses, decoded; a bare "&" (AT&T) stays text. */
function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos|nbsp|#\d{1,7}|#x[0-9a-f]{1,6});/gi, (_, name) => {
    const lower = String(name).toLowerCase();
    if (lower === "amp") return "&";
    if (lower === "lt") return "<";
    if (lower === "gt") return ">";
    if (lower === "quot") return '"';
    if (lower === "apos") return "'";
    if (lower === "nbsp") return " ";
    const code = lower.startsWith("#x") ? parseInt(lower.slice(2), 16) : Number(lower.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : " ";
  });
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Converts an OFX body (SGML or XML, from `<OFX>` on) to well-formed XML. */
export function ofxBodyToXml(body: string): string {
  const out: string[] = [];
  const open: string[] = [];
  const stream = tokens(body);
  let next = stream.next();
  while (!next.done) {
    const token = next.value;
    next = stream.next();
    if (token.kind === "text") continue; // whitespace between aggregates (leaf text is read below)
    if (token.kind === "end") {
      const index = open.lastIndexOf(token.name);
      if (index < 0) continue; // the end tag of a leaf, or stray
      while (open.length > index) out.push(`</${open.pop()}>`);
      continue;
    }
    const following = next.done ? undefined : next.value;
    if (following?.kind === "text" && following.text.trim()) {
      out.push(
        `<${token.name}>${escapeXml(decodeEntities(following.text.trim()))}</${token.name}>`,
      );
      next = stream.next();
      if (!next.done && next.value.kind === "end" && next.value.name === token.name) {
        next = stream.next();
      }
      continue;
    }
    if (following?.kind === "text") {
      // Whitespace, then an end tag of the same name: an empty leaf.
      const after = stream.next();
      next = after;
      if (!after.done && after.value.kind === "end" && after.value.name === token.name) {
        out.push(`<${token.name}></${token.name}>`);
        next = stream.next();
        continue;
      }
    } else if (following?.kind === "end" && following.name === token.name) {
      out.push(`<${token.name}></${token.name}>`);
      next = stream.next();
      continue;
    }
    if (open.length >= maxDepth) throw new StatementProblem("OFX elements nested too deeply");
    open.push(token.name);
    out.push(`<${token.name}>`);
  }
  while (open.length) out.push(`</${open.pop()}>`);
  return out.join("");
}
