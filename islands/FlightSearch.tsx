// FlightSearch is the /flight/booking island: search by route or by a pasted
// PNR, then the results as suppliers answer them (spec §2 flight search).
//
// A search session lives on the server; this island keeps which search it
// shows in sessionStorage, so coming back from the confirm page shows the
// same results, until they go stale (spec §4: 10 minutes after the search)
// or the settlement currency changes.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useT } from './useT';
import { call } from './flight/api';
import { storageKey } from './flight/cache';
import { SearchForm, fieldId } from './flight/SearchForm';
import { PnrSearch } from './flight/PnrSearch';
import { Results } from './flight/Results';
import { initialForm, newRow, type Defaults, type FormState } from './flight/form';
import { useSolutions, type Query } from './flight/useSolutions';
import { emptyFilters, withFilters, type BookingType, type PnrAnalysis, type Search, type SearchStarted, type Solution } from './flight/types';
import { FormError } from './FormErrors';
import './flight/flight.css';

export type FlightSearchProps = {
  lang?: string;
  hidePnr?: boolean;
  currency?: string;
  tomorrow: string;
  today: string;
  // sessionKey names the login session; a search kept from another one
  // (after a logout, or by another user) is dropped.
  sessionKey?: string;
  defaults?: Defaults;
  // For tests: how often to poll, how long to wait before looking up
  // airports, and where Select goes.
  pollMs?: number;
  debounceMs?: number;
  navigate?: (url: string) => void;
};

type Mode = 'route' | 'pnr';

type Session = { search: Search; searchId: string; startedAt: number; bookingType: BookingType | null };

// staleAfter is spec §4/§9: search results are stale 10 minutes after the search.
export const staleAfter = 10 * 60_000;

export { storageKey };

type Saved = {
  v: 1;
  today: string;
  currency: string;
  sessionKey: string;
  mode: Mode;
  form: FormState;
  pnrText: string;
  session: Session | null;
  query: Query;
};

function load(today: string, currency: string, sessionKey: string): Saved | null {
  try {
    const raw = window.sessionStorage.getItem(storageKey);
    if (!raw) return null;
    const s = JSON.parse(raw) as Saved;
    // Another day's form, another settlement currency's prices or another
    // login's search: start afresh (spec §4).
    if (s.v !== 1 || s.today !== today || s.currency !== currency || s.sessionKey !== sessionKey || !s.form?.rows?.length) {
      window.sessionStorage.removeItem(storageKey);
      return null;
    }
    s.form = { ...s.form, rows: s.form.rows.map((r) => newRow(r.origin, r.destination, r.date)) };
    if (s.query) s.query = { ...s.query, filters: withFilters(s.query.filters) };
    return s;
  } catch {
    return null;
  }
}

function save(s: Saved) {
  try {
    window.sessionStorage.setItem(storageKey, JSON.stringify(s));
  } catch {
    // Storage full or refused: the page works, it just forgets on reload.
  }
}

const firstQuery = (): Query => ({ filters: emptyFilters(), sort: 'default', page: 1 });

