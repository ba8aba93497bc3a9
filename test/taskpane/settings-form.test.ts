/** The settings form read: what is saved from the fields as typed, and which field is refused, with its message. */
import { t } from "../../src/taskpane/i18n";
import { parseSettingsForm, type SettingsFormFields } from "../../src/taskpane/pane/settings-form";

function form(over: Partial<SettingsFormFields> = {}): SettingsFormFields {
  return { baseUrl: "", batchWindow: "40", language: "auto", guardThreshold: "100", ...over };
}

describe("the settings form", () => {
  test("empty or default fields save the defaults: the default address, window and Office's language", () => {
    expect(parseSettingsForm(form({ batchWindow: "" }))).toEqual({
      ok: true,
      settings: { baseUrl: null, batchWindowMs: null, language: null, guardThreshold: 100, linkedRefresh: "manual" },
    });
  });

  test("values as typed, trimmed: an address, a window, a language, a threshold", () => {
    const r = parseSettingsForm({ baseUrl: "  https://api.example.ro ", batchWindow: " 250 ", language: "en", guardThreshold: " 7 " });
    expect(r).toEqual({
      ok: true,
      settings: { baseUrl: "https://api.example.ro", batchWindowMs: 250, language: "en", guardThreshold: 7, linkedRefresh: "manual" },
    });
  });

  test("an empty threshold turns the credit guard off; 0 is a threshold", () => {
    expect(parseSettingsForm(form({ guardThreshold: "" }))).toMatchObject({ ok: true, settings: { guardThreshold: null } });
    expect(parseSettingsForm(form({ guardThreshold: "0" }))).toMatchObject({ ok: true, settings: { guardThreshold: 0 } });
  });

  test.each(["5001", "-1", "2.5", "soon"])("a bad batch window (%s) is refused, and the message names the batch window", (value) => {
    const r = parseSettingsForm(form({ batchWindow: value }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.first).toBe("batchWindow");
    expect(Object.keys(r.errors)).toEqual(["batchWindow"]);
    expect(t("en", r.errors.batchWindow!)).toMatch(/batch window/i);
    expect(t("en", r.errors.batchWindow!)).toContain("0 to 5000");
  });

  test("the window's bounds are accepted", () => {
    expect(parseSettingsForm(form({ batchWindow: "0" }))).toMatchObject({ ok: true, settings: { batchWindowMs: 0 } });
    expect(parseSettingsForm(form({ batchWindow: "5000" }))).toMatchObject({ ok: true, settings: { batchWindowMs: 5000 } });
  });

  test("an address that is not https (except on this computer) is refused", () => {
    const r = parseSettingsForm(form({ baseUrl: "http://api.example.ro" }));
    expect(r).toMatchObject({ ok: false, first: "baseUrl" });
    if (!r.ok) expect(t("en", r.errors.baseUrl!)).toMatch(/^Invalid address/);
    expect(parseSettingsForm(form({ baseUrl: "http://127.0.0.1:8787" }))).toMatchObject({ ok: true });
  });

  test("a threshold that is not a whole number of credits is refused, naming the credit limit", () => {
    for (const value of ["-3", "1.5", "many"]) {
      const r = parseSettingsForm(form({ guardThreshold: value }));
      expect(r).toMatchObject({ ok: false, first: "guardThreshold" });
      if (!r.ok) expect(t("en", r.errors.guardThreshold!)).toMatch(/credit limit/);
    }
  });

  test("every wrong field is reported; the first in the form's order is the one the pane names", () => {
    const r = parseSettingsForm({ baseUrl: "not a url", batchWindow: "x", language: "ro", guardThreshold: "-1" });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.first).toBe("baseUrl");
    expect(r.errors).toEqual({ baseUrl: "settings.badUrl", batchWindow: "settings.badWindow", guardThreshold: "settings.badGuard" });
    const later = parseSettingsForm({ baseUrl: "", batchWindow: "x", language: "ro", guardThreshold: "-1" });
    expect(later).toMatchObject({ ok: false, first: "batchWindow" });
  });
});

test('linked companies refresh: manual unless "onLoad" is chosen (anything else is manual: no periodic mode)', () => {
  for (const [chosen, saved] of [
    ["onLoad", "onLoad"],
    ["manual", "manual"],
    ["periodic", "manual"],
    [undefined, "manual"],
  ] as const) {
    const r = parseSettingsForm({ baseUrl: "", batchWindow: "", language: "auto", guardThreshold: "100", linkedRefresh: chosen });
    expect(r.ok && r.settings.linkedRefresh).toBe(saved);
  }
});
