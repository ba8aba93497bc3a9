/** The typed client of the Company Data Service API v4. See docs/CONTRACTS.md. */
export { FirmaClient, MAX_BATCH_FINANCIAL, MAX_BATCH_IDENTIFICATION, DEFAULT_PAGE_SIZE } from "./client";
export type { BatchOptions, PageParams } from "./client";
export type { ClientOptions, ApiKeySource } from "./options";
export { DEFAULTS } from "./options";
export {
  ApiError,
  MissingKeyError,
  InvalidKeyError,
  PlanHistoryError,
  CreditsExhaustedError,
  NotFoundError,
  BadRequestError,
  ServerError,
  NetworkError,
  TimeoutError,
  AbortedError,
  ResponseShapeError,
} from "./errors";
export { isCredited } from "./http";
export * from "./types";
