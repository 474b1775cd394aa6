/**
 * The API client: the one door to the service. Commands build a client with createClient, call
 * request(), and find the paths the spec leaves open with discoverService.
 */
export {buildUserAgent, createClient, userAgent} from './client.js'
export type {ApiClient, ApiResponse, ClientOptions, Query, QueryValue, RequestOptions} from './client.js'
export {
  DEFAULT_RETRY,
  backoffDelayMs,
  isRetryableFailure,
  parseRetryAfter,
  retryDecision,
  retryDelayMs,
  withRetries,
} from './retry.js'
export type {OperationName, RetryClass, RetryDecision, RetryOptions, RetryTarget} from './retry.js'
export {Pacer} from './pacer.js'
export type {HeaderBag, PacerOptions} from './pacer.js'
export {createRedactor} from './trace.js'
export type {TraceSink} from './trace.js'
export {cleanExcerpt, errorFromResponse, reasonPhrase} from './response-errors.js'
export {
  DEFAULT_DISCOVERY_TTL_MS,
  FALLBACK_FIELDS, FALLBACK_LISTS,
  FALLBACK_OPERATIONS,
  cacheFileFor,
  clearDiscoveryMemory,
  describeFromOpenApi,
  discoverService,
  extractList,
  fillPath,
  loadOpenApiDocument,
} from './discovery.js'
export type {
  DiscoveryOptions,
  ExtractedList,
  ListName,
  ListShape,
  OpenApiDocument,
  Operation,
  ServiceDescription,
} from './discovery.js'
export {listPages} from './paging.js'
export type {Page, PageRequest} from './paging.js'
