/**
 * Build-time constants that webpack's DefinePlugin replaces (see webpack.config.js).
 * Outside webpack (Jest, tsx) they are not defined: read them behind a `typeof` check.
 */

/** The service's base URL for a fresh install: http://127.0.0.1:3001 (the sandbox) in development builds, the production service address in production builds. */
declare const FIRMA_DEFAULT_BASE_URL: string;

/** Where a person gets an API key (FIRMA_KEY_URL at build time), or "" for the add-in's own help page (src/taskpane/key-page.ts). */
declare const FIRMA_KEY_URL: string;
