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

beforeEach(() => devCerts.getHttpsServerOptions.mockClear());

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
  ["development", '"http://127.0.0.1:3001"'],
  ["production", '"https://api.firma.example/"'],
])("%s: FIRMA_DEFAULT_BASE_URL is %s", async (mode, value) => {
  const config = await makeConfig({}, { mode });
  const define = config.plugins.find((p) => p.constructor.name === "DefinePlugin");
  expect(define?.definitions?.FIRMA_DEFAULT_BASE_URL).toBe(value);
});

test("the metadata is localized after it is generated", async () => {
  const config = await makeConfig({}, { mode: "production" });
  const names = config.plugins.map((p) => p.constructor.name);
  const generate = names.indexOf("CustomFunctionsMetadataPlugin");
  expect(generate).toBeGreaterThanOrEqual(0);
  expect(names.indexOf("LocalizeFunctionsMetadataPlugin")).toBeGreaterThan(generate);
});
