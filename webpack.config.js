/**
 * Builds the add-in into dist/: one entry per surface (functions, taskpane), the functions' metadata
 * (functions.json, Romanian, and functions-en.json, English: generated from the JSDoc of
 * src/functions/functions.ts, texts from src/shared/function-names.ts; see scripts/localize-functions.js and
 * docs/excel.md), the task pane page (which, in the shared runtime, is also the
 * page that loads the functions), the icons, the manifest and a local copy of office.js.
 *
 *   npm run build       production: manifest URLs → urlProd, office.js from the Office CDN
 *   npm run build:dev   development: manifest URLs stay on https://localhost:3000/, local office.js
 *   npm run dev-server  development, served over https on port 3000 (office-addin-dev-certs)
 */
const path = require("path");
const webpack = require("webpack");
const CopyWebpackPlugin = require("copy-webpack-plugin");
const CustomFunctionsMetadataPlugin = require("custom-functions-metadata-plugin");
const HtmlWebpackPlugin = require("html-webpack-plugin");
const { LocalizeFunctionsMetadataPlugin } = require("./scripts/localize-functions");

const urlDev = "https://localhost:3000/";
const urlProd = "https://addin.firma.example/"; // placeholder: replace with where the production build is hosted

/** The service address a fresh install talks to (the user can change it in the pane). */
const serviceUrlDev = "http://127.0.0.1:3001"; // the local sandbox: npm run sandbox
const serviceUrlProd = "https://api.firma.example/"; // placeholder: replace with the real service address

const officeJsCdn = "https://appsforoffice.microsoft.com/lib/1/hosted/office.js";
/** Where the local copy of office.js goes inside dist/ (it loads its host files from the same folder). */
const officeJsLocalDir = "office-js";

/**
 * The parts of @microsoft/office-js an Excel add-in can need, without the debug builds, the other
 * hosts' files and the Outlook strings (~13 MB instead of 86 MB).
 */
const officeJsIgnore = [
  "**/*.debug.js",
  "**/*-vsdoc.js",
  "**/*.d.ts",
  "**/outlook_strings.js",
  "**/{access,onenote,outlook,powerpoint,project,word}*.js",
];

async function getHttpsOptions() {
  const devCerts = require("office-addin-dev-certs");
  const httpsOptions = await devCerts.getHttpsServerOptions();
  return { ca: httpsOptions.ca, key: httpsOptions.key, cert: httpsOptions.cert };
}

module.exports = async (env, options) => {
  const dev = options.mode === "development";
  const serving = Boolean(env && env.WEBPACK_SERVE);

  const config = {
    devtool: dev ? "source-map" : false,
    entry: {
      functions: "./src/functions/functions.ts",
      taskpane: "./src/taskpane/taskpane.ts",
    },
    output: {
      path: path.resolve(__dirname, "dist"),
      clean: true,
    },
    resolve: {
      extensions: [".ts", ".js"],
    },
    // One engine in the add-in (issue 13): the page loads both entries, and with one webpack runtime
    // they share one module registry, so the modules both use (engine, client, settings, messages)
    // sit once in shared.js and are instantiated once — one engine, one cache, one meter.
    optimization: {
      runtimeChunk: "single",
      splitChunks: {
        cacheGroups: {
          default: false,
          defaultVendors: false,
          shared: { name: "shared", chunks: "all", minChunks: 2, enforce: true },
        },
      },
    },
    module: {
      rules: [
        {
          test: /\.ts$/,
          exclude: /node_modules/,
          use: {
            loader: "ts-loader",
            // Types are checked by `npm run typecheck`; the build only transpiles.
            options: { transpileOnly: true, compilerOptions: { noEmit: false, sourceMap: dev } },
          },
        },
      ],
    },
    plugins: [
      new webpack.DefinePlugin({
        FIRMA_DEFAULT_BASE_URL: JSON.stringify(dev ? serviceUrlDev : serviceUrlProd),
      }),
      // https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-json-autogeneration
      new CustomFunctionsMetadataPlugin({
        output: "functions.json",
        input: "./src/functions/functions.ts",
      }),
      // Then: one metadata file per language, allowErrorForDataTypeAny (scripts/localize-functions.js).
      new LocalizeFunctionsMetadataPlugin(),
      new HtmlWebpackPlugin({
        filename: "taskpane.html",
        template: "./src/taskpane/taskpane.html",
        // Shared runtime: Excel runs the functions in this page, so it loads both entries (with
        // runtime.js and shared.js, which html-webpack-plugin adds from the entry points).
        chunks: ["taskpane", "functions"],
        officeJsUrl: dev ? `${officeJsLocalDir}/office.js` : officeJsCdn,
      }),
      new CopyWebpackPlugin({
        patterns: [
          { from: "assets/*.png", to: "assets/[name][ext]" },
          { from: "src/taskpane/taskpane.css", to: "taskpane.css" },
          {
            from: "manifest*.xml",
            to: "[name][ext]",
            transform(content) {
              return dev ? content : content.toString().replace(new RegExp(urlDev, "g"), urlProd);
            },
          },
          {
            from: "node_modules/@microsoft/office-js/dist",
            to: officeJsLocalDir,
            globOptions: { ignore: officeJsIgnore },
            info: { minimized: true }, // already minified: keep Terser off these 13 MB
          },
        ],
      }),
    ],
    performance: { hints: false },
    devServer: {
      headers: { "Access-Control-Allow-Origin": "*" },
      port: Number(process.env.npm_package_config_dev_server_port || 3000),
    },
  };

  // Certificates only when serving: a build must not need (or install) them.
  if (serving) config.devServer.server = { type: "https", options: await getHttpsOptions() };

  return config;
};
