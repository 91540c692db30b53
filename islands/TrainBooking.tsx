// TrainBooking is the /train/booking island: a search between two stations
// on an on-sale date, the trains with their seat classes behind filters and
// a sort, then the booking of the chosen class, its payment and its tickets.
import { useId, useState, type FormEvent } from 'react';
import { useT } from './useT';
import { call, errorText, ApiError } from './flight/api';
import { weekday } from './flight/format';
import { StationPicker } from './train/StationPicker';
import { Results } from './train/Results';
import { Booking } from './train/Booking';
import { salesDates } from './train/results';
import type { SearchResult, Seat, Station, Train } from './train/types';
import { FormError } from './FormErrors';
import './flight/flight.css';
import './confirm/confirm.css';
import './train/train.css';

export type TrainBookingProps = {
  lang?: string;
  // today is the first on-sale date (China Standard Time), YYYY-MM-DD.
  today: string;
  // saleDays: how many dates are on sale, today included (China Railway: 15).
  saleDays?: number;
  // maxPassengers a booking holds.
  maxPassengers?: number;
  // For tests.
  debounceMs?: number;
  pollMs?: number;
};

type Search = { origin: Station | null; destination: Station | null; date: string; adult: number; child: number };

export function TrainBooking({ today, saleDays = 15, maxPassengers = 5, debounceMs, pollMs }: TrainBookingProps) {
  const { t, lang } = useT();
  const dates = salesDates(today, saleDays);
  const [form, setForm] = useState<Search>({ origin: null, destination: null, date: dates[0], adult: 1, child: 0 });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [searchError, setSearchError] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ items: Train[]; adult: number; child: number } | null>(null);
  const [chosen, setChosen] = useState<{ train: Train; seat: Seat } | null>(null);
  const dateId = useId();
  const adultId = useId();
  const childId = useId();

  async function search(ev: FormEvent) {
    ev.preventDefault();
    const e: Record<string, string> = {};
    if (!form.origin) e.origin = t('trainportal.error.station');
    if (!form.destination) e.destination = t('trainportal.error.station');
    if (form.origin && form.destination && form.origin.code === form.destination.code) e.destination = t('trainportal.error.sameStation');
    if (!dates.includes(form.date)) e.date = t('trainportal.error.date');
    if (form.adult + form.child < 1 || form.adult + form.child > maxPassengers) e.passengers = t('trainportal.error.passengers', { max: maxPassengers });
    if (form.child > 0 && form.adult < 1) e.passengers = t('trainportal.error.childAlone');
    setErrors(e);
    setSearchError('');
    if (Object.keys(e).length) return;
    setBusy(true);
    setChosen(null);
    try {
      const data = await call<SearchResult>(
        'POST',
        '/shopping/v2/train/search',
        { origin: form.origin!.code, destination: form.destination!.code, date: form.date, passengers: { adult: form.adult, child: form.child } },
        { lang },
      );
      setResult({ items: data?.items || [], adult: form.adult, child: form.child });
    } catch (err) {
      setResult(null);
      if (err instanceof ApiError && Object.keys(err.fields).length) {
        setErrors(err.fields);
        setSearchError(err.message);
      } else setSearchError(errorText(err, t));
    } finally {
      setBusy(false);
    }
  }

  function swap() {
    setForm({ ...form, origin: form.destination, destination: form.origin });
  }

  // passengerCounts are the choices of each passenger count: none up to
  // maxPassengers.
  const passengerCounts = Array.from({ length: maxPassengers + 1 }, (_, i) => i);

  return (
    <div className="flight-search train-booking">
      <form className="fs-form tb-search" onSubmit={search} noValidate aria-label={t('trainportal.search.title')}>
        <div className="fs-row-fields">
          <StationPicker id="tb-origin" label={t('trainportal.search.origin')} value={form.origin} onChange={(s) => setForm((f) => ({ ...f, origin: s }))} error={errors.origin} debounceMs={debounceMs} />
          <button type="button" className="fs-swap" onClick={swap} aria-label={t('trainportal.search.swap')} title={t('trainportal.search.swap')}>
            ⇄
          </button>
          <StationPicker
            id="tb-destination"
            label={t('trainportal.search.destination')}
            value={form.destination}
            onChange={(s) => setForm((f) => ({ ...f, destination: s }))}
            error={errors.destination}
            debounceMs={debounceMs}
          />
          <div className={errors.date ? 'fs-field fs-date field-invalid' : 'fs-field fs-date'}>
            <label htmlFor={dateId}>{t('trainportal.search.date')}</label>
            <select
              id={dateId}
              className="fs-input"
              value={form.date}
              aria-invalid={errors.date ? true : undefined}
              aria-describedby={`${dateId}-hint${errors.date ? ` ${dateId}-error` : ''}`}
              onChange={(ev) => setForm({ ...form, date: ev.target.value })}
            >
              {dates.map((d) => (
                <option key={d} value={d}>
                  {d} {weekday(d, lang)}
                </option>
              ))}
            </select>
            <p className="fs-hint" id={`${dateId}-hint`}>
              {t('trainportal.search.dateHint', { days: saleDays })}
            </p>
            {errors.date && (
              <p className="field-error" id={`${dateId}-error`}>
                {errors.date}
              </p>
            )}
          </div>
        </div>
        <div className="fs-form-bottom">
          {(
            [
              ['adult', adultId],
              ['child', childId],
            ] as const
          ).map(([kind, id]) => (
            <div className="fs-field tb-count-field" key={kind}>
              <label htmlFor={id}>{t(`trainportal.search.${kind}`)}</label>
              <select id={id} className="fs-input" value={form[kind]} aria-invalid={errors.passengers ? true : undefined} onChange={(ev) => setForm({ ...form, [kind]: Number(ev.target.value) })}>
                {passengerCounts.map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            </div>
          ))}
          <div className="fs-submit">
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {busy ? t('trainportal.search.searching') : t('trainportal.search.submit')}
            </button>
          </div>
        </div>
        {errors.passengers && <p className="field-error">{errors.passengers}</p>}
      </form>
      <FormError message={searchError} />
      {chosen && result ? (
        <Booking train={chosen.train} seat={chosen.seat} adult={result.adult} child={result.child} today={today} onBack={() => setChosen(null)} pollMs={pollMs} />
      ) : (
        result && <Results items={result.items} onChoose={(train, seat) => setChosen({ train, seat })} />
      )}
    </div>
  );
}
