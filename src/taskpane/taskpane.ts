/**
 * FIRMA task pane (minimal for now): the API key, masked, with a Save button.
 * `Office.onReady` only wires the DOM; the handlers are exported so tests can drive them without Office.
 */
import { getSettings, loadSettings, saveApiKey } from "./settings";

export interface PaneElements {
  form: HTMLFormElement;
  input: HTMLInputElement;
  button: HTMLButtonElement;
  status: HTMLElement;
}

/** The pane's elements, or null when the page is not the pane. */
export function findElements(doc: Document): PaneElements | null {
  const form = doc.getElementById("key-form") as HTMLFormElement | null;
  const input = doc.getElementById("api-key") as HTMLInputElement | null;
  const button = doc.getElementById("save-key") as HTMLButtonElement | null;
  const status = doc.getElementById("key-status");
  return form && input && button && status ? { form, input, button, status } : null;
}

/** What the status line says about the saved key (never the key itself). */
export function keyStatus(hasKey: boolean): string {
  return hasKey
    ? "O cheie API este salvată."
    : "Nicio cheie API salvată: introduceți cheia primită de la serviciu.";
}

/** Saves what the user typed (an empty field removes the key); returns the status message. */
export async function saveKey(typed: string): Promise<string> {
  const key = typed.trim();
  await saveApiKey(key);
  return key ? "Cheia a fost salvată." : "Cheia a fost ștearsă.";
}

function show(el: PaneElements, message: string, isError = false): void {
  el.status.textContent = message;
  el.status.classList.toggle("error", isError);
}

/** Handles the form's submit: saves, clears the field, says what happened. */
export async function onSave(el: PaneElements): Promise<void> {
  el.button.disabled = true;
  try {
    show(el, await saveKey(el.input.value));
    el.input.value = "";
  } catch (err) {
    show(
      el,
      `Cheia nu a putut fi salvată: ${err instanceof Error ? err.message : String(err)}`,
      true
    );
  } finally {
    el.button.disabled = false;
  }
}

/** Wires the pane's DOM: shows whether a key is saved and handles Save. */
export async function wire(doc: Document): Promise<void> {
  const el = findElements(doc);
  if (!el) return;
  el.form.addEventListener("submit", (event) => {
    event.preventDefault();
    void onSave(el);
  });
  try {
    await loadSettings();
    show(el, keyStatus(getSettings().apiKey !== null));
  } catch (err) {
    show(
      el,
      `Setările nu au putut fi citite: ${err instanceof Error ? err.message : String(err)}`,
      true
    );
  }
}

if (typeof Office !== "undefined") {
  Office.onReady(() => {
    void wire(document);
  });
}
