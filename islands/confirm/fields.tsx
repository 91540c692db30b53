// Labelled form fields whose errors are tied to them for assistive
// technology: aria-invalid, and aria-describedby naming the hint and the
// error under the field.
import type { ClipboardEvent, ReactNode } from 'react';
import { pastedDateOk } from './validate';

// fieldId is the element id of a field named as the server names it
// (passengers.0.surname → fc-passengers-0-surname).
export function fieldId(name: string): string {
  return 'fc-' + name.replace(/\./g, '-');
}

export type Aria = {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
};

export function describedBy(name: string, error?: string, hint?: string): string | undefined {
  const id = fieldId(name);
  return [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
}

export function aria(name: string, error?: string, hint?: string): Aria {
  return { id: fieldId(name), 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy(name, error, hint) };
}

type FieldProps = {
  name: string;
  label: string;
  error?: string;
  hint?: string;
  required?: boolean;
  wide?: boolean;
  children: (a: Aria) => ReactNode;
};

export function Field({ name, label, error, hint, required, wide, children }: FieldProps) {
  const id = fieldId(name);
  const cls = ['fs-field', 'fc-field', wide ? 'fc-field-wide' : '', error ? 'field-invalid' : ''].filter(Boolean).join(' ');
  return (
    <div className={cls}>
      <label htmlFor={id}>
        {label}
        {required && (
          <span className="fc-required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      {children(aria(name, error, hint))}
      {hint && (
        <p className="fs-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && <FieldError name={name} error={error} />}
    </div>
  );
}

export function FieldError({ name, error }: { name: string; error: string }) {
  return (
    <p className="field-error" id={`${fieldId(name)}-error`}>
      {error}
    </p>
  );
}

type GenderProps = {
  name: string;
  // row tells apart the radio groups of several passengers on one page.
  row: string | number;
  legend: string;
  value: string;
  label: (g: 'male' | 'female') => string;
  onChange: (g: 'male' | 'female') => void;
  error?: string;
  required?: boolean;
};

// GenderChoice is a passenger's gender, male or female, as the airline's
// and the railway's forms both ask it.
export function GenderChoice({ name, row, legend, value, label, onChange, error, required }: GenderProps) {
  return (
    <fieldset className={error ? 'fc-choice field-invalid' : 'fc-choice'}>
      <legend>
        {legend}
        <span className="fc-required" aria-hidden="true">
          {' '}
          *
        </span>
      </legend>
      {(['male', 'female'] as const).map((g, k) => (
        <label key={g} className="fc-radio">
          <input
            type="radio"
            id={k === 0 ? fieldId(name) : undefined}
            name={`${fieldId(name)}-${row}`}
            value={g}
            required={required}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${fieldId(name)}-error` : undefined}
            checked={value === g}
            onChange={() => onChange(g)}
          />{' '}
          {label(g)}
        </label>
      ))}
      {error && <FieldError name={name} error={error} />}
    </fieldset>
  );
}

type TextProps = {
  name: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  hint?: string;
  required?: boolean;
  disabled?: boolean;
  upper?: boolean;
  type?: 'text' | 'email' | 'tel';
  autoComplete?: string;
  maxLength?: number;
  wide?: boolean;
};

// TextField is a one-line input; upper turns what is typed into capitals
// at once, as names and document numbers are kept.
export function TextField({ name, label, value, onChange, error, hint, required, disabled, upper, type = 'text', autoComplete, maxLength, wide }: TextProps) {
  return (
    <Field name={name} label={label} error={error} hint={hint} required={required} wide={wide}>
      {(a) => (
        <input
          {...a}
          type={type}
          className={upper ? 'fs-input fc-upper' : 'fs-input'}
          value={value}
          required={required}
          disabled={disabled}
          autoComplete={autoComplete || 'off'}
          maxLength={maxLength}
          spellCheck={false}
          onChange={(ev) => onChange(upper ? ev.target.value.toUpperCase() : ev.target.value)}
        />
      )}
    </Field>
  );
}

type DateProps = Omit<TextProps, 'upper' | 'type' | 'maxLength'> & {
  // onPasteRejected hears of pasted text that is not a yyyy-mm-dd date.
  onPasteRejected: () => void;
};

// DateField is a date typed or pasted as yyyy-mm-dd (spec §5: a pasted date
// must be yyyy-mm-dd; anything else is refused and said so).
export function DateField({ name, label, value, onChange, error, hint, required, disabled, autoComplete, onPasteRejected }: DateProps) {
  function onPaste(ev: ClipboardEvent<HTMLInputElement>) {
    const text = ev.clipboardData?.getData('text') ?? '';
    ev.preventDefault();
    if (pastedDateOk(text)) onChange(text.trim());
    else onPasteRejected();
  }
  return (
    <Field name={name} label={label} error={error} hint={hint} required={required}>
      {(a) => (
        <input
          {...a}
          type="text"
          className="fs-input fc-date"
          inputMode="numeric"
          placeholder="yyyy-mm-dd"
          pattern="\d{4}-\d{2}-\d{2}"
          maxLength={10}
          value={value}
          required={required}
          disabled={disabled}
          autoComplete={autoComplete || 'off'}
          onPaste={onPaste}
          onChange={(ev) => onChange(ev.target.value.replace(/[^\d-]/g, ''))}
        />
      )}
    </Field>
  );
}
