// Results lists the trains of a search with their seat classes, behind
// filters (train type, departure time, seat class) and a sort.
import { useId, useMemo, useState } from 'react';
import { useT } from '../useT';
import { formatDuration, formatMoney, localTime, dayOffset } from '../flight/format';
import { emptyFilters, facets, filterTrains, sortSeats, sortTrains, stopCount, timeRanges, type Filters, type SortKey, type TimeRange } from './results';
import type { Seat, Stop, Train } from './types';
import { toChina } from './time';
import { CatalogOptions } from '../catalogParts';

type Props = {
  items: Train[];
  onChoose: (train: Train, seat: Seat) => void;
};

function toggle<T>(list: T[], x: T): T[] {
  return list.includes(x) ? list.filter((y) => y !== x) : [...list, x];
}

export function typeKey(type: string): string {
  return `trainportal.type.${!type || type === 'O' ? 'ordinary' : type}`;
}

export function Results({ items, onChoose }: Props) {
  const { t } = useT();
  const [filters, setFilters] = useState<Filters>(emptyFilters);
  const [sort, setSort] = useState<SortKey>('departure');
  const sortId = useId();
  const f = useMemo(() => facets(items), [items]);
  const shown = useMemo(() => sortTrains(filterTrains(items, filters), sort), [items, filters, sort]);

  return (
    <section className="tb-results" aria-labelledby="tb-results-title">
      <h2 id="tb-results-title">{t('trainportal.results.title')}</h2>
      <div className="tb-results-layout">
        <div className="tb-filters" role="group" aria-label={t('trainportal.filter.title')}>
          <fieldset>
            <legend>{t('trainportal.filter.type')}</legend>
            {f.types.map((ty) => (
              <label key={ty || 'ordinary'} className="tb-check">
                <input type="checkbox" checked={filters.types.includes(ty)} onChange={() => setFilters({ ...filters, types: toggle(filters.types, ty) })} />{' '}
                {t(typeKey(ty))}
              </label>
            ))}
          </fieldset>
          <fieldset>
            <legend>{t('trainportal.filter.departure')}</legend>
            {timeRanges.map((r) => (
              <label key={r} className="tb-check">
                <input type="checkbox" checked={filters.times.includes(r)} onChange={() => setFilters({ ...filters, times: toggle<TimeRange>(filters.times, r) })} />{' '}
                {t(`trainportal.filter.time.${r}`)}
              </label>
            ))}
          </fieldset>
          <fieldset>
            <legend>{t('trainportal.filter.class')}</legend>
            {f.classes.map((c) => (
              <label key={c} className="tb-check">
                <input type="checkbox" checked={filters.classes.includes(c)} onChange={() => setFilters({ ...filters, classes: toggle(filters.classes, c) })} />{' '}
                {t(`trainportal.class.${c}`)}
              </label>
            ))}
            <label className="tb-check">
              <input type="checkbox" checked={filters.availableOnly} onChange={() => setFilters({ ...filters, availableOnly: !filters.availableOnly })} />{' '}
              {t('trainportal.filter.availableOnly')}
            </label>
          </fieldset>
        </div>
        <div className="tb-list">
          <div className="tb-list-head">
            <p className="tb-count" role="status" aria-live="polite">
              {t('trainportal.results.count', { count: shown.length, total: items.length })}
            </p>
            <div className="tb-sort">
              <label htmlFor={sortId}>{t('trainportal.sort.label')}</label>{' '}
              <select id={sortId} className="fs-input" value={sort} onChange={(ev) => setSort(ev.target.value as SortKey)}>
                <CatalogOptions values={['departure', 'duration', 'price'] satisfies SortKey[]} catalog="trainportal.sort" />
              </select>
            </div>
          </div>
          {shown.length === 0 ? (
            <p className="empty-state">{items.length ? t('trainportal.results.noneFiltered') : t('portal.train.booking.empty')}</p>
          ) : (
            <ul className="tb-trains">
              {shown.map((tr) => (
                <TrainCard key={tr.id} train={tr} onChoose={onChoose} />
              ))}
            </ul>
          )}
        </div>
      </div>
    </section>
  );
}

function TrainCard({ train, onChoose }: { train: Train; onChoose: Props['onChoose'] }) {
  const { t } = useT();
  const [open, setOpen] = useState(false);
  const stopsId = useId();
  const n = stopCount(train);
  const days = dayOffset(toChina(train.departAt), toChina(train.arriveAt));
  const list: Stop[] = Array.isArray(train.stops) ? train.stops : [];
  return (
    <li className="tb-train" data-train={train.trainNumber}>
      <div className="tb-train-main">
        <div className="tb-train-id">
          <span className="tb-train-number">{train.trainNumber}</span>
          <span className="tb-train-type">{t(typeKey(train.trainType))}</span>
        </div>
        <div className="tb-train-times">
          <span className="tb-time">{localTime(toChina(train.departAt))}</span>
          <span className="tb-station">{train.originName || train.origin}</span>
        </div>
        <div className="tb-train-duration">
          <span>{formatDuration(train.durationMinutes)}</span>
          {list.length > 2 ? (
            <button type="button" className="fs-link" aria-expanded={open} aria-controls={stopsId} onClick={() => setOpen(!open)}>
              {t('trainportal.results.stops', { count: n })}
            </button>
          ) : (
            <span>{n ? t('trainportal.results.stops', { count: n }) : t('trainportal.results.nonstop')}</span>
          )}
        </div>
        <div className="tb-train-times">
          <span className="tb-time">
            {localTime(toChina(train.arriveAt))}
            {days > 0 && <sup className="tb-days">+{days}</sup>}
          </span>
          <span className="tb-station">{train.destinationName || train.destination}</span>
        </div>
      </div>
      {open && (
        <ol className="tb-stops" id={stopsId}>
          {list.map((s, i) => (
            <li key={`${s.station}-${i}`}>
              <span className="tb-stop-name">{s.name || s.station}</span> <span className="tb-stop-time">{localTime(toChina(s.arrive)) || '—'} / {localTime(toChina(s.depart)) || '—'}</span>
            </li>
          ))}
        </ol>
      )}
      <ul className="tb-seats">
        {sortSeats(train.seats || []).map((s) => {
          const soldOut = !(s.available > 0);
          const name = t(`trainportal.class.${s.class}`);
          return (
            <li key={s.class} className={soldOut ? 'tb-seat is-sold-out' : 'tb-seat'}>
              <span className="tb-seat-class">{name}</span>
              <span className="tb-seat-price">{formatMoney(s.price?.amount, s.price?.currency)}</span>
              <span className="tb-seat-left">{soldOut ? t('trainportal.results.soldOut') : t('trainportal.results.left', { count: s.available })}</span>
              <button
                type="button"
                className="btn btn-primary btn-small"
                disabled={soldOut}
                aria-label={t('trainportal.results.chooseLabel', { train: train.trainNumber, seatClass: name })}
                onClick={() => onChoose(train, s)}
              >
                {t('trainportal.results.choose')}
              </button>
            </li>
          );
        })}
      </ul>
    </li>
  );
}
