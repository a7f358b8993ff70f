import assert from "node:assert/strict";
import { createWebFixture } from "./web_fixture.ts";

Deno.test("/plugins lists the skills read-only, escaped, with why a skill is hidden", async () => {
  const fixture = createWebFixture({
    extra: {
      skills: () => [
        { name: "pdf-filing", description: "File PDFs.", source: "bundled", missing: [] },
        {
          name: "evil",
          description: "<script>alert(1)</script>",
          source: "data",
          missing: ["program kettle-ctl"],
        },
      ],
    },
  });
  try {
    const response = await fixture.app.request("/plugins");
    const html = await response.text();
    assert.match(html, /<h2>Skills<\/h2>/);
    assert.match(html, /pdf-filing<\/td><td>bundled<\/td><td>usable/);
    assert.match(html, /hidden: needs program kettle-ctl/);
    assert.ok(!html.includes("<script>alert(1)"), "descriptions are escaped");
  } finally {
    fixture.close();
  }
});
