/**
 * Beside the key form, a link to get a key (AppSource validation asks for sign-up links where an add-in
 * signs in: docs/excel.md, "AppSource", policy 1100.x), in Romanian first and in English: reached with
 * the keyboard right after the key's buttons, named for a screen reader with where it goes, opening a new
 * window (never the pane itself) on a page that exists. Its address is configuration: FIRMA_KEY_URL at
 * build time (scripts/deployment.js); without it, the add-in's own help page at its key section
 * (ajutor.html#cheie / help.html#cheie, scripts/help-pages.js), as in the build these tests serve.
 *
 * Needs Debian's Chromium (/usr/bin/chromium, or FIRMA_CHROMIUM); skipped, with a message, without it.
 */
import { haveChromium, CHROMIUM, openPane, startHarness, type Harness } from "./harness";
import { act } from "../support/pane";

if (!haveChromium) console.log(`pane key-link tests SKIPPED: no Chromium at ${CHROMIUM} (apt-get install chromium).`);
const withChromium = haveChromium ? describe : describe.skip;

jest.setTimeout(90_000);

let h: Harness;

withChromium("the pane's link to get a key", () => {
  beforeAll(async () => {
    h = await startHarness();
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  test.each([
    ["ro-RO", "Nu aveți o cheie? Obțineți una (se deschide într-o fereastră nouă)", "ajutor.html", "Cum obțineți o cheie API"],
    ["en-US", "No key yet? Get one (opens in a new window)", "help.html", "How to get an API key"],
  ])("%s: beside the key form, by keyboard, to a page that exists", async (displayLanguage, name, page, heading) => {
    const { page: pane, context } = await openPane(h, { displayLanguage });
    // A link a screen reader lists by its name, inside the key's form, saying it opens a new window.
    const link = pane.getByRole("link", { name });
    expect(await link.count()).toBe(1);
    expect(await pane.locator("#key-form #key-get").count()).toBe(1);
    expect(await link.getAttribute("target")).toBe("_blank");
    expect(await link.getAttribute("rel")).toBe("noopener noreferrer");
    const href = await link.evaluate((a) => (a as HTMLAnchorElement).href);
    expect(href).toBe(`${h.origin}/${page}#cheie`);

    // The keyboard: Tab from the key's last button reaches it; Enter opens it in a new window.
    await pane.focus("#test-key");
    await pane.keyboard.press("Tab");
    expect(await pane.evaluate(() => document.activeElement?.id)).toBe("key-get");
    const [popup] = await Promise.all([context.waitForEvent("page"), pane.keyboard.press("Enter")]);
    await popup.waitForLoadState();
    expect(popup.url()).toBe(href);
    expect(await popup.textContent("#cheie h2")).toBe(heading);
    expect(pane.url().split("?")[0]).toBe(`${h.origin}/taskpane.html`); // the pane stayed where it was (its address as the manifest gives it)
    await context.close();
  });

  test("it follows a change of language in Settings", async () => {
    const { page, context } = await openPane(h, { displayLanguage: "ro-RO" });
    await page.click("#settings-section summary");
    await page.selectOption("#language", "en");
    await act(page, "#save-settings");
    await page.waitForFunction(() => document.documentElement.lang === "en");
    expect(await page.getAttribute("#key-get", "href")).toBe("help.html#cheie");
    expect(await page.textContent("#key-get")).toBe("No key yet? Get one (opens in a new window)");
    await context.close();
  });
});
