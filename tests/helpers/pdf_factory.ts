/** Builds small real PDFs for tests: with MuPDF (text, images, metadata, encryption) or by hand. */
import * as mupdf from "mupdf";

/** A page: text lines, or an image with no text layer. */
export type PageSpec = { text: string } | { image: true };

/** Builds a PDF with MuPDF; `password` encrypts it with AES-256. */
export function buildPdf(
  pages: PageSpec[],
  options: { title?: string; author?: string; password?: string } = {},
): Uint8Array {
  const document = new mupdf.PDFDocument();
  const font = document.addSimpleFont(new mupdf.Font("Helvetica"));
  for (const page of pages) {
    let resources;
    let contents;
    if ("text" in page) {
      resources = document.addObject({ Font: { F1: font } });
      const escaped = page.text.replace(/[\\()]/g, "\\$&");
      contents = `BT /F1 18 Tf 72 720 Td (${escaped}) Tj ET`;
    } else {
      const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, 16, 16], false);
      pixmap.clear(200);
      const image = document.addImage(new mupdf.Image(pixmap));
      resources = document.addObject({ XObject: { Im0: image } });
      contents = "q 300 0 0 300 100 300 cm /Im0 Do Q";
    }
    document.insertPage(-1, document.addPage([0, 0, 595, 842], 0, resources, contents));
  }
  if (options.title) document.setMetaData("info:Title", options.title);
  if (options.author) document.setMetaData("info:Author", options.author);
  const save = options.password
    ? `encrypt=aes-256,user-password=${options.password},owner-password=${options.password}-owner`
    : "compress";
  return document.saveToBuffer(save).asUint8Array().slice();
}

/** A one-page PDF written by hand with a correct cross-reference table (no MuPDF involved). */
export function handWrittenPdf(text: string): Uint8Array {
  const stream = `BT /F1 24 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(body);
}

/**
 * A hostile one-page PDF: form XObjects nested `depth` levels deep, each drawing the next `fan`
 * times, so MuPDF runs fan^depth drawing operations (a "billion laughs"; 10^12 never ends).
 */
export function nestedFormsPdf(depth: number, fan: number): Uint8Array {
  const stream = (text: string, dictionary = "") =>
    `<< ${dictionary} /Length ${text.length} >>\nstream\n${text}\nendstream`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /XObject << /X 5 0 R >> >> >>",
    stream("/X Do"),
  ];
  for (let level = 0; level < depth; level++) {
    const innermost = level === depth - 1;
    const resources = innermost ? "" : `/Resources << /XObject << /X ${6 + level} 0 R >> >>`;
    objects.push(stream(
      innermost ? "0 0 1 1 re f" : Array(fan).fill("/X Do").join(" "),
      `/Type /XObject /Subtype /Form /BBox [0 0 612 792] ${resources}`,
    ));
  }
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(body);
}

/**
 * A hostile ~28 KB PDF per 10 million glyphs: one page whose Flate-compressed content shows
 * `millions` × 1,000,000 characters on successive lines, so MuPDF's text extraction grows its
 * memory by hundreds of MB and runs for seconds.
 */
export async function glyphFloodPdf(millions: number): Promise<Uint8Array> {
  const encoder = new TextEncoder();
  const line = `(${"A".repeat(1000)}) '\n`;
  const content = encoder.encode(`BT /F1 1 Tf 0.001 TL ${line.repeat(millions * 1000)}ET`);
  const packed = new Uint8Array(
    await new Response(new Blob([content]).stream().pipeThrough(new CompressionStream("deflate")))
      .arrayBuffer(),
  );
  const objects: Uint8Array[][] = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    "",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ].map((text) => [encoder.encode(text)]);
  objects[3] = [
    encoder.encode(`<< /Length ${packed.length} /Filter /FlateDecode >>\nstream\n`),
    packed,
    encoder.encode("\nendstream"),
  ];
  const parts: Uint8Array[] = [encoder.encode("%PDF-1.4\n")];
  let size = parts[0].length;
  const push = (part: Uint8Array) => {
    parts.push(part);
    size += part.length;
  };
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(size);
    push(encoder.encode(`${index + 1} 0 obj\n`));
    object.forEach(push);
    push(encoder.encode("\nendobj\n"));
  });
  let trailer = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) trailer += `${String(offset).padStart(10, "0")} 00000 n \n`;
  trailer += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${size}\n%%EOF\n`;
  push(encoder.encode(trailer));
  const all = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    all.set(part, offset);
    offset += part.length;
  }
  return all;
}
