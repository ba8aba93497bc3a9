/** Paths the add-in tests share, resolved from the repository root (not from the working directory). */
import * as path from "path";

export const ROOT = path.resolve(__dirname, "..", "..");
export const MANIFEST = path.join(ROOT, "manifest.xml");
export const ASSETS = path.join(ROOT, "assets");

/** The shared folder beside the repository: schemas that are not ours to commit. */
export const SHARED = path.resolve(ROOT, "..", "shared");
export const MANIFEST_XSD = path.join(SHARED, "schemas", "office-addin-manifest", "OfficeAppManifestV1_1.xsd");
export const FUNCTIONS_SCHEMA = path.join(SHARED, "schemas", "custom-functions", "custom-functions.schema.json");