export function FlightSearch({
  hidePnr = false,
  currency = '',
  tomorrow,
  today,
  sessionKey = '',
  defaults,
  pollMs = 700,
  debounceMs = 250,
  navigate = (url) => window.location.assign(url),
}: FlightSearchProps) {
  const { t, lang } = useT();
  const [saved] = useState(() => load(today, currency, sessionKey));
  const [mode, setMode] = useState<Mode>(hidePnr ? 'route' : saved?.mode || 'route');
  const [form, setForm] = useState<FormState>(() => saved?.form || initialForm(tomorrow, defaults));
  const [pnrText, setPnrText] = useState(saved?.pnrText || '');
  const [analysis, setAnalysis] = useState<PnrAnalysis | null>(null);
  const [session, setSession] = useState<Session | null>(saved?.session || null);
  const [query, setQuery] = useState<Query>(saved?.query || firstQuery());
  const [stale, setStale] = useState(false);
  const [requerying, setRequerying] = useState(false);
  const [requeryError, setRequeryError] = useState('');
  const state = useSolutions(stale ? null : session?.searchId || null, query, lang, pollMs);
  const tabsId = useId();

  useEffect(() => {
    save({ v: 1, today, currency, sessionKey, mode, form, pnrText, session, query });
  }, [today, currency, sessionKey, mode, form, pnrText, session, query]);

  // The client-side clock of spec §4: at staleAt (as the server counts it
  // from the search) the prices may have changed.
  const data = state.status === 'loading' || state.status === 'ready' ? state.data : null;
  const staleAt = data?.staleAt;
  const searchedAt = data?.searchedAt;
  useEffect(() => {
    if (!session) return;
    let ms = session.startedAt + staleAfter - Date.now();
    if (staleAt && searchedAt) {
      const span = Date.parse(staleAt) - Date.parse(searchedAt);
      if (Number.isFinite(span)) ms = session.startedAt + span - Date.now();
    } else if (staleAt && Number.isFinite(Date.parse(staleAt))) {
      ms = Date.parse(staleAt) - Date.now();
    }
    const timer = setTimeout(() => setStale(true), Math.max(0, ms));
    return () => clearTimeout(timer);
  }, [session, staleAt, searchedAt]);

  async function run(search: Search) {
    const path = search.kind === 'shopping' ? '/shopping/v2/flight/async-shopping' : '/shopping/v2/flight/accurate-search';
    const started = await call<SearchStarted>('POST', path, search.request, { lang });
    setSession({
      search,
      searchId: started.searchId,
      startedAt: Date.now(),
      bookingType: search.kind === 'shopping' ? search.request.bookingType : null,
    });
    setQuery(firstQuery());
    setStale(false);
    setRequeryError('');
  }

  async function requery() {
    if (!session) return;
    setRequerying(true);
    try {
      await run(session.search);
    } catch (err) {
      setStale(false);
      setSession(null);
      setRequeryError(err instanceof Error && err.message ? err.message : t('axios.network.error'));
    } finally {
      setRequerying(false);
    }
  }

  function select(s: Solution) {
    navigate(`/flight/booking/confirm?solutionId=${encodeURIComponent(s.id)}`);
  }

  function modify() {
    const el = document.getElementById(mode === 'pnr' ? 'fs-pnr' : fieldId('journeys.0.origin'));
    el?.focus();
  }

  const tabs: Mode[] = hidePnr ? ['route'] : ['route', 'pnr'];
  function onTabKey(ev: KeyboardEvent<HTMLButtonElement>) {
    const i = tabs.indexOf(mode);
    let next = -1;
    if (ev.key === 'ArrowRight') next = (i + 1) % tabs.length;
    else if (ev.key === 'ArrowLeft') next = (i - 1 + tabs.length) % tabs.length;
    else if (ev.key === 'Home') next = 0;
    else if (ev.key === 'End') next = tabs.length - 1;
    if (next < 0) return;
    ev.preventDefault();
    setMode(tabs[next]);
    document.getElementById(`${tabsId}-tab-${tabs[next]}`)?.focus();
  }

  const routeForm = <SearchForm form={form} setForm={setForm} today={today} onSearch={run} debounceMs={debounceMs} />;
  return (
    <div className="flight-search">
      {hidePnr ? (
        <div className="fs-panel">{routeForm}</div>
      ) : (
        <>
          <div className="fs-tabs" role="tablist" aria-label={t('flight.search.modes')}>
            {tabs.map((m) => (
              <button
                key={m}
                type="button"
                role="tab"
                id={`${tabsId}-tab-${m}`}
                aria-selected={mode === m}
                aria-controls={`${tabsId}-panel-${m}`}
                tabIndex={mode === m ? 0 : -1}
                className={mode === m ? 'fs-tab is-selected' : 'fs-tab'}
                onClick={() => setMode(m)}
                onKeyDown={onTabKey}
              >
                {t(`flight.search.tab.${m}`)}
              </button>
            ))}
          </div>
          <div className="fs-panel" role="tabpanel" id={`${tabsId}-panel-route`} aria-labelledby={`${tabsId}-tab-route`} hidden={mode !== 'route'}>
            {routeForm}
          </div>
          <div className="fs-panel" role="tabpanel" id={`${tabsId}-panel-pnr`} aria-labelledby={`${tabsId}-tab-pnr`} hidden={mode !== 'pnr'}>
            <PnrSearch text={pnrText} setText={setPnrText} analysis={analysis} setAnalysis={setAnalysis} onSearch={run} />
          </div>
        </>
      )}
      <FormError message={requeryError} />
      <Results
        searchId={session?.searchId ?? null}
        state={state}
        query={query}
        setQuery={setQuery}
        bookingType={session?.bookingType ?? null}
        stale={stale}
        requerying={requerying}
        onRequery={requery}
        onSelect={select}
        onModify={modify}
      />
    </div>
  );
}
