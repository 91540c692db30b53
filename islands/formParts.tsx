// The parts the trip forms share (the flight search, the group request):
// their error state (which the booking form keeps as well), the trip type
// choice, the journeys' airports and dates, and the multi-city controls.
import { useState } from 'react';
import { AirportPicker } from './flight/AirportPicker';
import type { Place } from './flight/types';

// useFieldErrors holds a form's errors: by field (named as the server names
// it) and the form's own, shown above it.
export function useFieldErrors() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formErrors, setFormErrors] = useState<string[]>([]);
  function clearError(field: string) {
    if (!errors[field]) return;
    setErrors((e) => {
      const next = { ...e };
      delete next[field];
      return next;
    });
  }
  return { errors, setErrors, formErrors, setFormErrors, clearError };
}

// sortFieldErrors splits a validation refusal's field errors into those a
// field of the form shows (fieldFor names it; the first error a field
// gets) and the rest, for the form.
export function sortFieldErrors(fields: Record<string, string>, fieldFor: (name: string) => string | null | undefined) {
  const mine: Record<string, string> = {};
  const rest: string[] = [];
  for (const [k, msg] of Object.entries(fields)) {
    const f = fieldFor(k);
    if (f && !mine[f]) mine[f] = msg;
    else rest.push(msg);
  }
  return { fields: mine, rest };
}

// focusFirst moves the focus to the first field in error.
export function focusFirst(fields: Record<string, string>, fieldId: (name: string) => string) {
  const first = Object.keys(fields)[0];
  if (first) document.getElementById(fieldId(first))?.focus();
}

type TripChoiceProps<T extends string> = {
  name: string;
  legend: string;
  types: readonly T[];
  value: T;
  label: (t: T) => string;
  onChange: (t: T) => void;
};

// TripChoice is the one-way / return / multi-city radio group.
export function TripChoice<T extends string>({ name, legend, types, value, label, onChange }: TripChoiceProps<T>) {
  return (
    <fieldset className="fs-trip">
      <legend className="visually-hidden">{legend}</legend>
      {types.map((tt) => (
        <label key={tt} className={value === tt ? 'fs-trip-option is-checked' : 'fs-trip-option'}>
          <input type="radio" name={name} value={tt} checked={value === tt} onChange={() => onChange(tt)} />
          <span>{label(tt)}</span>
        </label>
      ))}
    </fieldset>
  );
}

// MultiActions adds a journey to a multi-city trip, up to its limit.
export function MultiActions({ full, add, hint, onAdd }: { full: boolean; add: string; hint: string; onAdd: () => void }) {
  return (
    <p className="fs-multi-actions">
      <button type="button" className="btn btn-small" disabled={full} onClick={onAdd}>
        {add}
      </button>
      <span className="fs-hint">{hint}</span>
    </p>
  );
}

// RemoveJourney takes one journey out of a multi-city trip.
export function RemoveJourney({ label, text, onRemove }: { label: string; text: string; onRemove: () => void }) {
  return (
    <button type="button" className="btn btn-small fs-remove" aria-label={label} onClick={onRemove}>
      {text}
    </button>
  );
}

// JourneyEndProps: i and end name the field as the server does
// (journeys.i.origin); the form's fieldId, errors and clearError place its
// id and error and clear the error once the user picks again.
export type JourneyEndProps = {
  i: number;
  end: 'origin' | 'destination';
  label: string;
  value: Place | null;
  onChange: (p: Place | null) => void;
  fieldId: (name: string) => string;
  errors: Record<string, string>;
  clearError: (name: string) => void;
  debounceMs?: number;
};

// JourneyEnd is the airport picker of one end of a search form's journey.
export function JourneyEnd({ i, end, fieldId, errors, clearError, onChange, ...picker }: JourneyEndProps) {
  const name = `journeys.${i}.${end}`;
  return (
    <AirportPicker
      {...picker}
      id={fieldId(name)}
      error={errors[name]}
      onChange={(p) => {
        onChange(p);
        clearError(name);
      }}
    />
  );
}

type JourneyDateProps = { id: string; label: string; value: string; min: string; required?: boolean; error?: string; onChange: (v: string) => void };

// JourneyDate is the date (or the return date) of a trip form's journey,
// no earlier than min.
export function JourneyDate({ id, label, value, min, required, error, onChange }: JourneyDateProps) {
  return (
    <div className={error ? 'fs-field fs-date field-invalid' : 'fs-field fs-date'}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="date"
        className="fs-input"
        value={value}
        min={min}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(ev) => onChange(ev.target.value)}
      />
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
