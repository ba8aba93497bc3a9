/**
 * Which look the pane takes from Office.context.officeTheme: dark for Black and Dark Gray, light for
 * Colorful and White, from isDarkTheme (a property, or a method as in the page's sample) or, where
 * it is missing, from the body colour; none (the system decides) without a usable theme.
 */
import { luminance, themeKind } from "../../src/taskpane/theme";

test("isDarkTheme decides, as a property or a method", () => {
  expect(themeKind({ isDarkTheme: true, bodyBackgroundColor: "#FFFFFF" })).toBe("dark");
  expect(themeKind({ isDarkTheme: false, bodyBackgroundColor: "#262626" })).toBe("light");
  expect(themeKind({ isDarkTheme: () => true })).toBe("dark");
  expect(
    themeKind({
      isDarkTheme: () => {
        throw new Error("not here");
      },
      bodyBackgroundColor: "#1F1F1F",
    }),
  ).toBe("dark");
});

test("without isDarkTheme, the body colour: Black (#262626) and Dark Gray (#444444) are dark, Colorful and White light", () => {
  expect(themeKind({ bodyBackgroundColor: "#262626" })).toBe("dark");
  expect(themeKind({ bodyBackgroundColor: "#444444" })).toBe("dark");
  expect(themeKind({ bodyBackgroundColor: "#E6E6E6" })).toBe("light");
  expect(themeKind({ bodyBackgroundColor: "FFFFFF" })).toBe("light");
});

test("no theme, or colours that are not colours: the system decides", () => {
  expect(themeKind(null)).toBeNull();
  expect(themeKind(undefined)).toBeNull();
  expect(themeKind({ bodyBackgroundColor: "red" })).toBeNull();
  expect(luminance("#000000")).toBe(0);
  expect(luminance("#FFFFFF")).toBeCloseTo(1);
});
