// GroupRequest is the group flight request (/flight/group/booking): journeys
// (one-way, return or multi-city), flexibility, passenger counts, cabin,
// contact and remark. It checks what it can, posts the request with an
// Idempotency-Key (kept until the server answers, so a retry after a lost
// answer files one request), shows the server's field errors beside the
// fields and then goes to the confirmation page.
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useT } from './useT';
import { ApiError, call, codes, errorText, networkError } from './flight/api';
import { focusFirst, JourneyDate, JourneyEnd, MultiActions, RemoveJourney, sortFieldErrors, TripChoice, useFieldErrors } from './formParts';
import { cabins, type Passengers } from './flight/types';
import { newIdempotencyKey } from './FlightConfirm';
import {
  addJourney,
  fieldFor,
  initialForm,
  isCabin,
  maxJourneys,
  minMultiJourneys,
  removeJourney,
  toRequest,
  tripTypes,
  validate,
  withTrip,
  type Contact,
  type Journey,
  type RequestForm,
} from './group/request';
import { CatalogOptions } from './catalogParts';
import { FormErrors } from './FormErrors';
import './flight/flight.css';
import './group/group.css';

export const groupOrdersPath = '/order/v2/flight/group/orders';

export type GroupRequestProps = {
  today: string; // YYYY-MM-DD, the earliest date
  minSeats?: number; // the smallest group (seats: adults and children)
  contact?: Partial<Contact>;
  confirmPath: string; // the confirmation page; ?id= is added
  navigate?: (url: string) => void;
  debounceMs?: number;
};

type Created = { id: number; bookingNumber?: string; status?: string };

