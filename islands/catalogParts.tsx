// Markup whose texts are catalog keys, in the page's language: a table's
// column headers, a select's options.
import { useT } from './useT';

// TableHead is a table's header row, a column header for each catalog key
// of columns.
export function TableHead({ columns }: { columns: string[] }) {
  const { t } = useT();
  return (
    <thead>
      <tr>
        {columns.map((k) => (
          <th scope="col" key={k}>
            {t(k)}
          </th>
        ))}
      </tr>
    </thead>
  );
}

// CatalogOptions are a select's options, one for each of values, each
// reading catalog.value.
export function CatalogOptions({ values, catalog }: { values: readonly string[]; catalog: string }) {
  const { t } = useT();
  return (
    <>
      {values.map((v) => (
        <option key={v} value={v}>
          {t(`${catalog}.${v}`)}
        </option>
      ))}
    </>
  );
}
