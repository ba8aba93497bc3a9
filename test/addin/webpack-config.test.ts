/**
 * webpack.config.js itself: the dev server's certificates are asked for only when serving (a build
 * must not need them, nor try to install them), and the build-time constants follow the mode.
 */
jest.mock("office-addin-dev-certs", () => ({
  getHttpsServerOptions: jest.fn(async () => ({ ca: "CA", key: "KEY", cert: "CERT" })),
}));

const devCerts = require("office-addin-dev-certs") as { getHttpsServerOptions: jest.Mock };
const makeConfig = require("../../webpack.config.js") as (
  env: Record<string, unknown>,
  options: { mode?: string },
) => Promise<{
  entry: Record<string, string>;
  devServer: { port: number; server?: { type: string; options: unknown } };
  plugins: { constructor: { name: string }; definitions?: Record<string, string> }[];
}>;

const saved = { ...process.env };
beforeEach(() => {
  devCerts.getHttpsServerOptions.mockClear();
  process.env.FIRMA_ADDIN_URL = "https://addin.firma-test.ro/";
  delete process.env.FIRMA_SERVICE_URL;
  delete process.env.FIRMA_SUPPORT_URL;
  delete process.env.FIRMA_KEY_URL;
});
afterAll(() => {
  process.env = saved;
});

test("a build does not ask for certificates", async () => {
  const config = await makeConfig({ WEBPACK_BUNDLE: true, WEBPACK_BUILD: true }, { mode: "production" });
  expect(devCerts.getHttpsServerOptions).not.toHaveBeenCalled();
  expect(config.devServer.server).toBeUndefined();
  expect(Object.keys(config.entry).sort()).toEqual(["functions", "taskpane"]);
});

test("serving uses https on port 3000 with the dev certificates", async () => {
  const config = await makeConfig({ WEBPACK_SERVE: true }, { mode: "development" });
  expect(devCerts.getHttpsServerOptions).toHaveBeenCalledTimes(1);
  expect(config.devServer.port).toBe(3000);
  expect(config.devServer.server).toEqual({
    type: "https",
    options: { ca: "CA", key: "KEY", cert: "CERT" },
  });
});

test.each([
  ["development", undefined, '"http://127.0.0.1:3001"'],
  ["production", undefined, '""'], // the add-in's own origin: the relay of firma serve (src/shared/settings.ts)
  ["production", "https://api.firma-test.ro/v4-gateway", '"https://api.firma-test.ro/v4-gateway"'],
])("%s with FIRMA_SERVICE_URL=%s: FIRMA_DEFAULT_BASE_URL is %s", async (mode, service, value) => {
  if (service) process.env.FIRMA_SERVICE_URL = service;
  const config = await makeConfig({}, { mode });
  const define = config.plugins.find((p) => p.constructor.name === "DefinePlugin");
  expect(define?.definitions?.FIRMA_DEFAULT_BASE_URL).toBe(value);
});

test.each([
  [{}, /FIRMA_ADDIN_URL is not set/],
  [{ FIRMA_ADDIN_URL: "http://addin.firma-test.ro/" }, /FIRMA_ADDIN_URL must be an https:\/\/ address/],
  [{ FIRMA_ADDIN_URL: "https://addin.firma.example/" }, /FIRMA_ADDIN_URL is a placeholder address \(addin\.firma\.example\)/],
  [{ FIRMA_ADDIN_URL: "not an address" }, /FIRMA_ADDIN_URL is not an address/],
  [
    { FIRMA_ADDIN_URL: "https://addin.firma-test.ro/", FIRMA_SERVICE_URL: "http://api.firma-test.ro/" },
    /FIRMA_SERVICE_URL must be an https:\/\/ address/,
  ],
  [
    { FIRMA_ADDIN_URL: "https://addin.firma-test.ro/", FIRMA_SERVICE_URL: "https://api.firma.example/" },
    /FIRMA_SERVICE_URL is a placeholder/,
  ],
  [{ FIRMA_ADDIN_URL: "https://addin.firma-test.ro/", FIRMA_SUPPORT_URL: "https://help.example/" }, /FIRMA_SUPPORT_URL is a placeholder/],
  [
    { FIRMA_ADDIN_URL: "https://addin.firma-test.ro/", FIRMA_KEY_URL: "http://cont.firma-test.ro/" },
    /FIRMA_KEY_URL must be an https:\/\/ address/,
  ],
  [{ FIRMA_ADDIN_URL: "https://addin.firma-test.ro/", FIRMA_KEY_URL: "https://cont.firma.example/" }, /FIRMA_KEY_URL is a placeholder/],
])("a production build refuses %j, naming the variable", async (vars, message) => {
  delete process.env.FIRMA_ADDIN_URL;
  Object.assign(process.env, vars);
  await expect(makeConfig({}, { mode: "production" })).rejects.toThrow(message);
});

test.each([
  ["development", undefined, '""', "https://localhost:3000/"],
  ["production", undefined, '""', "https://addin.firma-test.ro/"],
  ["production", "https://cont.firma-test.ro/inregistrare", '"https://cont.firma-test.ro/inregistrare"', "https://addin.firma-test.ro/"],
])("%s with FIRMA_KEY_URL=%s: the pane's key link is %s, the help URLs on %s", async (mode, keyUrl, value, addin) => {
  if (keyUrl) process.env.FIRMA_KEY_URL = keyUrl;
  const config = await makeConfig({}, { mode });
  const define = config.plugins.find((p) => p.constructor.name === "DefinePlugin");
  expect(define?.definitions?.FIRMA_KEY_URL).toBe(value);
  const localize = config.plugins.find((p) => p.constructor.name === "LocalizeFunctionsMetadataPlugin") as unknown as {
    addinUrl: string;
    keyUrl: string;
  };
  expect([localize.addinUrl, localize.keyUrl]).toEqual([addin, keyUrl ?? ""]);
});

test("the metadata is localized after it is generated", async () => {
  const config = await makeConfig({}, { mode: "production" });
  const names = config.plugins.map((p) => p.constructor.name);
  const generate = names.indexOf("CustomFunctionsMetadataPlugin");
  expect(generate).toBeGreaterThanOrEqual(0);
  expect(names.indexOf("LocalizeFunctionsMetadataPlugin")).toBeGreaterThan(generate);
});
