// SearchForm is the route search: trip type (one-way, return, multi-city of
// up to five flights), places, dates, travellers and cabin. It checks the
// spec §5 rules before asking the server, and shows the server's own field
// errors next to the fields too.
import { useState, type FormEvent } from 'react';
import { useT } from '../useT';
import { ApiError, codes, errorText } from './api';
import { focusFirst, JourneyDate, JourneyEnd, MultiActions, RemoveJourney, sortFieldErrors, TripChoice, useFieldErrors } from '../formParts';
import { PassengersPicker } from './PassengersPicker';
import {
  activeRows,
  addFlight,
  fieldOf,
  maxFlights,
  minMultiFlights,
  removeFlight,
  toRequest,
  validate,
  withBookingType,
  type FormState,
  type Row,
} from './form';
import { cabins, type BookingType, type Cabin, type Search } from './types';
import { CatalogOptions } from '../catalogParts';
import { FormErrors } from '../FormErrors';

export type SearchFormProps = {
  form: FormState;
  setForm: (f: FormState | ((f: FormState) => FormState)) => void;
  today: string;
  onSearch: (s: Search) => Promise<void>;
  debounceMs?: number;
};

const bookingTypes: BookingType[] = ['oneway', 'return', 'multi'];

export function SearchForm({ form, setForm, today, onSearch, debounceMs }: SearchFormProps) {
  const { t } = useT();
  const { errors, setErrors, formErrors, setFormErrors, clearError } = useFieldErrors();
  const ends = { fieldId, errors, clearError, debounceMs };
  const [busy, setBusy] = useState(false);
  const rows = activeRows(form);

  function setRow(key: number, patch: Partial<Row>) {
    setForm((f) => ({ ...f, rows: f.rows.map((r) => (r.key === key ? { ...r, ...patch } : r)) }));
  }

  async function submit(ev: FormEvent) {
    ev.preventDefault();
    const problems = validate(form, today, t);
    setErrors(problems.fields);
    setFormErrors(problems.form);
    if (problems.form.length || Object.keys(problems.fields).length) {
      focusFirst(problems.fields, fieldId);
      return;
    }
    setBusy(true);
    try {
      await onSearch({ kind: 'shopping', request: toRequest(form) });
    } catch (err) {
      if (err instanceof ApiError && err.code === codes.validation && Object.keys(err.fields).length) {
        const { fields, rest } = sortFieldErrors(err.fields, (k) => fieldOf(k, form));
        setErrors(fields);
        setFormErrors(rest.length ? rest : Object.keys(fields).length ? [] : [err.message]);
        focusFirst(fields, fieldId);
      } else {
        setFormErrors([errorText(err, t)]);
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="fs-form" noValidate onSubmit={submit} aria-label={t('flight.search.formLabel')}>
      <TripChoice
        name="bookingType"
        legend={t('flight.trip.label')}
        types={bookingTypes}
        value={form.bookingType}
        label={(bt) => t(`flight.trip.${bt}`)}
        onChange={(bt) => {
          setForm((f) => withBookingType(f, bt));
          setErrors({});
          setFormErrors([]);
        }}
      />

      <FormErrors messages={formErrors} />

      <ol className={form.bookingType === 'multi' ? 'fs-rows fs-rows-multi' : 'fs-rows'}>
        {rows.map((r, i) => (
          <li className="fs-row" key={r.key}>
            {form.bookingType === 'multi' && (
              <p className="fs-row-title" id={`fs-row-${r.key}`}>
                {t('flight.trip.flightN', { n: i + 1 })}
              </p>
            )}
            <div className="fs-row-fields">
              <JourneyEnd {...ends} i={i} end="origin" label={t('flight.field.origin')} value={r.origin} onChange={(p) => setRow(r.key, { origin: p })} />
              <button
                type="button"
                className="fs-swap"
                aria-label={t('flight.field.swap')}
                title={t('flight.field.swap')}
                onClick={() => {
                  setRow(r.key, { origin: r.destination, destination: r.origin });
                  clearError(`journeys.${i}.destination`);
                }}
              >
                ⇄
              </button>
              <JourneyEnd {...ends} i={i} end="destination" label={t('flight.field.destination')} value={r.destination} onChange={(p) => setRow(r.key, { destination: p })} />
              <JourneyDate
                required
                id={fieldId(`journeys.${i}.date`)}
                label={form.bookingType === 'return' ? t('flight.field.departDate') : t('flight.field.date')}
                value={r.date}
                min={i > 0 ? rows[i - 1].date || today : today}
                error={errors[`journeys.${i}.date`]}
                onChange={(v) => {
                  setForm((f) => {
                    const next = { ...f, rows: f.rows.map((x) => (x.key === r.key ? { ...x, date: v } : x)) };
                    if (i === 0 && f.bookingType === 'return' && v && next.returnDate < v) next.returnDate = v;
                    return next;
                  });
                  clearError(`journeys.${i}.date`);
                }}
              />
              {form.bookingType === 'return' && (
                <JourneyDate
                  required
                  id={fieldId('returnDate')}
                  label={t('flight.field.returnDate')}
                  value={form.returnDate}
                  min={r.date || today}
                  error={errors.returnDate}
                  onChange={(v) => {
                    setForm((f) => ({ ...f, returnDate: v }));
                    clearError('returnDate');
                  }}
                />
              )}
              {form.bookingType === 'multi' && rows.length > minMultiFlights && (
                <RemoveJourney
                  label={t('flight.trip.removeN', { n: i + 1 })}
                  text={t('flight.trip.remove')}
                  onRemove={() => {
                    setForm((f) => removeFlight(f, r.key));
                    setErrors({});
                  }}
                />
              )}
            </div>
          </li>
        ))}
      </ol>

      {form.bookingType === 'multi' && (
        <MultiActions
          full={rows.length >= maxFlights}
          add={t('flight.trip.add')}
          hint={t('flight.trip.maxFlights', { max: maxFlights })}
          onAdd={() => setForm((f) => addFlight(f))}
        />
      )}

      <div className="fs-form-bottom">
        <PassengersPicker
          id={fieldId('passengers')}
          value={form.passengers}
          error={errors.passengers}
          onChange={(p) => {
            setForm((f) => ({ ...f, passengers: p }));
            clearError('passengers');
          }}
        />
        <div className={errors.cabinClass ? 'fs-field field-invalid' : 'fs-field'}>
          <label htmlFor={fieldId('cabinClass')}>{t('flight.field.cabin')}</label>
          <select
            id={fieldId('cabinClass')}
            className="fs-input"
            value={form.cabin}
            aria-invalid={errors.cabinClass ? true : undefined}
            aria-describedby={errors.cabinClass ? `${fieldId('cabinClass')}-error` : undefined}
            onChange={(ev) => {
              setForm((f) => ({ ...f, cabin: ev.target.value as Cabin }));
              clearError('cabinClass');
            }}
          >
            <CatalogOptions values={cabins} catalog="flight.cabin" />
          </select>
          {errors.cabinClass && (
            <p className="field-error" id={`${fieldId('cabinClass')}-error`}>
              {errors.cabinClass}
            </p>
          )}
        </div>
        <div className="fs-submit">
          <button type="submit" className="btn btn-primary" disabled={busy} aria-busy={busy || undefined}>
            {t('flight.search.submit')}
          </button>
        </div>
      </div>
    </form>
  );
}

// fieldId is the element id of a form field named like the server names it.
export function fieldId(field: string): string {
  return 'fs-' + field.replace(/\./g, '-');
}
