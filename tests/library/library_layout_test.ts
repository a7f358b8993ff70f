import assert from "node:assert/strict";
import {
  cleanLayoutValue,
  layoutFields,
  layoutRoot,
  renderLayout,
} from "../../src/library/library_layout.ts";

const comics = "~/Comics/{Series}/{Series} #{Number:000} ({Year}).cbz";
const documents = "~/Documents/{kind}/{date} {sender} {kind}.pdf";

Deno.test("the spec's comic layout, padded, with the year", () => {
  assert.deepEqual(renderLayout(comics, { Series: "Saga", Number: "54", Year: "2018" }), {
    ok: true,
    path: "~/Comics/Saga/Saga #054 (2018).cbz",
  });
  assert.deepEqual(renderLayout(comics, { series: "X-Men", number: "1.5", year: "2005" }), {
    ok: true,
    path: "~/Comics/X-Men/X-Men #001.5 (2005).cbz",
  });
});

Deno.test("a field in ( ) may be missing; a required one is named", () => {
  assert.deepEqual(renderLayout(comics, { Series: "Saga", Number: "54" }), {
    ok: true,
    path: "~/Comics/Saga/Saga #054.cbz",
  });
  assert.deepEqual(renderLayout(comics, { Series: "Saga", Year: "2018" }), {
    ok: false,
    missing: ["Number"],
  });
  assert.deepEqual(renderLayout(documents, { kind: "invoice", sender: "Acme" }), {
    ok: false,
    missing: ["date"],
  });
  assert.deepEqual(renderLayout("~/C/{Series}/{Series} {Title?}.cbz", { Series: "Saga" }), {
    ok: true,
    path: "~/C/Saga/Saga.cbz",
  });
});

Deno.test("the documents layout", () => {
  assert.deepEqual(
    renderLayout(documents, { kind: "invoice", date: "2026-11-02", sender: "Acme GmbH" }),
    { ok: true, path: "~/Documents/invoice/2026-11-02 Acme GmbH invoice.pdf" },
  );
});

Deno.test("a value can never add a folder, climb out, hide the file or carry control characters", () => {
  const hostile = { Series: "../../../.ssh/authorized_keys", Number: "1", Year: "2018" };
  const result = renderLayout(comics, hostile);
  assert.deepEqual(result, {
    ok: true,
    path: "~/Comics/ssh-authorized_keys/ssh-authorized_keys #001 (2018).cbz",
  });
  assert.deepEqual(renderLayout(comics, { Series: "..", Number: "1" }), {
    ok: false,
    missing: ["Series"],
  });
  assert.deepEqual(renderLayout(comics, { Series: ".hidden", Number: "1" }), {
    ok: true,
    path: "~/Comics/hidden/hidden #001.cbz",
  });
  assert.equal(cleanLayoutValue("Batman: Year One"), "Batman - Year One");
  assert.equal(cleanLayoutValue("a\u0000b\nc\u001bd"), "abcd");
  assert.equal(cleanLayoutValue('What? "Why" <not> |pipe| *star*'), "What Why not pipe star");
  assert.equal(cleanLayoutValue("C:\\Windows\\x"), "C - -Windows-x");
  assert.equal(cleanLayoutValue("trailing dots..."), "trailing dots");
  for (const value of ["../x", "/etc/passwd", "a/../../b", "..\\..\\x", "\u0000/.."]) {
    const rendered = renderLayout(comics, { Series: value, Number: "2" });
    if (!rendered.ok) continue;
    const inside = rendered.path.slice("~/Comics/".length).split("/");
    assert.equal(inside.length, 2, rendered.path);
    assert.ok(
      inside.every((segment) => segment !== ".." && !segment.startsWith(".")),
      rendered.path,
    );
  }
});

Deno.test("the file keeps its own extension; long names are cut to fit", () => {
  assert.deepEqual(
    renderLayout(comics, { Series: "Saga", Number: "54" }, { extension: ".cbr" }),
    { ok: true, path: "~/Comics/Saga/Saga #054.cbr" },
  );
  const long = renderLayout(comics, { Series: "S".repeat(300), Number: "1", Year: "2018" });
  assert.ok(long.ok);
  if (!long.ok) return;
  const name = long.path.split("/").at(-1)!;
  assert.ok(new TextEncoder().encode(name).length <= 250);
  assert.ok(name.endsWith(".cbz"));
});

Deno.test("layoutFields and layoutRoot", () => {
  assert.deepEqual(layoutFields(comics), ["Series", "Series", "Number", "Year"]);
  assert.equal(layoutRoot(comics), "~/Comics/");
  assert.equal(layoutRoot(documents), "~/Documents/");
  assert.equal(layoutRoot("{Series}.cbz"), "");
});
