// Results is the answer of a search: progress while suppliers answer, the
// filters with their counts, the sort, the solutions page by page, the
// empty state and the prompt that prices may have changed.
import { useEffect, useId, useRef, useState } from 'react';
import { useT } from '../useT';
import { SolutionCard } from './SolutionCard';
import { tOr } from './PriceDetail';
import { pageSize, type Query, type SolutionsState } from './useSolutions';
import { emptyFilters, facetNames, type BookingType, type FacetName, type FacetValue, type Filters, type Solution, type SolutionsPage, type Sort } from './types';

export type ResultsProps = {
  searchId: string | null;
  state: SolutionsState;
  query: Query;
  setQuery: (q: Query) => void;
  bookingType: BookingType | null;
  stale: boolean;
  requerying: boolean;
  onRequery: () => void;
  onSelect: (s: Solution) => void;
  onModify: () => void;
};

const sorts: Sort[] = ['default', 'price', 'time'];

export function Results({ searchId, state, query, setQuery, bookingType, stale, requerying, onRequery, onSelect, onModify }: ResultsProps) {
  const { t } = useT();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const staleRef = useRef<HTMLDivElement>(null);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const filtersId = useId();

  useEffect(() => {
    if (stale) staleRef.current?.focus();
  }, [stale]);

  if (stale || state.status === 'stale') {
    return (
      <section className="fs-results" aria-labelledby="fs-results-title" data-search-id={searchId || undefined}>
        <h2 id="fs-results-title" className="visually-hidden">
          {t('flight.results.title')}
        </h2>
        <div className="fs-stale" role="alert" tabIndex={-1} ref={staleRef}>
          <p className="fs-stale-title">{t('flight.stale.title')}</p>
          <p>{t('flight.stale.body')}</p>
          <button type="button" className="btn btn-primary" onClick={onRequery} disabled={requerying} aria-busy={requerying || undefined}>
            {t('flight.stale.requery')}
          </button>
        </div>
      </section>
    );
  }

  if (state.status === 'idle') return null;

  if (state.status === 'empty') {
    return (
      <section className="fs-results" aria-labelledby="fs-results-title" data-search-id={searchId || undefined}>
        <h2 id="fs-results-title" className="visually-hidden">
          {t('flight.results.title')}
        </h2>
        <div className="empty-state fs-empty" role="status">
          <p>{state.message || t('flight.empty')}</p>
          <button type="button" className="btn" onClick={onModify}>
            {t('flight.empty.modify')}
          </button>
        </div>
      </section>
    );
  }

  if (state.status === 'error') {
    return (
      <section className="fs-results" aria-labelledby="fs-results-title" data-search-id={searchId || undefined}>
        <h2 id="fs-results-title" className="visually-hidden">
          {t('flight.results.title')}
        </h2>
        <div className="form-errors" role="alert">
          <p>{state.message || t('axios.network.error')}</p>
        </div>
        <button type="button" className="btn" onClick={onRequery}>
          {t('flight.results.retry')}
        </button>
      </section>
    );
  }

  const data: SolutionsPage | null = state.data;
  const complete = state.status === 'ready';
  const items = data?.items || [];
  const total = data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / (data?.pageSize || pageSize)));
  const filtered = facetNames.some((f) => query.filters[f].length > 0);
  const selectedCount = facetNames.reduce((n, f) => n + query.filters[f].length, 0);

  const goPage = (page: number) => {
    setQuery({ ...query, page });
    headingRef.current?.focus();
  };

  return (
    <section className="fs-results" aria-labelledby="fs-results-title" aria-busy={!complete} data-search-id={searchId || undefined}>
      <div className="fs-results-head">
        <h2 id="fs-results-title" tabIndex={-1} ref={headingRef}>
          {t('flight.results.title')}
        </h2>
        <Progress data={data} complete={complete} />
      </div>
      <div className="fs-results-body">
        <aside className="fs-filters" aria-labelledby={`${filtersId}-title`}>
          <div className="fs-filters-head">
            <h3 id={`${filtersId}-title`}>{t('flight.filters.title')}</h3>
            <button type="button" className="btn btn-small fs-filters-toggle" aria-expanded={filtersOpen} aria-controls={filtersId} onClick={() => setFiltersOpen((o) => !o)}>
              {filtersOpen ? t('flight.filters.hide') : t('flight.filters.show', { count: selectedCount })}
            </button>
          </div>
          <div id={filtersId} className={filtersOpen ? 'fs-filters-panel is-open' : 'fs-filters-panel'}>
            {facetNames.map((name) => (
              <FacetGroup
                key={name}
                name={name}
                values={data?.facets?.[name] || []}
                selected={query.filters[name]}
                onChange={(sel) => setQuery({ ...query, page: 1, filters: { ...query.filters, [name]: sel } })}
              />
            ))}
            {filtered && (
              <button type="button" className="btn btn-small" onClick={() => setQuery({ ...query, page: 1, filters: emptyFilters() })}>
                {t('flight.filters.clear')}
              </button>
            )}
          </div>
        </aside>
        <div className="fs-list">
          <div className="fs-toolbar">
            <p className="fs-count" aria-live="polite">
              {complete ? t('flight.results.count', { count: total }) : t('flight.results.countSoFar', { count: total })}
            </p>
            <div className="fs-sort">
              <label htmlFor="fs-sort">{t('flight.sort.label')}</label>
              <select id="fs-sort" className="fs-input" value={query.sort} onChange={(ev) => setQuery({ ...query, page: 1, sort: ev.target.value as Sort })}>
                {sorts.map((s) => (
                  <option key={s} value={s}>
                    {t(`flight.sort.${s}`)}
                  </option>
                ))}
              </select>
            </div>
          </div>
          {items.length === 0 && complete && filtered && (
            <div className="empty-state" role="status">
              <p>{t('flight.filters.none')}</p>
              <button type="button" className="btn btn-small" onClick={() => setQuery({ ...query, page: 1, filters: emptyFilters() })}>
                {t('flight.filters.clear')}
              </button>
            </div>
          )}
          {items.length === 0 && complete && !filtered && (
            <div className="empty-state" role="status">
              <p>{t('flight.empty')}</p>
            </div>
          )}
          {items.length === 0 && !complete && <p className="fs-waiting">{t('flight.results.waiting')}</p>}
          <ol className="fs-solutions">
            {items.map((s) => (
              <li key={s.id}>
                <SolutionCard solution={s} bookingType={bookingType} onSelect={onSelect} />
              </li>
            ))}
          </ol>
          {pages > 1 && (
            <nav className="pager fs-pager" aria-label={t('pager.label')}>
              <button type="button" className="btn btn-small" disabled={query.page <= 1} onClick={() => goPage(query.page - 1)}>
                {t('pager.prev')}
              </button>
              <span>{t('pager.status', { page: query.page, pages })}</span>
              <button type="button" className="btn btn-small" disabled={query.page >= pages} onClick={() => goPage(query.page + 1)}>
                {t('pager.next')}
              </button>
            </nav>
          )}
        </div>
      </div>
    </section>
  );
}

