/**
 * Where the add-in is deployed: the addresses a build is made for, read from the environment and
 * checked, and the manifest written for them. Used by webpack.config.js (and its tests).
 *
 *   FIRMA_ADDIN_URL     where dist/ is served (https://…/): the manifest, icons, pages and metadata
 *                       point there. Required for a production build.
 *   FIRMA_SERVICE_URL   the service the add-in calls directly (it must allow the add-in's origin:
 *                       docs/deploy.md). Left out: the add-in calls /v4 on its own origin, which
 *                       `firma serve` relays.
 *   FIRMA_SUPPORT_URL   the manifest's support address. @default FIRMA_ADDIN_URL
 *   FIRMA_KEY_URL       where a person gets an API key (the service's sign-up or account page): the
 *                       pane's "get a key" link and the help page's key section point there. Left out:
 *                       the link opens the add-in's own help page at its key section (HELP_PAGES).
 *
 * A production build stops, naming the variable, when an address is missing, is not https, or is one
 * of the placeholders the project used to ship (*.firma.example, anything under .example, .invalid
 * or .test). https://localhost:3000/ is allowed: `firma serve` on one computer, with the development
 * certificate.
 */
"use strict";

const crypto = require("crypto");
const path = require("path");
const { URL } = require("url");

const DEV_ADDIN_URL = "https://localhost:3000/";
/** The local sandbox (npm run sandbox): what a development build calls. */
const DEV_SERVICE_URL = "http://127.0.0.1:3001";
/**
 * The add-in's help page per language, built into dist/ (scripts/help-pages.js): each function's
 * `helpUrl` is `<FIRMA_ADDIN_URL><page>#<id>`, and `#cheie` is the section on getting a key.
 */
const HELP_PAGES = { ro: "ajutor.html", en: "help.html" };

class DeploymentError extends Error {}

/** An https address for `name`, normalized with a trailing slash; throws naming the variable. */
function checkedUrl(name, value, { allowLoopbackHttp = false, keepPath = false } = {}) {
  let u;
  try {
    u = new URL(value);
  } catch {
    throw new DeploymentError(`${name} is not an address: ${JSON.stringify(value)}`);
  }
  const loopback = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(u.hostname);
  if (u.protocol !== "https:" && !(allowLoopbackHttp && u.protocol === "http:" && loopback)) {
    throw new DeploymentError(`${name} must be an https:// address (Office loads add-ins over https only): ${value}`);
  }
  if (/(^|\.)firma\.example$|(^|\.)(example|invalid|test)$/.test(u.hostname)) {
    throw new DeploymentError(`${name} is a placeholder address (${u.hostname}): give the address users will reach`);
  }
  if (u.username || u.password || u.search || u.hash)
    throw new DeploymentError(`${name} must be a plain address, without credentials, query or fragment: ${value}`);
  // A page's address (keepPath) is taken as it is; a folder's gets its trailing slash.
  return keepPath || u.href.endsWith("/") ? u.href : `${u.href}/`;
}

/**
 * The deployment of a build. Development: the dev server and the local sandbox. Production: from the
 * environment, checked. `serviceUrl` "" means the add-in's own origin (the relay of `firma serve`).
 */
function deploymentOf(env, production) {
  if (!production) return { addinUrl: DEV_ADDIN_URL, serviceUrl: DEV_SERVICE_URL, supportUrl: DEV_ADDIN_URL, keyUrl: "" };
  if (!env.FIRMA_ADDIN_URL) {
    throw new DeploymentError(
      "FIRMA_ADDIN_URL is not set: a production build is made for the address it is served from, e.g. FIRMA_ADDIN_URL=https://addin.firma-mea.ro/ npm run build (docs/deploy.md)",
    );
  }
  const addinUrl = checkedUrl("FIRMA_ADDIN_URL", env.FIRMA_ADDIN_URL);
  const serviceUrl = env.FIRMA_SERVICE_URL
    ? checkedUrl("FIRMA_SERVICE_URL", env.FIRMA_SERVICE_URL, { allowLoopbackHttp: true }).replace(/\/$/, "")
    : "";
  const supportUrl = env.FIRMA_SUPPORT_URL ? checkedUrl("FIRMA_SUPPORT_URL", env.FIRMA_SUPPORT_URL) : addinUrl;
  const keyUrl = env.FIRMA_KEY_URL ? checkedUrl("FIRMA_KEY_URL", env.FIRMA_KEY_URL, { keepPath: true }) : "";
  return { addinUrl, serviceUrl, supportUrl, keyUrl };
}

