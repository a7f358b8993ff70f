/**
 * Pending approvals and standing grants on the dashboard, in a real headless Chromium: a heartbeat
 * leaves a filing for the user's yes; the home page shows it; "Always allow…" shows the suggested
 * patterns and files the PDF; the grant appears with Revoke; Undo on the file change puts the file
 * back; a second approval is denied; nothing breaks the page's CSP.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ollamaText, ollamaToolCall } from "../fakes/fake_llm_server.ts";
import { type AwayHome, withAwayHome } from "../helpers/away_home.ts";
import { collectPageErrors, launchChromium, saveScreenshot } from "./browser/chromium.ts";
import { needing } from "../helpers/system_parts.ts";

async function proposeFiling(home: AwayHome, name: string): Promise<void> {
  await home.dropPdf(name, "ACME GmbH Invoice 2026-11-02 Total 120.00 EUR");
  home.llm.reply(
    ollamaToolCall("pdf_extract", { path: `~/Downloads/${name}` }),
    ollamaToolCall("move_file", {
      source: `~/Downloads/${name}`,
      destination: `~/Documents/Filed/invoice/${name}`,
    }),
    ollamaText("Asked."),
  );
  await home.radar.heartbeat.tick({ trigger: "schedule" });
}

Deno.test(needing(["chromium"], {
  name: "approvals, Always allow…, grants, Undo and Deny on the dashboard in Chromium",
  // playwright keeps its pipe to the browser and timers of its own until the process exits.
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await withAwayHome({}, async (home) => {
      await proposeFiling(home, "scan_0042.pdf");
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        const problems = collectPageErrors(page);
        await page.goto(home.web.loginLink());
        const card = page.locator("#waiting-approvals [data-approval='1']");
        await card.waitFor({ timeout: 20_000 });
        assert.match(await card.innerText(), /#1 move_file/);
        assert.match(await card.innerText(), /scan_0042\.pdf/);
        assert.match(await card.innerText(), /had read\s+events, tool pdf_extract/);

        await card.getByRole("link", { name: "Always allow…" }).click();
        const form = page.locator("form.always-allow");
        await form.waitFor();
        assert.equal(
          await form.getByLabel("source").inputValue(),
          "~/Downloads/*.pdf",
        );
        assert.equal(
          await form.getByLabel("destination").inputValue(),
          "~/Documents/Filed/invoice/**",
        );
        await form.getByRole("button", { name: "Always allow and approve" }).click();
        await page.getByText(/Grant 1 added\. Done \(#1\): Moved/).waitFor();
        const filed = join(home.home, "Documents/Filed/invoice/scan_0042.pdf");
        assert.ok(existsSync(filed));
        const grant = page.locator("#grants tr[data-grant='1']");
        assert.match(await grant.innerText(), /source=~\/Downloads\/\*\.pdf/);
        await saveScreenshot(page, "approvals");

        const change = page.locator("#changes li[data-change='1']");
        assert.match(await change.innerText(), /approval #1/);
        await change.getByRole("button", { name: "Undo" }).click();
        await page.getByText(/Undone #1: moved/).waitFor();
        assert.ok(existsSync(join(home.home, "Downloads/scan_0042.pdf")));
        assert.ok(!existsSync(filed));

        await page.locator("#grants tr[data-grant='1']").getByRole("button", { name: "Revoke" })
          .click();
        await page.getByText("Revoked grant 1.").waitFor();
        assert.deepEqual(await home.radar.away.grants.list(), []);

        await proposeFiling(home, "scan_0043.pdf");
        await page.goto(`${home.base}/approvals`);
        const second = page.locator("#pending-approvals [data-approval='2']");
        await second.getByRole("button", { name: "Deny" }).click();
        await page.getByText("Denied approval #2.").waitFor();
        assert.equal(home.radar.away.approvals.show(2).state, "denied");
        assert.ok(existsSync(join(home.home, "Downloads/scan_0043.pdf")));
        assert.deepEqual(problems, []);
      } finally {
        await browser.close();
      }
    });
  },
}));
