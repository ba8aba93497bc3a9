/**
 * The stand-in's hooks into office.js, run right after office.js has run and before the add-in's
 * bundles (the tests append a call to `attachOffice()` to office.js): CustomFunctions.associate is
 * wrapped so the stand-in's runtime knows what the bundle registers, with the CustomFunctions.Error and
 * ErrorCode Excel's runtime gives; Office.onReady reports host Excel with a display language, a theme,
 * the requirement sets of `S.excelApi` and `S.customFunctionsRuntime`, and document settings and custom
 * XML parts that land in the stand-in (one store with the Excel API's, excel-api.ts), so a test can check
 * that nothing was written there.
 */
import { StandInError, type CustomFunction } from "./functions-runtime";
import { atLeast, ERROR_CODES } from "./rules";
import { S } from "./state";

type Callback = (result: { status: string }) => void;

interface OfficeGlobal {
  onReady(callback?: (info: unknown) => void): Promise<unknown>;
  context?: Record<string, unknown>;
  HostType: { Excel: unknown };
  PlatformType?: { PC: unknown };
}

interface CustomFunctionsGlobal {
  associate?: (...args: unknown[]) => unknown;
  Error?: unknown;
  ErrorCode?: unknown;
}

export function attachOffice(win: Record<string, unknown>): void {
  const CF = win.CustomFunctions as CustomFunctionsGlobal | undefined;
  if (CF) {
    if (!CF.ErrorCode) CF.ErrorCode = ERROR_CODES;
    if (!CF.Error) CF.Error = StandInError;
    const associate = CF.associate;
    CF.associate = function (this: unknown, ...args: unknown[]) {
      S.runtime.associate(args[0] as string | Record<string, CustomFunction>, args[1] as CustomFunction | undefined);
      return associate ? associate.apply(this, args) : undefined;
    };
  }
  const O = win.Office as OfficeGlobal;
  const onReady = O.onReady;
  const officeSettings = {
    get: (name: string) => (S.documentSettings.has(name) ? JSON.parse(S.documentSettings.get(name)!) : null),
    set: (name: string, value: unknown) => S.documentSettings.set(name, JSON.stringify(value)),
    remove: (name: string) => S.documentSettings.delete(name),
    saveAsync: (cb?: Callback) => cb && cb({ status: "succeeded" }),
  };
  O.onReady = function (callback?: (info: unknown) => void) {
    return onReady.call(O).then(() => {
      const context = O.context || (O.context = {});
      const define = (obj: object, name: string, value: unknown) =>
        Object.defineProperty(obj, name, { value, configurable: true, writable: true });
      define(context, "displayLanguage", S.displayLanguage);
      define(context, "platform", S.platform);
      if (S.officeTheme) define(context, "officeTheme", S.officeTheme);
      // https://learn.microsoft.com/office/dev/add-ins/develop/specify-api-requirements-runtime
      define(context, "requirements", {
        isSetSupported: (name: string, version = "1.1") =>
          name === "ExcelApi"
            ? atLeast(S.excelApi, version)
            : name === "CustomFunctionsRuntime"
              ? atLeast(S.customFunctionsRuntime, version)
              : false,
      });
      define(context, "document", {
        settings: officeSettings,
        customXmlParts: {
          addAsync: (xml: string, cb?: Callback) => {
            S.customXmlParts.push(String(xml));
            if (cb) cb({ status: "succeeded" });
          },
        },
      });
      const info = { host: S.host === "Excel" ? O.HostType.Excel : null, platform: S.platform };
      if (callback) callback(info);
      return info;
    });
  };
}
