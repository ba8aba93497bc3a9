/**
 * Builds the add-in into dist/: one entry per surface (functions, taskpane), the functions' metadata
 * (functions.json, Romanian, and functions-en.json, English: generated from the JSDoc of
 * src/functions/functions.ts, texts from src/shared/function-names.ts; see scripts/localize-functions.js and
 * docs/excel.md), the task pane page (which, in the shared runtime, is also the
 * page that loads the functions), the icons, the manifests and a local copy of office.js. Two manifests
 * of one add-in (docs/excel.md, "Two manifests"): manifest.xml, which every Excel loads, and
 * manifest-legate.xml, the linked edition (the Company data type), which Office activates only with
 * ExcelApi 1.19 and whose metadata (functions-legate*.json) carries the linked entity load service.
 *
 *   FIRMA_ADDIN_URL=https://… npm run build
 *                       production, for that address (scripts/deployment.js: FIRMA_ADDIN_URL, and
 *                       optionally FIRMA_SERVICE_URL, FIRMA_SUPPORT_URL and FIRMA_KEY_URL; a missing, http or
 *                       placeholder address stops the build naming the variable); office.js from the
 *                       Office CDN and no copy of it; a Content-Security-Policy in the page; the manifest's
 *                       URLs carry the build's content hash and its <Version> package.json's
 *   npm run build:dev   development: manifest URLs stay on https://localhost:3000/, local office.js
 *   npm run dev-server  development, served over https on port 3000 (office-addin-dev-certs)
 * Beside the add-in, firma-build.json says which address it was built for (`firma serve` reads it).
 */
const path = require("path");
const webpack = require("webpack");
const CopyWebpackPlugin = require("copy-webpack-plugin");
const CustomFunctionsMetadataPlugin = require("custom-functions-metadata-plugin");
const HtmlWebpackPlugin = require("html-webpack-plugin");
const { LocalizeFunctionsMetadataPlugin } = require("./scripts/localize-functions");
const { contentHash, contentSecurityPolicy, deploymentOf, linkedEdition, manifestFor, manifestVersion } = require("./scripts/deployment");
const { version } = require("./package.json");

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

/** The assets whose content decides the manifest's `?v=` (what Excel loads for the functions). */
const HASHED = [
  "runtime.js",
  "shared.js",
  "functions.js",
  "taskpane.js",
  "functions.json",
  "functions-en.json",
  "functions-legate.json",
  "functions-legate-en.json",
  "taskpane.html",
];

/**
 * webpack plugin: writes manifest.xml and manifest-legate.xml (from the repository's, for the deployment: scripts/deployment.js)
 * and firma-build.json, once every asset it hashes is final.
 */
class DeploymentPlugin {
  constructor(deployment) {
    this.deployment = deployment;
    // Checked when the build starts: a version that could already be published stops it (deployment.js).
    this.manifestVersion = manifestVersion(version, process.env, deployment);
  }
  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap("DeploymentPlugin", (compilation) => {
      compilation.fileDependencies.add(path.resolve(__dirname, "manifest.xml"));
      compilation.hooks.processAssets.tap({ name: "DeploymentPlugin", stage: Compilation.PROCESS_ASSETS_STAGE_REPORT }, () => {
        const parts = HASHED.map((f) => compilation.getAsset(f))
          .filter(Boolean)
          .map((a) => a.source.buffer());
        const source = require("fs").readFileSync(path.resolve(__dirname, "manifest.xml"), "utf8");
        const hash = contentHash(parts);
        compilation.emitAsset("manifest.xml", new sources.RawSource(manifestFor(source, this.deployment, this.manifestVersion, hash)));
        compilation.emitAsset(
          "manifest-legate.xml",
          new sources.RawSource(manifestFor(linkedEdition(source), this.deployment, this.manifestVersion, hash)),
        );
        const build = {
          addinUrl: this.deployment.addinUrl,
          serviceUrl: this.deployment.serviceUrl,
          version,
          manifestVersion: this.manifestVersion,
        };
        compilation.emitAsset("firma-build.json", new sources.RawSource(`${JSON.stringify(build, null, 2)}\n`));
      });
    });
  }
}

