// Results is the answer of a search: progress while suppliers answer, the
// filters with their counts, the sort, the solutions page by page, the
// empty state and the prompt that prices may have changed.
import { useEffect, useId, useRef, useState } from 'react';
import { useT } from '../useT';
import { SolutionCard } from './SolutionCard';
import { tOr } from './PriceDetail';
import { pageSize, type Query, type SolutionsState } from './useSolutions';
import { groupSolutions, type SolutionGroup } from './group';
import { emptyFilters, facetNames, filterCount, type BookingType, type FacetName, type FacetValue, type Filters, type Ranges, type Solution, type SolutionsPage, type Sort } from './types';
import { CatalogOptions } from '../catalogParts';
import { FormError } from '../FormErrors';

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
        <FormError message={state.message || t('axios.network.error')} />
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
  const pages = Math.max(1, Math.ceil((data?.groups ?? total) / (data?.pageSize || pageSize)));
  const selectedCount = filterCount(query.filters);
  const filtered = selectedCount > 0;
  const groups = groupSolutions(items);

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
        <Progress data={data} complete={complete} requerying={requerying} onRequery={onRequery} />
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
            <RangeForm
              filters={query.filters}
              ranges={data?.ranges}
              currency={data?.currency || ''}
              onChange={(f) => setQuery({ ...query, page: 1, filters: { ...query.filters, ...f } })}
            />
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
                <CatalogOptions values={sorts} catalog="flight.sort" />
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
            {groups.map((g) => (
              <li key={g.key} className="fs-group" data-fares={g.items.length}>
                <SolutionCard solution={g.items[0]} bookingType={bookingType} onSelect={onSelect} />
                {g.items.length > 1 && <MoreFares group={g} bookingType={bookingType} onSelect={onSelect} />}
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

// MoreFares folds a group's other solutions (other returns, other fares of
// the same outbound) under its first card.
function MoreFares({ group, bookingType, onSelect }: { group: SolutionGroup; bookingType: BookingType | null; onSelect: (s: Solution) => void }) {
  const { t } = useT();
  const [open, setOpen] = useState(false);
  const id = useId();
  const rest = group.items.slice(1);
  const oneJourney = (group.items[0].journeys?.length || 1) === 1;
  const label = oneJourney ? 'results.group.moreFares' : 'results.group.moreReturns';
  return (
    <div className="fs-more">
      <button type="button" className="fs-link fs-more-toggle" aria-expanded={open} aria-controls={id} onClick={() => setOpen((o) => !o)}>
        {open ? t('results.group.hide') : t(label, { count: rest.length })}
      </button>
      <ul id={id} className="fs-more-list" hidden={!open}>
        {open &&
          rest.map((s) => (
            <li key={s.id}>
              <SolutionCard solution={s} bookingType={bookingType} onSelect={onSelect} skip={1} />
            </li>
          ))}
      </ul>
    </div>
  );
}

type RangeDraft = { priceMin: string; priceMax: string; maxDuration: string; departFrom: string; departTo: string; arriveFrom: string; arriveTo: string };

const priceRe = /^\d+(\.\d{1,2})?$/;

// checkRanges reads the range form: the filters to ask for, or the errors
// to show beside the fields.
export function checkRanges(d: RangeDraft): { filters?: Partial<Filters>; errors: Partial<Record<keyof RangeDraft, string>> } {
  const errors: Partial<Record<keyof RangeDraft, string>> = {};
  const min = d.priceMin.trim().replace(/,/g, '');
  const max = d.priceMax.trim().replace(/,/g, '');
  if (min && !priceRe.test(min)) errors.priceMin = 'results.error.price';
  if (max && !priceRe.test(max)) errors.priceMax = 'results.error.price';
  if (min && max && !errors.priceMin && !errors.priceMax && Number(max) < Number(min)) errors.priceMax = 'results.error.priceOrder';
  if (Object.keys(errors).length) return { errors };
  return {
    errors,
    filters: {
      priceMin: min || undefined,
      priceMax: max || undefined,
      maxDuration: d.maxDuration ? Number(d.maxDuration) : undefined,
      departFrom: d.departFrom || undefined,
      departTo: d.departTo || undefined,
      arriveFrom: d.arriveFrom || undefined,
      arriveTo: d.arriveTo || undefined,
    },
  };
}

function draftOf(f: Filters): RangeDraft {
  return {
    priceMin: f.priceMin || '',
    priceMax: f.priceMax || '',
    maxDuration: f.maxDuration ? String(f.maxDuration) : '',
    departFrom: f.departFrom || '',
    departTo: f.departTo || '',
    arriveFrom: f.arriveFrom || '',
    arriveTo: f.arriveTo || '',
  };
}

// RangeForm sets the price, duration and time-window filters; they apply
// together with Apply (or Enter), so typing a price does not search on
// every key.
function RangeForm({ filters, ranges, currency, onChange }: { filters: Filters; ranges?: Ranges; currency: string; onChange: (f: Partial<Filters>) => void }) {
  const { t } = useT();
  const id = useId();
  const key = JSON.stringify(draftOf(filters));
  const [draft, setDraft] = useState<RangeDraft>(() => draftOf(filters));
  const [errors, setErrors] = useState<Partial<Record<keyof RangeDraft, string>>>({});
  // Filters cleared or changed elsewhere show here.
  useEffect(() => {
    setDraft(draftOf(filters));
    setErrors({});
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  const set = (k: keyof RangeDraft) => (ev: { target: { value: string } }) => setDraft((d) => ({ ...d, [k]: ev.target.value }));
  const hours: number[] = [];
  if (ranges?.durationMax) {
    const lo = Math.max(1, Math.ceil((ranges.durationMin || 60) / 60));
    const hi = Math.ceil(ranges.durationMax / 60);
    for (let h = lo; h <= hi; h++) hours.push(h);
  }
  const chosen = Number(draft.maxDuration) / 60;
  if (chosen && !hours.includes(chosen)) hours.push(chosen);
  hours.sort((a, b) => a - b);
  const field = (k: keyof RangeDraft, label: string, type: string, placeholder?: string) => (
    <div className="fs-range-field">
      <label htmlFor={`${id}-${k}`}>{label}</label>
      <input
        id={`${id}-${k}`}
        className="fs-input"
        type={type}
        inputMode={type === 'text' ? 'decimal' : undefined}
        value={draft[k]}
        placeholder={placeholder}
        onChange={set(k)}
        aria-invalid={errors[k] ? true : undefined}
        aria-describedby={errors[k] ? `${id}-${k}-error` : undefined}
      />
      {errors[k] && (
        <span className="field-error" id={`${id}-${k}-error`}>
          {t(errors[k] as string)}
        </span>
      )}
    </div>
  );
  return (
    <form
      className="fs-ranges"
      noValidate
      onSubmit={(ev) => {
        ev.preventDefault();
        const r = checkRanges(draft);
        setErrors(r.errors);
        if (r.filters) onChange(r.filters);
      }}
    >
      <fieldset className="fs-facet">
        <legend>{currency ? t('results.filters.priceIn', { currency }) : t('results.filters.price')}</legend>
        <div className="fs-range-pair">
          {field('priceMin', t('results.filters.min'), 'text', ranges?.priceMin)}
          {field('priceMax', t('results.filters.max'), 'text', ranges?.priceMax)}
        </div>
      </fieldset>
      <div className="fs-range-field">
        <label htmlFor={`${id}-maxDuration`} className="fs-range-legend">
          {t('results.filters.duration')}
        </label>
        <select id={`${id}-maxDuration`} className="fs-input" value={draft.maxDuration} onChange={set('maxDuration')}>
          <option value="">{t('results.filters.anyDuration')}</option>
          {hours.map((h) => (
            <option key={h} value={String(h * 60)}>
              {t('results.filters.upTo', { count: h })}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="fs-facet">
        <legend>{t('results.filters.departTime')}</legend>
        <div className="fs-range-pair">
          {field('departFrom', t('results.filters.from'), 'time')}
          {field('departTo', t('results.filters.to'), 'time')}
        </div>
      </fieldset>
      <fieldset className="fs-facet">
        <legend>{t('results.filters.arriveTime')}</legend>
        <div className="fs-range-pair">
          {field('arriveFrom', t('results.filters.from'), 'time')}
          {field('arriveTo', t('results.filters.to'), 'time')}
        </div>
      </fieldset>
      <button type="submit" className="btn btn-small fs-ranges-apply">
        {t('results.filters.apply')}
      </button>
    </form>
  );
}

// unanswered are the statuses of a supplier that gave no flights: it
// failed or timed out (its answer lost is the search's partial answer).
const unanswered = ['failed', 'timeout'];

type ProgressProps = { data: SolutionsPage | null; complete: boolean; requerying: boolean; onRequery: () => void };

function Progress({ data, complete, requerying, onRequery }: ProgressProps) {
  const { t } = useT();
  const suppliers = data?.suppliers || [];
  const answered = suppliers.filter((s) => s.status !== 'pending').length;
  const name = (s: string) => tOr(t, `flight.supplierName.${s}`, s);
  // A search that lost answers, or whose supplier failed, never reads as
  // plain complete: it names them and offers to search again.
  const lost = data?.partial ? (data.lostSuppliers || []).map(name).join(', ') : '';
  const failed = suppliers.filter((s) => unanswered.includes(s.status)).map((s) => name(s.name)).join(', ');
  const gaps = complete && (lost !== '' || failed !== '');
  return (
    <div className="fs-progress">
      <p role="status" aria-live="polite" className={lost || (complete && failed) ? 'fs-progress-text is-partial' : 'fs-progress-text'}>
        {complete
          ? lost
            ? t('flight.progress.doneLost', { count: data?.total ?? 0, suppliers: lost })
            : failed
              ? t('flight.progress.doneFailed', { count: data?.total ?? 0, suppliers: failed })
              : t('flight.progress.done', { count: data?.total ?? 0 })
          : suppliers.length
            ? lost
              ? t('flight.progress.searchingLost', { done: answered, total: suppliers.length, suppliers: lost })
              : t('flight.progress.searching', { done: answered, total: suppliers.length })
            : t('flight.progress.started')}
      </p>
      {gaps && (
        <button type="button" className="btn btn-small fs-progress-retry" onClick={onRequery} disabled={requerying} aria-busy={requerying || undefined}>
          {t('flight.progress.retry')}
        </button>
      )}
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
      <legend>{name === 'layovers' ? t('results.filters.layovers') : t(`flight.filters.${name}`)}</legend>
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
// Stops, time buckets and ticketing speeds are codes the catalog words
// ("Nonstop", "1 stop", "2+ stops"); airlines and airports carry the
// server's names.
export function facetLabel(t: (k: string, o?: Record<string, unknown>) => string, name: FacetName, v: FacetValue): string {
  switch (name) {
    case 'departureBuckets':
    case 'arrivalBuckets':
      return tOr(t, `flight.bucket.${v.value}`, v.label || v.value);
    case 'ticketingSpeed':
      return tOr(t, `flight.speed.${v.value}`, v.label || v.value);
    case 'stops':
      if (v.value === '0') return t('flight.stops.nonstop');
      if (v.value === '1') return t('flight.stops.count', { count: 1 });
      return /^\d+$/.test(v.value) ? t('results.stops.atLeast', { count: Number(v.value) }) : v.label || v.value;
    default:
      return v.label || v.value;
  }
}

export type { Filters };
