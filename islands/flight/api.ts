// A small client of the agency API for the portal's own scripts: the
// session cookie authenticates (same origin), answers are the envelope
// {code, data, message} with message already in the page's language.

// Codes of API.md the flight islands react to.
export const codes = {
  validation: 100001,
  notFound: 100004,
  conflict: 100009,
  insufficientBalance: 300001,
  payFailed: 300002,
  noFlight: 400001,
  quoteExpired: 400002,
  searchTimeout: 400003,
} as const;

// ApiError is a non-zero envelope code, or a failure to reach the API
// (code -1, message empty: the caller shows its own text).
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown = null,
    readonly status = 0,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  // fields are the per-field messages of a validation error.
  get fields(): Record<string, string> {
    const d = this.data as { fields?: Record<string, string> } | null;
    return d && typeof d === 'object' && d.fields && typeof d.fields === 'object' ? d.fields : {};
  }
}

export const networkError = -1;

// headers are added to the request's own (an Idempotency-Key, say).
export type CallOptions = { lang: string; signal?: AbortSignal; headers?: Record<string, string> };

// call sends a JSON request and resolves with the envelope's data.
export async function call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body: unknown, { lang, signal, headers: extra }: CallOptions): Promise<T> {
  const headers: Record<string, string> = { ...extra, Accept: 'application/json', 'Accept-Language': lang };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return send<T>(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
}

// send is fetch with the session cookie that reads the envelope: a refusal
// is an ApiError with the server's code, and so is a failure to reach the
// API or a body that is no envelope (networkError), unless the caller
// aborted.
export async function send<T>(path: string, init: RequestInit): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, { ...init, credentials: 'same-origin' });
  } catch (err) {
    if (init.signal?.aborted) throw err;
    throw new ApiError(networkError, '');
  }
  let env: { code?: number; data?: unknown; message?: string } | null = null;
  try {
    env = await res.json();
  } catch {
    env = null;
  }
  if (!env || typeof env.code !== 'number') {
    throw new ApiError(networkError, '', null, res.status);
  }
  if (env.code !== 0) {
    throw new ApiError(env.code, env.message || '', env.data ?? null, res.status);
  }
  return env.data as T;
}

// errorText is what to show for err: the server's translated message, else
// the catalog's network error.
export function errorText(err: unknown, t: (key: string) => string): string {
  if (err instanceof ApiError && err.message) return err.message;
  if (err instanceof ApiError && err.status === 404) return t('axios.notFound.text');
  return t('axios.network.error');
}