function Progress({ data, complete }: { data: SolutionsPage | null; complete: boolean }) {
  const { t } = useT();
  const suppliers = data?.suppliers || [];
  const answered = suppliers.filter((s) => s.status !== 'pending').length;
  // A search that lost answers never reads as plain complete.
  const lost = data?.partial ? (data.lostSuppliers || []).join(', ') : '';
  return (
    <div className="fs-progress">
      <p role="status" aria-live="polite" className={lost ? 'fs-progress-text is-partial' : 'fs-progress-text'}>
        {complete
          ? lost
            ? t('flight.progress.doneLost', { count: data?.total ?? 0, suppliers: lost })
            : t('flight.progress.done', { count: data?.total ?? 0 })
          : suppliers.length
            ? lost
              ? t('flight.progress.searchingLost', { done: answered, total: suppliers.length, suppliers: lost })
              : t('flight.progress.searching', { done: answered, total: suppliers.length })
            : t('flight.progress.started')}
      </p>
      {!complete && (
        <progress
          className="fs-progress-bar"
          aria-label={t('flight.progress.label')}
          max={suppliers.length || undefined}
          value={suppliers.length ? answered : undefined}
        />
      )}
      {suppliers.length > 0 && (
        <ul className="fs-suppliers" aria-label={t('flight.progress.suppliers')}>
          {suppliers.map((s) => (
            <li key={s.name} className={`fs-supplier fs-supplier-${s.status}`}>
              <span className="fs-supplier-name">{tOr(t, `flight.supplierName.${s.name}`, s.name)}</span> <span className="fs-supplier-status">{tOr(t, `flight.supplier.${s.status}`, s.status)}</span>
              {s.status === 'done' && typeof s.count === 'number' ? <span className="fs-supplier-count"> ({s.count})</span> : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

type FacetGroupProps = { name: FacetName; values: FacetValue[]; selected: string[]; onChange: (sel: string[]) => void };

// facetFold is how many values a long group shows until it is unfolded.
const facetFold = 8;

function FacetGroup({ name, values, selected, onChange }: FacetGroupProps) {
  const { t } = useT();
  const [all, setAll] = useState(false);
  // A chosen value the current answer no longer counts stays, so it can be
  // unchosen.
  const every = [...values];
  for (const v of selected) if (!every.some((x) => x.value === v)) every.push({ value: v, count: 0 });
  if (every.length === 0) return null;
  const folds = every.length > facetFold + 2;
  const shown = folds && !all ? every.filter((v, i) => i < facetFold || selected.includes(v.value)) : every;
  const toggle = (v: string, on: boolean) => onChange(on ? [...selected, v] : selected.filter((x) => x !== v));
  return (
    <fieldset className="fs-facet">
      <legend>{t(`flight.filters.${name}`)}</legend>
      {shown.map((v) => {
        const label = facetLabel(t, name, v);
        return (
          <label key={v.value} className="fs-check">
            <input type="checkbox" value={v.value} checked={selected.includes(v.value)} onChange={(ev) => toggle(v.value, ev.target.checked)} />
            <span className="fs-check-label">{label}</span>
            <span className="fs-check-count">{v.count}</span>
          </label>
        );
      })}
      {folds && (
        <button type="button" className="fs-link fs-facet-more" aria-expanded={all} onClick={() => setAll((a) => !a)}>
          {all ? t('flight.filters.fewer') : t('flight.filters.all', { count: every.length })}
        </button>
      )}
    </fieldset>
  );
}

// facetLabel is the server's label of a facet value, else the catalog's.
export function facetLabel(t: (k: string, o?: Record<string, unknown>) => string, name: FacetName, v: FacetValue): string {
  if (v.label) return v.label;
  switch (name) {
    case 'departureBuckets':
    case 'arrivalBuckets':
      return tOr(t, `flight.bucket.${v.value}`, v.value);
    case 'ticketingSpeed':
      return tOr(t, `flight.speed.${v.value}`, v.value);
    case 'stops':
      return v.value === '0' ? t('flight.stops.nonstop') : tOr(t, `flight.stops.filter.${v.value}`, v.value);
    default:
      return v.value;
  }
}

export type { Filters };
