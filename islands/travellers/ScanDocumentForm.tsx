// ScanDocumentForm puts ScanDocument on a server-rendered traveller form
// (templates/travellers.templ): the fields it reads go into the inputs of
// the form with id `form`, by the names pkg/profile takes. The form still
// posts as without JavaScript.
import { ScanDocument } from './ScanDocument';
import type { ScannedFields } from './scan';

export type ScanDocumentFormProps = { form: string };

// fillForm sets the named inputs and selects of form; a select whose
// options do not hold the value keeps what it had. Empty values leave the
// field as it was.
export function fillForm(form: HTMLFormElement, fields: Partial<ScannedFields>): void {
  for (const [name, value] of Object.entries(fields)) {
    if (!value) continue;
    const el = form.elements.namedItem(name);
    if (el instanceof HTMLSelectElement) {
      if (!Array.from(el.options).some((o) => o.value === value)) continue;
      el.value = value;
    } else if (el instanceof HTMLInputElement) {
      el.value = value;
    } else {
      continue;
    }
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  }
}

export function ScanDocumentForm({ form }: ScanDocumentFormProps) {
  return (
    <ScanDocument
      onFill={(fields) => {
        const el = document.getElementById(form);
        if (el instanceof HTMLFormElement) fillForm(el, fields);
      }}
    />
  );
}