/**
 * The Content-Security-Policy of the built pages: scripts from the add-in's origin and Microsoft's
 * CDN (office.js loads its host files from its own folder; ajax.aspnetcdn.com for the MicrosoftAjax
 * some hosts ask for: office-js#1005), connections to the add-in's origin and the configured service
 * only, no plugins, no <base> elsewhere. Styles may be inline (office.js sets some: office-js#1687).
 * No frame-ancestors: Office on the web frames the page from hosts Microsoft does not list.
 */
function contentSecurityPolicy(d) {
  const connect = ["'self'"];
  if (d.serviceUrl) connect.push(new URL(d.serviceUrl).origin);
  return [
    "script-src 'self' https://appsforoffice.microsoft.com https://ajax.aspnetcdn.com",
    `connect-src ${connect.join(" ")}`,
    "object-src 'none'",
    "base-uri 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
  ].join("; ");
}

/** A short content hash of the given buffers (for URLs that must change when the files do). */
function contentHash(buffers) {
  const h = crypto.createHash("sha256");
  for (const b of buffers) h.update(b);
  return h.digest("hex").slice(0, 12);
}

/**
 * The manifest's <Version>: package.json's major.minor.patch and a build number, so that every build of
 * a changed add-in carries a higher version (the Version element, learn.microsoft.com/javascript/api/manifest/version;
 * AppSource asks for a higher version with every manifest change, certification policy 1120.1). The
 * build number is FIRMA_BUILD_NUMBER when set (0–9999: the schema allows five digits a part, AppSource's
 * submission form four, learn.microsoft.com/partner-center/marketplace-offers/appsource-submission-faq), else the
 * number of commits of the git checkout, which rises with every committed change. A build for a real
 * address (not this computer) with neither, or from a checkout with uncommitted changes to what ships,
 * stops: its version could be one already published with other content.
 * `git`: { commits(): number | null, dirty(): boolean } (tests give their own).
 */
function manifestVersion(version, env, d, git = gitState()) {
  const three = `${version.split("-")[0]}.0.0`.split(".").slice(0, 3).join(".");
  if (env.FIRMA_BUILD_NUMBER !== undefined && env.FIRMA_BUILD_NUMBER !== "") {
    const n = String(env.FIRMA_BUILD_NUMBER).trim();
    if (!/^\d{1,4}$/.test(n))
      throw new DeploymentError(`FIRMA_BUILD_NUMBER must be a whole number from 0 to 9999 (the manifest's <Version> part), not "${n}"`);
    return `${three}.${Number(n)}`;
  }
  const local = !d.addinUrl || isLoopbackUrl(d.addinUrl);
  const commits = git.commits();
  if (!local && commits === null)
    throw new DeploymentError(
      "FIRMA_BUILD_NUMBER is not set and this is not a git checkout: set it, higher than the last published build (docs/deploy.md)",
    );
  if (!local && git.dirty())
    throw new DeploymentError(
      "FIRMA_BUILD_NUMBER is not set and the checkout has uncommitted changes: commit them (the build number is the commit count) or set FIRMA_BUILD_NUMBER (docs/deploy.md)",
    );
  if (!local && (commits ?? 0) > 9999)
    throw new DeploymentError(
      `the checkout has ${commits} commits, past the 9999 a <Version> part may hold: set FIRMA_BUILD_NUMBER and raise package.json's version (docs/deploy.md)`,
    );
  return `${three}.${Math.min(commits ?? 0, 9999)}`;
}

