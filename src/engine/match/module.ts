/** What the engine loads of name matching when first needed (lazy.ts): one chunk of the add-in. */
export { matchEstimate, runMatch } from "./matcher";
export { matchSearches } from "./queries";
