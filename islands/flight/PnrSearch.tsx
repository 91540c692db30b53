// PnrSearch books from a booking record pasted from a GDS: the server reads
// the itinerary and passengers out of the text, the user checks them, and an
// accurate search prices exactly those flights.
import { useState, type FormEvent } from 'react';
import { useT } from '../useT';
import { ApiError, call, codes, errorText } from './api';
import { tOr } from './PriceDetail';
import type { Passengers, PnrAnalysis, Search } from './types';
import { TableHead } from '../catalogParts';
import { FormError } from '../FormErrors';

export type PnrSearchProps = {
  text: string;
  setText: (s: string) => void;
  analysis: PnrAnalysis | null;
  setAnalysis: (a: PnrAnalysis | null) => void;
  onSearch: (s: Search) => Promise<void>;
};

// paxCounts counts the record's travellers by type; a record without any
// still searches for one adult.
export function paxCounts(a: PnrAnalysis): Passengers {
  const p: Passengers = { adult: 0, child: 0, infant: 0 };
  for (const x of a.passengers || []) {
    const type = (x.type || 'adult').toLowerCase();
    if (type === 'child' || type === 'chd') p.child++;
    else if (type === 'infant' || type === 'inf') p.infant++;
    else p.adult++;
  }
  if (p.adult + p.child + p.infant === 0) p.adult = 1;
  return p;
}

export function accurateSearch(a: PnrAnalysis): Search {
  return {
    kind: 'accurate',
    request: {
      segments: (a.segments || []).map((s) => ({
        flightNumber: s.flightNumber,
        date: s.date,
        origin: s.origin,
        destination: s.destination,
        bookingClass: s.bookingClass,
      })),
      passengers: paxCounts(a),
    },
  };
}

export function PnrSearch({ text, setText, analysis, setAnalysis, onSearch }: PnrSearchProps) {
  const { t, lang } = useT();
  const [error, setError] = useState('');
  const [searchError, setSearchError] = useState('');
  const [busy, setBusy] = useState(false);

  async function parse(ev: FormEvent) {
    ev.preventDefault();
    setSearchError('');
    if (!text.trim()) {
      setError(t('flight.pnr.required'));
      document.getElementById('fs-pnr')?.focus();
      return;
    }
    setBusy(true);
    setError('');
    try {
      const a = await call<PnrAnalysis>('POST', '/shopping/v2/flight/analysis-pnr', { pnr: text }, { lang });
      setAnalysis({ ...a, segments: a.segments || [], passengers: a.passengers || [], skipped: a.skipped || [] });
      if (!a.segments || a.segments.length === 0) setError(t('flight.pnr.noSegments'));
    } catch (err) {
      setAnalysis(null);
      if (err instanceof ApiError && err.code === codes.validation) {
        setError(err.fields.pnr || Object.values(err.fields)[0] || err.message);
      } else {
        setError(errorText(err, t));
      }
      document.getElementById('fs-pnr')?.focus();
    } finally {
      setBusy(false);
    }
  }

  async function search() {
    if (!analysis) return;
    setBusy(true);
    setSearchError('');
    try {
      await onSearch(accurateSearch(analysis));
    } catch (err) {
      if (err instanceof ApiError && err.code === codes.validation && Object.keys(err.fields).length) {
        setSearchError(Object.values(err.fields).join(' '));
      } else {
        setSearchError(errorText(err, t));
      }
    } finally {
      setBusy(false);
    }
  }

  const canSearch = !!analysis && analysis.segments.length > 0;
  return (
    <div className="fs-pnr">
      <form noValidate onSubmit={parse} aria-label={t('flight.pnr.formLabel')}>
        <div className={error ? 'fs-field field-invalid' : 'fs-field'}>
          <label htmlFor="fs-pnr">{t('flight.pnr.label')}</label>
          <textarea
            id="fs-pnr"
            className="fs-input fs-pnr-text"
            rows={7}
            spellCheck={false}
            value={text}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'fs-pnr-hint fs-pnr-error' : 'fs-pnr-hint'}
            onChange={(ev) => {
              setText(ev.target.value);
              if (analysis) setAnalysis(null);
            }}
          />
          <p className="field-hint" id="fs-pnr-hint">
            {t('flight.pnr.hint')}
          </p>
          {error && (
            <p className="field-error" id="fs-pnr-error" role="alert">
              {error}
            </p>
          )}
        </div>
        <button type="submit" className="btn" disabled={busy} aria-busy={busy || undefined}>
          {t('flight.pnr.parse')}
        </button>
      </form>

      {analysis && (
        <section className="fs-pnr-result" aria-labelledby="fs-pnr-result-title">
          <h2 id="fs-pnr-result-title">
            {analysis.recordLocator ? t('flight.pnr.resultWithLocator', { locator: analysis.recordLocator }) : t('flight.pnr.result')}
          </h2>
          {analysis.segments.length > 0 && (
            <div className="table-wrap">
              <table className="table fs-pnr-table">
                <caption className="visually-hidden">{t('flight.pnr.segments')}</caption>
                <TableHead columns={['flight.pnr.flight', 'flight.pnr.class', 'flight.pnr.date', 'flight.pnr.from', 'flight.pnr.to', 'flight.pnr.departs', 'flight.pnr.arrives']} />
                <tbody>
                  {analysis.segments.map((s, i) => (
                    <tr key={i}>
                      <td>{s.flightNumber}</td>
                      <td>{s.bookingClass}</td>
                      <td>{s.date}</td>
                      <td>{s.origin}</td>
                      <td>{s.destination}</td>
                      <td>{s.departTime || ''}</td>
                      <td>{s.arriveTime || ''}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <h3>{t('flight.pnr.passengers')}</h3>
          {analysis.passengers.length ? (
            <ul className="fs-pnr-pax">
              {analysis.passengers.map((p, i) => (
                <li key={i}>
                  {p.surname}/{p.givenName}
                  {p.type ? ` · ${tOr(t, `flight.passengers.${p.type}`, p.type)}` : ''}
                </li>
              ))}
            </ul>
          ) : (
            <p>{t('flight.pnr.noPassengers')}</p>
          )}
          {analysis.skipped && analysis.skipped.length > 0 && (
            <>
              <h3>{t('flight.pnr.skipped')}</h3>
              <ul className="fs-pnr-skipped">
                {analysis.skipped.map((l, i) => (
                  <li key={i}>
                    <code>{l}</code>
                  </li>
                ))}
              </ul>
            </>
          )}
          <FormError message={searchError} />
          <button type="button" className="btn btn-primary" disabled={!canSearch || busy} onClick={search}>
            {t('flight.pnr.search')}
          </button>
        </section>
      )}
    </div>
  );
}