export function GroupRequest({ today, minSeats = 10, contact, confirmPath, navigate = (u) => window.location.assign(u), debounceMs }: GroupRequestProps) {
  const { t, lang } = useT();
  const [form, setForm] = useState<RequestForm>(() => initialForm(today, contact));
  const { errors, setErrors, formErrors, setFormErrors, clearError } = useFieldErrors();
  const ends = { fieldId, errors, clearError, debounceMs };
  const [busy, setBusy] = useState(false);
  const key = useRef<string | null>(null);

  function setJourney(k: number, patch: Partial<Journey>) {
    setForm((f) => ({ ...f, journeys: f.journeys.map((j) => (j.key === k ? { ...j, ...patch } : j)) }));
  }

  async function submit(ev: FormEvent) {
    ev.preventDefault();
    const found = validate(form, today, minSeats, t);
    setErrors(found);
    setFormErrors([]);
    if (Object.keys(found).length) {
      focusFirst(found, fieldId);
      return;
    }
    setFormErrors([]);
    setBusy(true);
    key.current ??= newIdempotencyKey();
    let created: Created;
    try {
      created = await call<Created>('POST', groupOrdersPath, toRequest(form), { lang, headers: { 'Idempotency-Key': key.current } });
    } catch (err) {
      setBusy(false);
      // A refusal is final for this body: an edited form is a new request.
      if (err instanceof ApiError && err.code !== networkError && err.status < 500) key.current = null;
      if (err instanceof ApiError && err.code === codes.validation) {
        const { fields, rest } = sortFieldErrors(err.fields, (k) => fieldFor(k, form));
        setErrors(fields);
        const n = Object.keys(fields).length;
        setFormErrors(rest.length || n ? rest : [err.message || errorText(err, t)]);
        focusFirst(fields, fieldId);
      } else {
        setFormErrors([errorText(err, t)]);
      }
      return;
    }
    navigate(`${confirmPath}?id=${encodeURIComponent(String(created.id))}`);
  }

  const setCount = (kind: keyof Passengers, v: string) => {
    const n = v === '' ? 0 : Math.trunc(Number(v));
    setForm((f) => ({ ...f, passengers: { ...f.passengers, [kind]: Number.isFinite(n) ? n : 0 } }));
    clearError('passengers');
  };
  const seats = form.passengers.adult + form.passengers.child;
  const fieldErrors = Object.keys(errors).length;

  return (
    <form className="fs-form gr-form" noValidate onSubmit={submit} aria-label={t('groupportal.request.formLabel')}>
      <TripChoice
        name="trip"
        legend={t('groupportal.request.trip')}
        types={tripTypes}
        value={form.trip}
        label={(tt) => t(`groupportal.trip.${tt}`)}
        onChange={(tt) => {
          setForm((f) => withTrip(f, tt));
          setErrors({});
          setFormErrors([]);
        }}
      />

      {/* The count follows the fields as they are put right. */}
      <FormErrors messages={fieldErrors > 0 ? [t('groupportal.error.summary', { count: fieldErrors }), ...formErrors] : formErrors} />

      <ol className="fs-rows gr-journeys">
        {form.journeys.map((j, i) => (
          <li className="fs-row gr-journey" key={j.key}>
            {form.trip === 'multi' && <p className="fs-row-title">{t('groupportal.request.journeyN', { n: i + 1 })}</p>}
            <div className="fs-row-fields">
              <JourneyEnd {...ends} i={i} end="origin" label={t('groupportal.field.origin')} value={j.origin} onChange={(p) => setJourney(j.key, { origin: p })} />
              <JourneyEnd {...ends} i={i} end="destination" label={t('groupportal.field.destination')} value={j.destination} onChange={(p) => setJourney(j.key, { destination: p })} />
              <JourneyDate
                id={fieldId(`journeys.${i}.date`)}
                label={t('groupportal.field.date')}
                value={j.date}
                min={today}
                error={errors[`journeys.${i}.date`]}
                onChange={(v) => {
                  setJourney(j.key, { date: v });
                  clearError(`journeys.${i}.date`);
                }}
              />
              {form.trip === 'return' && (
                <JourneyDate
                  id={fieldId(`journeys.${i}.returnDate`)}
                  label={t('groupportal.field.returnDate')}
                  value={j.returnDate}
                  min={j.date || today}
                  error={errors[`journeys.${i}.returnDate`]}
                  onChange={(v) => {
                    setJourney(j.key, { returnDate: v });
                    clearError(`journeys.${i}.returnDate`);
                  }}
                />
              )}
              <Field id={fieldId(`journeys.${i}.remark`)} label={t('groupportal.field.journeyRemark')} error={errors[`journeys.${i}.remark`]} className="gr-journey-remark">
                <input
                  id={fieldId(`journeys.${i}.remark`)}
                  className="fs-input"
                  value={j.remark}
                  maxLength={200}
                  placeholder={t('groupportal.field.journeyRemarkHint')}
                  {...invalid(fieldId(`journeys.${i}.remark`), errors[`journeys.${i}.remark`])}
                  onChange={(ev) => setJourney(j.key, { remark: ev.target.value })}
                />
              </Field>
              {form.trip === 'multi' && form.journeys.length > minMultiJourneys && (
                <RemoveJourney
                  label={t('groupportal.request.removeN', { n: i + 1 })}
                  text={t('groupportal.request.remove')}
                  onRemove={() => {
                    setForm((f) => removeJourney(f, j.key));
                    setErrors({});
                  }}
                />
              )}
            </div>
          </li>
        ))}
      </ol>
      {form.trip === 'multi' && (
        <MultiActions
          full={form.journeys.length >= maxJourneys}
          add={t('groupportal.request.add')}
          hint={t('groupportal.request.maxJourneys', { max: maxJourneys })}
          onAdd={() => setForm((f) => addJourney(f))}
        />
      )}

      <fieldset className="gr-box">
        <legend>{t('groupportal.request.flexibility')}</legend>
        <label className="gr-check">
          <input id={fieldId('isChangeDate')} type="checkbox" checked={form.isChangeDate} onChange={(ev) => setForm((f) => ({ ...f, isChangeDate: ev.target.checked }))} />
          <span>{t('groupportal.field.isChangeDate')}</span>
        </label>
        <label className="gr-check">
          <input
            id={fieldId('acceptChangeFlight')}
            type="checkbox"
            checked={form.acceptChangeFlight}
            onChange={(ev) => setForm((f) => ({ ...f, acceptChangeFlight: ev.target.checked }))}
          />
          <span>{t('groupportal.field.acceptChangeFlight')}</span>
        </label>
      </fieldset>

      <fieldset className={errors.passengers ? 'gr-box field-invalid' : 'gr-box'} aria-describedby={errors.passengers ? `${fieldId('passengers')}-error` : undefined}>
        <legend>{t('groupportal.request.passengers')}</legend>
        <div className="gr-counts">
          {(['adult', 'child', 'infant'] as const).map((kind, n) => (
            <div className="fs-field gr-count" key={kind}>
              <label htmlFor={n === 0 ? fieldId('passengers') : fieldId(`passengers.${kind}`)}>{t(`groupportal.passenger.${kind}`)}</label>
              <input
                id={n === 0 ? fieldId('passengers') : fieldId(`passengers.${kind}`)}
                type="number"
                inputMode="numeric"
                className="fs-input"
                min={kind === 'adult' ? 1 : 0}
                max={999}
                value={String(form.passengers[kind])}
                aria-invalid={errors.passengers ? true : undefined}
                onChange={(ev) => setCount(kind, ev.target.value)}
              />
            </div>
          ))}
          <p className="fs-hint gr-seats" aria-live="polite">
            {t('groupportal.request.seats', { count: seats, min: minSeats })}
          </p>
        </div>
        {errors.passengers && (
          <p className="field-error" id={`${fieldId('passengers')}-error`}>
            {errors.passengers}
          </p>
        )}
      </fieldset>

      <div className="fs-form-bottom">
        <Field id={fieldId('cabinClass')} label={t('groupportal.field.cabin')} error={errors.cabinClass}>
          <select
            id={fieldId('cabinClass')}
            className="fs-input"
            value={form.cabin}
            {...invalid(fieldId('cabinClass'), errors.cabinClass)}
            onChange={(ev) => {
              const c = ev.target.value;
              if (isCabin(c)) setForm((f) => ({ ...f, cabin: c }));
              clearError('cabinClass');
            }}
          >
            <CatalogOptions values={cabins} catalog="flight.cabin" />
          </select>
        </Field>
      </div>

      <fieldset className="gr-box">
        <legend>{t('groupportal.request.contact')}</legend>
        <div className="gr-contact">
          {(['name', 'email', 'phone'] as const).map((k) => (
            <Field key={k} id={fieldId(`contact.${k}`)} label={t(`groupportal.field.contact.${k}`)} error={errors[`contact.${k}`]}>
              <input
                id={fieldId(`contact.${k}`)}
                className="fs-input"
                type={k === 'email' ? 'email' : k === 'phone' ? 'tel' : 'text'}
                autoComplete={k === 'name' ? 'name' : k === 'email' ? 'email' : 'tel'}
                maxLength={k === 'phone' ? 32 : 100}
                value={form.contact[k]}
                {...invalid(fieldId(`contact.${k}`), errors[`contact.${k}`])}
                onChange={(ev) => {
                  const v = ev.target.value;
                  setForm((f) => ({ ...f, contact: { ...f.contact, [k]: v } }));
                  clearError(`contact.${k}`);
                }}
              />
            </Field>
          ))}
        </div>
      </fieldset>

      <Field id={fieldId('remark')} label={t('groupportal.field.remark')} error={errors.remark}>
        <textarea
          id={fieldId('remark')}
          className="fs-input gr-remark"
          rows={3}
          maxLength={500}
          value={form.remark}
          {...invalid(fieldId('remark'), errors.remark)}
          onChange={(ev) => {
            const v = ev.target.value;
            setForm((f) => ({ ...f, remark: v }));
            clearError('remark');
          }}
        />
      </Field>

      <p className="fs-hint">{t('groupportal.request.quoteNote')}</p>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy} aria-busy={busy || undefined}>
          {t('groupportal.request.submit')}
        </button>
      </div>
    </form>
  );
}

// fieldId is the element id of a field named as the server names it.
export function fieldId(field: string): string {
  return 'gr-' + field.replace(/\./g, '-');
}

function invalid(id: string, error: string | undefined) {
  return error ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {};
}

function Field({ id, label, error, className = '', children }: { id: string; label: string; error?: string; className?: string; children: ReactNode }) {
  return (
    <div className={`fs-field ${className}${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children}
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
