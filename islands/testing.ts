// What the islands' tests share: the two catalogs they render in, and a
// fake of the agency API that records each request and answers envelopes.
import { vi } from 'vitest';
import type { i18n } from 'i18next';
import { initI18n } from './i18n';

// bothLanguages loads the English and Simplified Chinese catalogs.
export async function bothLanguages(): Promise<{ en: i18n; cn: i18n }> {
  return { en: await initI18n('en'), cn: await initI18n('zh-cn') };
}

// Env is an answer: the envelope, and the HTTP status when it is not the
// one fakeApi's status rule gives.
export type Env = { code: number; data?: unknown; message?: string; status?: number };

// Call is a request as the API got it: body is the parsed JSON, or what was
// sent when it was not a string (a multipart image).
export type Call = { method: string; url: string; path: string; body: any; headers: Record<string, string>; lang: string | null };

export type Route = (body: any, url: string) => Env;

const byCode = (env: Env) => (env.code === 0 ? 200 : 400);

// fakeApi stands in for fetch until the test ends (test-setup.ts restores
// it): every request is recorded in the calls it returns and answered by
// answer; the status is the envelope's own, else status of it.
export function fakeApi(answer: (c: Call) => Env, status: (env: Env) => number = byCode): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const headers = (init?.headers || {}) as Record<string, string>;
      const body = typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body;
      const c: Call = { method: init?.method || 'GET', url, path: url.split('?')[0], body, headers, lang: headers['Accept-Language'] ?? null };
      calls.push(c);
      const { status: own, ...env } = answer(c);
      return { status: own ?? status(env), json: async () => env } as Response;
    }),
  );
  return calls;
}

// routes answers each request from its "METHOD path" entry, else its path
// entry: a handler, an envelope, or a list of envelopes given in turn (the
// last one repeats); a path with neither is notFound.
export function routes(table: Record<string, Route | Env | Env[]>, notFound: Env = { code: 100004, message: 'Not Found' }): (c: Call) => Env {
  const seen: Record<string, number> = {};
  return (c) => {
    const key = table[`${c.method} ${c.path}`] ? `${c.method} ${c.path}` : c.path;
    const r = table[key];
    if (!r) return notFound;
    if (typeof r === 'function') return r(c.body, c.url);
    if (!Array.isArray(r)) return r;
    const i = seen[key] ?? 0;
    seen[key] = i + 1;
    return r[Math.min(i, r.length - 1)];
  };
}
