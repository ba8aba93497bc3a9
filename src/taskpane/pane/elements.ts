/**
 * The pane's elements by id: every id the pane's code reaches in taskpane.html, found once. A page
 * that lacks one is not the pane.
 */
const IDS = [
  "pane",
  "app-status",
  "guard-box",
  "guard-text",
  "guard-fill",
  "guard-dismiss",
  "guard-status",
  "key-form",
  "api-key",
  "toggle-key",
  "key-state",
  "save-key",
  "test-key",
  "remove-key",
  "key-status",
  "key-get",
  "plan",
  "plan-source",
  "meter-today",
  "meter-today-text",
  "meter-today-bar",
  "meter-month",
  "meter-month-text",
  "meter-month-bar",
  "usage-warning",
  "quota-stop",
  "quota-stop-text",
  "quota-retry",
  "usage-status",
  "cache-problem",
  "usage-cache-size",
  "chart-caption",
  "usage-chart",
  "usage-left",
  "usage-service-row",
  "usage-service-remaining",
  "usage-cache",
  "usage-batching",
  "usage-refused",
  "excel-only",
  "refresh-scope",
  "estimate",
  "refresh",
  "estimate-box",
  "est-formulas",
  "est-cuis",
  "est-batches",
  "est-credits",
  "est-left",
  "est-notes",
  "refresh-confirm",
  "refresh-confirm-text",
  "refresh-yes",
  "refresh-no",
  "refresh-progress",
  "refresh-status",
  "refresh-continue",
  "changes-box",
  "changes-summary",
  "changes-rows",
  "changes-more",
  "changes-write",
  "changes-status",
  "freeze",
  "freeze-confirm",
  "freeze-yes",
  "freeze-no",
  "freeze-status",
  "freeze-cards-note",
  "settings-form",
  "advanced-settings",
  "base-url",
  "base-url-hint",
  "language",
  "language-auto",
  "batch-window",
  "guard-threshold",
  "linked-refresh",
  "settings-status",
  "help-list",
] as const;
export type Id = (typeof IDS)[number];
export type PaneElements = Record<Id, HTMLElement>;

/** The pane's elements, or null when the page is not the pane. */
export function findElements(doc: Document): PaneElements | null {
  const out = {} as PaneElements;
  for (const id of IDS) {
    const el = doc.getElementById(id);
    if (!el) return null;
    out[id] = el;
  }
  return out;
}