function isLoopbackUrl(url) {
  return /^https?:\/\/(localhost|127(\.\d{1,3}){3}|\[::1\])(:\d+)?\//i.test(url);
}

/** The checkout's commit count and whether what ships (src, assets, manifest, package files) has uncommitted changes. */
function gitState(cwd = path.resolve(__dirname, "..")) {
  const git = (args) => {
    const r = require("child_process").spawnSync("git", args, { cwd, encoding: "utf8" });
    return r.status === 0 ? r.stdout.trim() : null;
  };
  return {
    commits: () => {
      const out = git(["rev-list", "--count", "HEAD"]);
      return out === null ? null : Number(out);
    },
    dirty: () =>
      (git(["status", "--porcelain", "--", "src", "assets", "manifest.xml", "package.json", "package-lock.json", "webpack.config.js"]) ??
        "") !== "",
  };
}

/**
 * The manifest for a deployment: every development URL moved to the add-in's address, the support
 * URLs to the support address, <Version> as manifestVersion makes it, and the functions' script,
 * metadata and page URLs carrying `?v=<hash>` of what they load, so that a new build is a new URL
 * (Excel caches custom functions' metadata for up to a day: custom-functions-troubleshooting).
 */
function manifestFor(source, d, four, hash) {
  // The repository's comments are notes for its developers, not for Office.
  let xml = source.replace(/<!--[\s\S]*?-->\n?/g, "").replace(/<Version>[^<]*<\/Version>/, `<Version>${four}</Version>`);
  xml = xml.replace(/(<SupportUrl DefaultValue=")[^"]*(")/, `$1${d.supportUrl}$2`);
  xml = xml.replace(/(<bt:Url id="GetStarted\.LearnMoreUrl" DefaultValue=")[^"]*(")/, `$1${d.supportUrl}$2`);
  if (hash)
    xml = xml.replace(
      /(https:\/\/localhost:3000\/(?:functions(?:-legate)?(?:-en)?\.json|functions\.js|taskpane\.html))(\?legate=1)?"/g,
      (_m, url, legate) => `${url}?${legate ? "legate=1&amp;" : ""}v=${hash}"`,
    );
  return xml.split(DEV_ADDIN_URL).join(d.addinUrl);
}

/** What marks the linked edition's page address: the runtime reads it (src/office/linked-support.ts). */
const LINKED_EDITION_QUERY = "legate=1";

/**
 * The linked edition's manifest (manifest-legate.xml) from the repository's manifest.xml, before manifestFor:
 * the same add-in (same Id: an organisation deploys one of the two), which Office activates only where
 * ExcelApi 1.19 is supported (a <Set> of the base manifest's <Requirements> names "a requirement set ...
 * that your Office Add-in needs in order to be activated by Office": learn.microsoft.com/javascript/api/manifest/set),
 * whose metadata carries the linked entity load service (functions-legate*.json) and whose page address
 * says so to the runtime (`?legate=1`). docs/excel.md, "Two manifests".
 */
function linkedEdition(source) {
  let xml = source;
  const sets = /(<Requirements>\s*<Sets[^>]*>)/;
  if (!sets.test(xml))
    throw new DeploymentError("manifest.xml has no <Requirements><Sets>: the linked edition cannot require ExcelApi 1.19");
  xml = xml.replace(sets, `$1\n      <Set Name="ExcelApi" MinVersion="1.19"/>`);
  xml = xml.replace(/(https:\/\/localhost:3000\/functions)(-en)?\.json"/g, (_m, base, en) => `${base}-legate${en ?? ""}.json"`);
  xml = xml.replace(/(https:\/\/localhost:3000\/taskpane\.html)"/g, `$1?${LINKED_EDITION_QUERY}"`);
  return xml;
}

module.exports = {
  DEV_ADDIN_URL,
  HELP_PAGES,
  DEV_SERVICE_URL,
  DeploymentError,
  checkedUrl,
  deploymentOf,
  contentSecurityPolicy,
  contentHash,
  manifestFor,
  manifestVersion,
  linkedEdition,
  LINKED_EDITION_QUERY,
};
