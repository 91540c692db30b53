// useSolutions polls a search session's solutions until every supplier has
// answered, so results fill in as they arrive, and asks again when the
// filters, sort or page change.
import { useEffect, useRef, useState } from 'react';
import { ApiError, call, codes, networkError } from './api';
import type { Filters, SolutionsPage, Sort } from './types';

export const pageSize = 20;

export type Query = { filters: Filters; sort: Sort; page: number };

export type SolutionsState =
  | { status: 'idle' }
  | { status: 'loading'; data: SolutionsPage | null }
  | { status: 'ready'; data: SolutionsPage }
  | { status: 'empty'; message: string }
  | { status: 'stale' }
  | { status: 'error'; message: string; code: number };

// pollDelay backs off from base towards 4 seconds.
export function pollDelay(base: number, attempt: number): number {
  return Math.min(Math.round(base * Math.pow(1.4, attempt)), Math.max(base, 4000));
}

// maxNetworkRetries is how many failed polls in a row are retried before
// the error is shown.
const maxNetworkRetries = 3;

export function useSolutions(searchId: string | null, query: Query, lang: string, pollMs: number): SolutionsState {
  // The state remembers which search it answers: the effect that resets it
  // runs after the render that brings a new searchId, and that render must
  // not show the previous search's results as this one's.
  const [answer, setAnswer] = useState<{ searchId: string | null; state: SolutionsState }>({ searchId: null, state: { status: 'idle' } });
  const last = useRef<SolutionsPage | null>(null);
  const lastSearch = useRef<string | null>(null);
  const key = JSON.stringify(query);

  useEffect(() => {
    // Another search shows nothing of the one before; new filters keep the
    // list on screen until their answer comes.
    if (searchId !== lastSearch.current) {
      lastSearch.current = searchId;
      last.current = null;
    }
    if (!searchId) {
      setAnswer({ searchId: null, state: { status: 'idle' } });
      return;
    }
    const setState = (state: SolutionsState) => setAnswer({ searchId, state });
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    let failures = 0;
    const ctl = new AbortController();
    setState({ status: 'loading', data: last.current });
    // Grouped by outbound flights on the server, so a flight's other fares
    // and returns never spill onto the next page.
    const body = { searchId, filters: query.filters, sort: query.sort, groupBy: 'outbound', page: query.page, pageSize };

    const poll = async () => {
      try {
        const data = await call<SolutionsPage>('POST', '/shopping/v2/flight/async-shopping/solutions', body, { lang, signal: ctl.signal });
        if (!alive) return;
        failures = 0;
        const page: SolutionsPage = { ...data, items: Array.isArray(data?.items) ? data.items : [], total: data?.total ?? 0 };
        last.current = page;
        if (page.complete) {
          setState({ status: 'ready', data: page });
          return;
        }
        setState({ status: 'loading', data: page });
        timer = setTimeout(poll, pollDelay(pollMs, attempt++));
      } catch (err) {
        if (!alive || ctl.signal.aborted) return;
        if (err instanceof ApiError && err.code === codes.noFlight) {
          last.current = null;
          setState({ status: 'empty', message: err.message });
          return;
        }
        // An expired quote, or a session the server no longer keeps: the
        // prices may have changed, so the search must run again.
        if (err instanceof ApiError && (err.code === codes.quoteExpired || err.code === 100004)) {
          setState({ status: 'stale' });
          return;
        }
        if (err instanceof ApiError && err.code === networkError && failures < maxNetworkRetries) {
          failures++;
          timer = setTimeout(poll, pollDelay(pollMs, attempt++));
          return;
        }
        const e = err instanceof ApiError ? err : new ApiError(networkError, '');
        setState({ status: 'error', message: e.message, code: e.code });
      }
    };
    void poll();
    return () => {
      alive = false;
      if (timer) clearTimeout(timer);
      ctl.abort();
    };
    // key stands for query.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [searchId, key, lang, pollMs]);

  if (answer.searchId !== searchId) return searchId ? { status: 'loading', data: null } : { status: 'idle' };
  return answer.state;
}
