/**
 * The pane follows the Office theme, so that it looks like the Excel around it:
 * Office.context.officeTheme gives the theme's body and control colours as "#RRGGBB" and whether it
 * is dark (https://learn.microsoft.com/javascript/api/office/office.officetheme; the page's own sample
 * reads isDarkTheme both as a property and as a method, so both are accepted here). The body colours
 * become --officeBody* properties. Without a theme (a plain browser, or an Office that gives none)
 * the system's light or dark choice applies (prefers-color-scheme), followed as it changes; Windows
 * high contrast is handled by CSS (forced-colors).
 */
export interface OfficeThemeLike {
  bodyBackgroundColor?: string;
  bodyForegroundColor?: string;
  controlBackgroundColor?: string;
  controlForegroundColor?: string;
  isDarkTheme?: boolean | (() => boolean);
  themeId?: unknown;
}

const HEX = /^#?([0-9a-f]{6})$/i;

/** Relative luminance (WCAG) of "#RRGGBB", or null when it is not such a colour. */
export function luminance(color: string | undefined): number | null {
  const m = HEX.exec(String(color ?? "").trim());
  if (!m) return null;
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(m[1].slice(i, i + 2), 16) / 255);
  const lin = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** "dark", "light", or null (no usable theme: the system decides). */
export function themeKind(theme: OfficeThemeLike | null | undefined): "dark" | "light" | null {
  if (!theme) return null;
  const flag = typeof theme.isDarkTheme === "function" ? safeCall(theme.isDarkTheme) : theme.isDarkTheme;
  if (typeof flag === "boolean") return flag ? "dark" : "light";
  const l = luminance(theme.bodyBackgroundColor);
  return l === null ? null : l < 0.2 ? "dark" : "light";
}

function safeCall(f: () => boolean): boolean | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

/** Sets data-theme on <html> and the theme's colours as --office* custom properties; without a theme, the system's choice. */
export function applyTheme(doc: Document, theme: OfficeThemeLike | null | undefined): void {
  const root = doc.documentElement;
  const kind = themeKind(theme);
  const colors: [string, string | undefined][] = [
    ["--officeBodyBackground", theme?.bodyBackgroundColor],
    ["--officeBodyForeground", theme?.bodyForegroundColor],
  ];
  if (kind === null) {
    for (const [name] of colors) root.style.removeProperty(name);
    const system = doc.defaultView?.matchMedia?.("(prefers-color-scheme: dark)");
    const follow = () => root.setAttribute("data-theme", system?.matches ? "dark" : "light");
    follow();
    system?.addEventListener?.("change", follow);
    return;
  }
  root.setAttribute("data-theme", kind);
  for (const [name, value] of colors) {
    // Only colours that read on the theme's side: a body colour on the wrong side would hide the text.
    const l = luminance(value);
    const fits = l !== null && (name.endsWith("Background") ? (kind === "dark") === l < 0.2 : (kind === "dark") === l >= 0.2);
    if (fits) root.style.setProperty(name, value!.startsWith("#") ? value! : `#${value}`);
    else root.style.removeProperty(name);
  }
}