module.exports = async (env, options) => {
  const dev = options.mode === "development";
  const serving = Boolean(env && env.WEBPACK_SERVE);
  // Where this build is deployed; a production build without a real address stops here, naming the variable.
  const deployment = deploymentOf(process.env, !dev);

  const config = {
    devtool: dev ? "source-map" : false,
    entry: {
      functions: "./src/functions/functions.ts",
      taskpane: "./src/taskpane/taskpane.ts",
    },
    output: {
      path: path.resolve(__dirname, "dist"),
      clean: true,
      // Chunks loaded when first needed (name matching, src/engine/match/lazy.ts; the pane's flows,
      // src/taskpane/flows/) sit beside the page that
      // loads the scripts (taskpane.html): a relative address, without the runtime's guess of its own.
      publicPath: "",
      // Their names carry their content's hash: a new version is never served from a stale cache.
      chunkFilename: "[name].[contenthash:8].js",
    },
    resolve: {
      extensions: [".ts", ".js"],
    },
    // One engine in the add-in: the page loads both entries, and with one webpack runtime
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
        // Name matching's pure modules: engine.ts re-exports two of their functions for the surfaces;
        // side-effect free, they stay out of the startup scripts unless a surface uses them (match/lazy.ts).
        { test: /src[\\/]engine[\\/]match[\\/](normalize|counties|classify|queries|types)\.ts$/, sideEffects: false },
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
        // "" in production without FIRMA_SERVICE_URL: the add-in's own origin (src/shared/settings.ts)
        FIRMA_DEFAULT_BASE_URL: JSON.stringify(deployment.serviceUrl),
        // The pane's "get a key" link: FIRMA_KEY_URL, or "" for the add-in's help page (src/taskpane/help.ts keyPageUrl)
        FIRMA_KEY_URL: JSON.stringify(deployment.keyUrl),
      }),
      // https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-json-autogeneration
      new CustomFunctionsMetadataPlugin({
        output: "functions.json",
        // The linked companies' load service is a file of its own (its association depends on the edition).
        input: ["./src/functions/functions.ts", "./src/functions/linked-functions.ts"],
      }),
      // Then: one metadata file per language and edition, allowErrorForDataTypeAny (scripts/localize-functions.js).
      // and the help pages each function's helpUrl points to, on the deployment's address.
      new LocalizeFunctionsMetadataPlugin({ addinUrl: deployment.addinUrl, keyUrl: deployment.keyUrl }),
      new HtmlWebpackPlugin({
        filename: "taskpane.html",
        template: "./src/taskpane/taskpane.html",
        // Shared runtime: Excel runs the functions in this page, so it loads both entries (with
        // runtime.js and shared.js, which html-webpack-plugin adds from the entry points).
        chunks: ["taskpane", "functions"],
        officeJsUrl: dev ? `${officeJsLocalDir}/office.js` : officeJsCdn,
        csp: dev ? null : contentSecurityPolicy(deployment),
        // the scripts' URLs carry the compilation's hash: a new build is a new URL
        hash: !dev,
      }),
      new DeploymentPlugin(deployment),
      new CopyWebpackPlugin({
        patterns: [
          { from: "assets/*.png", to: "assets/[name][ext]" },
          { from: "src/taskpane/taskpane.css", to: "taskpane.css" },
          { from: "src/taskpane/sections.css", to: "sections.css" },
          { from: "src/taskpane/themes.css", to: "themes.css" },
          // A development build loads office.js from here; a production one from Microsoft's CDN only.
          ...(dev
            ? [
                {
                  from: "node_modules/@microsoft/office-js/dist",
                  to: officeJsLocalDir,
                  globOptions: { ignore: officeJsIgnore },
                  info: { minimized: true }, // already minified: keep Terser off these 13 MB
                },
              ]
            : []),
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
