/**
 * The approval pages on a phone (issue 31), in real Chromium at 390×844 with touch: the
 * dashboard's list, one approval, "Always allow…", and the one-time page a notice's button opens
 * (/act/…). No page scrolls sideways, every button and link is at least 44 px tall, a long
 * move_file destination is on screen whole (wrapped, never cut or scrolled away), and times are in
 * radar.timezone with the zone named. Approve on the phone runs what the page showed.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { ollamaText, ollamaToolCall } from "../fakes/fake_llm_server.ts";
import { type AwayHome, withAwayHome } from "../helpers/away_home.ts";
import { collectPageErrors, launchChromium, saveScreenshot } from "./browser/chromium.ts";
import { needing } from "../helpers/system_parts.ts";
import { formatStoredTime } from "../../src/core/zoned_time.ts";

const folder = "Documents/Filed/Invoices/2026/ACME Gesellschaft mit beschränkter Haftung";
const name = "quarterly-statement-for-the-account-ending-4411-second-quarter.pdf";
const destination = `~/${folder}/${name}`;

async function proposeLongMove(home: AwayHome): Promise<void> {
  await home.dropPdf("scan_0042.pdf", "ACME GmbH statement Q2");
  home.llm.reply(
    ollamaToolCall("pdf_extract", { path: "~/Downloads/scan_0042.pdf" }),
    ollamaToolCall("move_file", { source: "~/Downloads/scan_0042.pdf", destination }),
    ollamaText("Asked."),
  );
  await home.radar.heartbeat.tick({ trigger: "schedule" });
}

/** What a phone user would run into on the page now. */
interface PhoneCheck {
  scrollWidth: number;
  /** Buttons and links shorter than 44 px ("tag text height"). */
  small: string[];
  /** Elements holding the destination that cut or scroll it. */
  cut: string[];
  text: string;
}

/** Runs in the page (source text: the page's DOM, not Deno's): what `PhoneCheck` reports. */
const measureScript = `(tail) => {
  const small = [];
  for (const element of document.querySelectorAll("a, button, summary, input[type=submit], input[type=button]")) {
    const rect = element.getBoundingClientRect();
    if (!rect.width && !rect.height) continue;
    if (rect.height < 44) small.push(element.tagName + " " + element.textContent.trim().slice(0, 30) + " " + rect.height);
  }
  const cut = [];
  for (const element of document.querySelectorAll("main *")) {
    if (!element.textContent.includes(tail) || element.children.length) continue;
    const rect = element.getBoundingClientRect();
    if (element.scrollWidth > element.clientWidth + 1 || rect.right > innerWidth) {
      cut.push(element.tagName + "." + element.className + ": " + element.scrollWidth + " > " + element.clientWidth);
    }
  }
  return { scrollWidth: document.documentElement.scrollWidth, small, cut, text: document.body.innerText };
}`;

function measure(page: Page): Promise<PhoneCheck> {
  return page.evaluate(`(${measureScript})(${JSON.stringify(name)})`) as Promise<PhoneCheck>;
}

Deno.test(needing(["chromium"], {
  name:
    "the approval pages at 390 px: no sideways scrolling, 44 px targets, the whole destination, times in radar.timezone",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await withAwayHome({}, async (home) => {
      home.radar.config.radar.timezone = "Asia/Tokyo";
      await proposeLongMove(home);
      const [record] = home.radar.away.approvals.list({ pendingOnly: true });
      const expires = formatStoredTime(record.expiresAt, "Asia/Tokyo", { zone: true });
      const [approveUrl] = (home.notices()[0].actions as Array<{ url: string }>).map((action) =>
        action.url
      );
      const browser = await launchChromium();
      try {
        const context = await browser.newContext({
          viewport: { width: 390, height: 844 },
          deviceScaleFactor: 2,
          isMobile: true,
          hasTouch: true,
        });
        const page = await context.newPage();
        const problems = collectPageErrors(page);
        await page.goto(home.web.loginLink());
        const pages: Array<[string, string]> = [
          ["approvals-list", `${home.base}/approvals`],
          ["approval", `${home.base}/approvals/${record.id}`],
          ["always-allow", `${home.base}/approvals/${record.id}/always`],
          ["act", approveUrl],
        ];
        for (const [label, url] of pages) {
          await page.goto(url);
          const check = await measure(page);
          await saveScreenshot(page, `phone-${label}`);
          assert.ok(check.scrollWidth <= 390, `${label}: ${check.scrollWidth} px wide`);
          assert.deepEqual(check.small, [], `${label}: targets under 44 px`);
          if (label !== "always-allow") {
            assert.ok(check.text.includes(destination), `${label} shows the whole destination`);
            assert.deepEqual(check.cut, [], `${label}: the destination is cut`);
          }
          if (label === "approval" || label === "act") {
            assert.ok(check.text.includes(expires), `${label}: expires ${expires}\n${check.text}`);
          }
        }
        // Not logged in, the notice's Approve opens a page without the call and without Approve:
        // a 44 px way to log in that comes back to it.
        const outside = await browser.newContext({
          viewport: { width: 390, height: 844 },
          isMobile: true,
          hasTouch: true,
        });
        const phone = await outside.newPage();
        await phone.goto(approveUrl);
        assert.equal(await phone.getByRole("button", { name: "Approve" }).count(), 0);
        assert.ok(!(await phone.textContent("body"))?.includes(destination));
        const logIn = phone.getByRole("link", { name: "Log in to see the whole call" });
        assert.ok(((await logIn.boundingBox())?.height ?? 0) >= 44);
        await logIn.click();
        assert.equal(new URL(phone.url()).pathname, "/login");
        await outside.close();

        // The yes on the button's page, logged in: the form carries the hash of what it showed.
        await page.goto(approveUrl);
        await page.getByRole("button", { name: "Approve" }).click();
        await page.getByText(/Done \(#1\): It ran as you approved/).waitFor();
        assert.equal(home.radar.away.approvals.show(record.id).state, "done");
        assert.deepEqual(problems, []);
      } finally {
        await browser.close();
      }
    });
  },
}));
